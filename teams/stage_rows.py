"""The team stage's rows in the site's stage tables (``formats.Stage.TEAMS``), registered by
``teams.apps`` when Django starts, since ``tournaments`` and ``matches`` sit below ``teams``
and must not import it (``tests/test_layers.py``); ``web.stage_pages`` holds its own row.

- the draw (``tournaments.stage_draws``): ``teams.team_draw``, drawing the teams entered
  (the draw form counts them);
- the handler (``matches.stage_handlers``): no placings of players (a team competition's
  order is its table, ``teams.tables``), and the rounds still to play are the rounds with
  a team match whose boards are not made yet or that are not paired yet, so the
  tournament is not finished while a line-up is missing.
"""

from __future__ import annotations

from formats import Stage
from matches.placing import Placing
from matches.stage_handlers import StageHandler, stage_handler_register
from teams.models import TeamEntry, TeamMatch
from teams.team_draw import team_stage_draw, team_stage_lengths
from tournaments.models import Round, Tournament
from tournaments.stage_draws import StageDraw, stage_draw_register

__all__ = ["TEAM_DRAW", "TEAM_HANDLER", "team_rows_register"]


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


def _teams_entered(tournament: Tournament) -> int:
    return TeamEntry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()


TEAM_DRAW = StageDraw(draw=team_stage_draw, lengths=team_stage_lengths, entrants=_teams_entered)
TEAM_HANDLER = StageHandler(
    pairs_rounds=False, placings=_no_placings, rounds_to_play=_rounds_to_play
)


def team_rows_register() -> None:
    """Register the team stage's rows (module docstring)."""
    stage_draw_register(Stage.TEAMS, TEAM_DRAW)
    stage_handler_register(Stage.TEAMS, TEAM_HANDLER)
