"""The draw of a knockout (single elimination): one ``Round`` per round and the first
round's pairs from ``stages.knockout``; the matches are made by the matches app.

Decisions where the docs are silent:
- Rounds default to 3 games, the semifinals to 5 and the final to 7
  (``knockout.default_lengths``).
- The third-place match is played over the final's length, and only when at least
  4 players are entered (with 3 players one semifinal is a bye).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.permissions import User
from stages import knockout
from tournaments.draw_steps import draw_begin, draw_end, seeded_and_drawn
from tournaments.match_plans import knockout_plan
from tournaments.match_play_port import match_play
from tournaments.models import Round, Tournament
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
    ``knockout.default_lengths``). ``draw_seed`` reproduces an earlier draw; a new
    one is chosen and stored otherwise. Seeded entries are placed by seed order
    (their seed numbers only order them, gaps are closed), unseeded entries by
    the draw; byes go to the top seeds.
    """
    with transaction.atomic():
        tournament, entries = draw_begin(
            tournament=tournament,
            doing=_("Drawing the bracket"),
            too_few=_("A knockout needs at least 2 players; %(count)s entered. Enter more first."),
        )
        rounds = knockout.round_count(len(entries))
        lengths, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=knockout.default_lengths(rounds),
            players=len(entries),
        )
        if draw_seed is None:
            draw_seed = secrets.randbits(62)
        pairs = knockout.first_round(*seeded_and_drawn(entries), draw_seed)
        round_rows = [
            Round.objects.create(
                tournament=tournament,
                number=number,
                rounds_after=knockout.rounds_after(number, rounds),
                match_length=lengths[number - 1],
                length_unit=unit,
            )
            for number in range(1, rounds + 1)
        ]
        draw_end(tournament=tournament, draw_seed=draw_seed)
        plan = knockout_plan(
            rounds=round_rows,
            first_round=[(p.upper, p.lower) for p in pairs],
            third_place=tournament.third_place_match and len(entries) >= 4,
        )
        match_play().matches_create(tournament=tournament, plan=plan, by=by)
    return tournament
