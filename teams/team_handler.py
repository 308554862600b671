"""The team stage's row in ``matches.stage_handlers`` (registered by ``teams.stage_rows``),
and the one question the teams app asks of a tournament's stage: is it this one?

No placings of players (a team competition's order is its table, ``teams.tables``); the
rounds still to play are the rounds not paired yet or with a team match whose boards are
not made yet, so the tournament is not finished while a line-up is missing.
"""

from __future__ import annotations

from matches.placing import Placing
from matches.stage_handlers import StageHandler, handler_for
from teams.models import TeamMatch
from tournaments.models import Round, Tournament

__all__ = ["TEAM_HANDLER", "is_team_stage"]


def _no_placings(tournament: Tournament) -> list[Placing]:
    return []


def _rounds_to_play(tournament: Tournament) -> int:
    unpaired = Round.objects.filter(tournament=tournament, team_matches__isnull=True).count()
    waiting = (
        TeamMatch.objects.filter(tournament=tournament, boards_made=False)
        .values("round_id")
        .distinct()
        .count()
    )
    return unpaired + waiting


TEAM_HANDLER = StageHandler(
    pairs_rounds=False, placings=_no_placings, rounds_to_play=_rounds_to_play
)


def is_team_stage(tournament: Tournament) -> bool:
    """Whether the tournament's stage is team matches: its stage's row is this one."""
    return handler_for(tournament) is TEAM_HANDLER
