"""The draw of a knockout (single elimination): one ``Round`` per round and the first
round's pairs from ``stages.knockout``; the matches are made by the matches app.

Decisions where the docs are silent:
- Rounds default to 3 games, the semifinals to 5 and the final to 7
  (``knockout.default_lengths``).
- The third-place match is played over the final's length, and only when at least
  4 players are entered (with 3 players one semifinal is a bye).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.permissions import User
from stages import knockout
from tournaments.draw_steps import draw_end, draw_open, rounds_make, seeded_and_drawn
from tournaments.match_plans import knockout_plan
from tournaments.match_play_port import match_play
from tournaments.models import Tournament
from tournaments.round_kinds import RoundKind

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
    ``knockout.default_lengths``). ``draw_seed`` reproduces an earlier draw; a new
    one is chosen and stored otherwise. Seeded entries are placed by seed order
    (their seed numbers only order them, gaps are closed), unseeded entries by
    the draw; byes go to the top seeds.
    """
    with transaction.atomic():
        opening = draw_open(
            tournament=tournament,
            doing=_("Drawing the bracket"),
            too_few=_("A knockout needs at least 2 players; %(count)s entered. Enter more first."),
            lengths=lengths,
            defaults=lambda t, players: knockout.default_lengths(knockout.round_count(players)),
            draw_seed=draw_seed,
        )
        tournament, entries = opening.tournament, opening.entries
        pairs = knockout.first_round(*seeded_and_drawn(entries), opening.seed)
        round_rows = rounds_make(opening, kind=RoundKind.KNOCKOUT)
        draw_end(tournament=tournament, draw_seed=opening.seed)
        plan = knockout_plan(
            rounds=round_rows,
            first_round=[(p.upper, p.lower) for p in pairs],
            third_place=tournament.third_place_match and len(entries) >= 4,
        )
        match_play().matches_create(tournament=tournament, plan=plan, by=by)
    return tournament
