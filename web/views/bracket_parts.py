"""A knockout's bracket put together from its rounds' columns, each rendered and cached on
its own under the round's version (``web.live``).

Every entry changes the bracket, so its ETag (the tournament's version) changes and every
poller gets it again; but only the round that shows the entry (and the next round, where a
decided match's winner goes) has a new version, so only that column is rendered again — once
for all the pollers — and the others come from the cache. A round's version is the largest
of its matches' (``matches.round_selectors.bracket_parts``), or the tournament's ``whole_version``
if later: the draw, names, the scale and the status change every column.

Only the plain knockout is put together this way; the consolation and double elimination
brackets (``_elimination.html``) are rendered whole under the tournament's version.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from core.conditional import cached_many
from matches import round_selectors
from tournaments.models import Tournament
from tournaments.selectors import LiveStamp, part_version

__all__ = ["knockout_bracket_html"]


def knockout_bracket_html(
    request: HttpRequest, stamp: LiveStamp, tournament: Tournament, context: Mapping[str, object]
) -> str:
    """``_bracket.html`` for a knockout, its columns from the cache (module doc).

    ``stamp`` is the tournament's; ``context`` holds what the wrapper shows (``live``,
    ``live_every``). Queries: the columns' versions, and one for the columns not cached,
    however many they are."""
    parts = round_selectors.bracket_parts(tournament=tournament)
    whole = tournament.whole_version
    rounds = [p for p in parts if p.round is not None]
    keys: list[tuple[str, LiveStamp]] = []
    for i, part in enumerate(parts):
        version = replace(stamp, version=part_version(part.version, whole))
        if part.round is None:
            keys.append((f"bracket-third:{part.third_place}", version))
        else:
            edges = f"{int(i == 0)}{int(i == len(rounds) - 1)}"
            keys.append((f"bracket-round:{part.round.pk}:{edges}", version))

    def build(missing: list[int]) -> list[str]:
        wanted = [parts[i] for i in missing]
        shown = round_selectors.bracket_columns(
            tournament=tournament,
            rounds=[p.round for p in wanted if p.round is not None],
            third_place=next((p.third_place for p in wanted if p.third_place), None),
            by=request.user,
        )
        html: list[str] = []
        for i in missing:
            part = parts[i]
            if part.round is None:
                html.append(
                    render_to_string(
                        "web/_bracket_third.html",
                        {"m": shown.third_place, "tournament": tournament},
                        request,
                    )
                )
                continue
            column = next(br for br in shown.rounds if br.round.pk == part.round.pk)
            html.append(
                render_to_string(
                    "web/_bracket_round.html",
                    {
                        "round": column.round,
                        "title": column.round.name,
                        "matches": column.matches,
                        "tournament": tournament,
                        "first": i == 0,
                        "last": i == len(rounds) - 1,
                    },
                    request,
                )
            )
        return html

    # Our own templates' output, escaped by them when rendered.
    html = [mark_safe(h) for h in cached_many(keys, build)]
    shape = round_selectors.Bracket(
        tournament=tournament,
        rounds=[round_selectors.BracketRound(round=p.round) for p in rounds if p.round is not None],
        third_place=None,
    )
    return render_to_string(
        "web/_bracket.html",
        {
            **context,
            "tournament": tournament,
            "bracket": shape,
            "round_parts": html[: len(rounds)],
            "third_part": html[len(rounds)] if len(html) > len(rounds) else "",
            "first_count": rounds[0].matches if rounds else 0,
        },
        request,
    )
