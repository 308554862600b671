"""Every stage's matches move along stored links: a knockout drawn before this change fed
its next round by slot arithmetic, so its links are written here — round r's line ``slot``
to round r + 1's line ``slot // 2`` (an even line the upper side), the semifinals' losers
to the third-place match — as ``tournaments.match_plans.knockout_plan`` writes them now.
Only knockouts' matches without a code are touched (an elimination's, a knockout drawn from
groups, already have their links)."""

from __future__ import annotations

from typing import Any

from django.db import migrations

_LINKS = ["winner_to", "winner_to_upper", "loser_to", "loser_to_upper"]


def knockout_links(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    rows = Match.objects.filter(round__kind="knockout", code="").select_related("round")
    by_tournament: dict[int, list[Any]] = {}
    for match in rows.order_by("tournament_id", "round__number", "slot"):
        by_tournament.setdefault(match.tournament_id, []).append(match)
    changed: list[Any] = []
    for matches in by_tournament.values():
        if any(m.winner_to_id or m.loser_to_id for m in matches):
            continue
        numbers = sorted({m.round.number for m in matches if not m.is_third_place})
        if not numbers:
            continue
        last = numbers[-1]
        place = {(m.round.number, m.slot): m for m in matches if not m.is_third_place}
        third = next((m for m in matches if m.is_third_place), None)
        for m in matches:
            if m.is_third_place:
                continue
            number = m.round.number
            target = place.get((number + 1, m.slot // 2))
            linked = False
            if number < last and target is not None:
                m.winner_to, m.winner_to_upper = target, m.slot % 2 == 0
                linked = True
            if third is not None and number == last - 1:
                m.loser_to, m.loser_to_upper = third, m.slot % 2 == 0
                linked = True
            if linked:
                changed.append(m)
    Match.objects.bulk_update(changed, _LINKS, batch_size=500)


def unlink(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    Match.objects.filter(round__kind="knockout", code="").update(
        winner_to=None, winner_to_upper=True, loser_to=None, loser_to_upper=True
    )


class Migration(migrations.Migration):
    dependencies = [("matches", "0013_site_notes_and_reason_codes")]

    operations = [migrations.RunPython(knockout_links, unlink)]
