"""The draw of a knockout (single elimination): one ``Round`` per round and the first
round's pairs from ``tournaments.bracket``; the matches are made by the matches app.

Decisions where the docs are silent:
- Rounds default to 3 games, the semifinals to 5 and the final to 7
  (``bracket.default_lengths``).
- The third-place match is played over the final's length, and only when at least
  4 players are entered (with 3 players one semifinal is a bye).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.permissions import User
from tournaments import bracket
from tournaments.guards import draft_require, draw_entries
from tournaments.matchplay import match_play
from tournaments.models import Round, Tournament, TournamentStatus
from tournaments.page_versions import tournament_touch
from tournaments.round_lengths import round_lengths

__all__ = ["knockout_draw"]


def knockout_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Draw the single-elimination bracket from the active entries.

    ``lengths``: one match length per round, first round first (default:
    ``bracket.default_lengths``). ``draw_seed`` reproduces an earlier draw; a new
    one is chosen and stored otherwise. Seeded entries are placed by seed order
    (their seed numbers only order them, gaps are closed), unseeded entries by
    the draw; byes go to the top seeds.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft_require(tournament, _("Drawing the bracket"))
        entries = draw_entries(
            tournament,
            _("A knockout needs at least 2 players; %(count)s entered. Enter more first."),
        )
        rounds = bracket.round_count(len(entries))
        lengths, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=bracket.default_lengths(rounds),
            players=len(entries),
        )
        seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
        unseeded = [e for e in entries if e.seed is None]
        if draw_seed is None:
            draw_seed = secrets.randbits(62)
        pairs = bracket.first_round(
            [e.player for e in seeded], [e.player for e in unseeded], draw_seed
        )
        round_rows = [
            Round.objects.create(
                tournament=tournament,
                number=number,
                rounds_after=bracket.rounds_after(number, rounds),
                match_length=lengths[number - 1],
                length_unit=unit,
            )
            for number in range(1, rounds + 1)
        ]
        tournament.draw_seed = draw_seed
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["draw_seed", "status"])
        tournament_touch(tournament_id=tournament.pk)
        match_play().bracket_create(
            tournament=tournament,
            rounds=round_rows,
            first_round=[(p.upper, p.lower) for p in pairs],
            third_place=tournament.third_place_match and len(entries) >= 4,
            by=by,
        )
    return tournament
