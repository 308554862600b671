"""The team stage's rows in the site's stage tables (``formats.Stage.TEAMS``), registered by
``teams.apps`` when Django starts, since ``tournaments`` and ``matches`` sit below ``teams``
and must not import it (``tests/test_layers.py``); ``web.stage_pages`` holds its own row.

- the draw (``tournaments.stage_draws``): ``teams.team_draw``, drawing the teams entered
  (the draw form counts them);
- the handler (``matches.stage_handlers``): ``teams.team_handler``.
"""

from __future__ import annotations

from formats import Stage
from matches.stage_handlers import stage_handler_register
from teams.models import TeamEntry
from teams.team_draw import team_stage_draw, team_stage_lengths
from teams.team_handler import TEAM_HANDLER
from tournaments.models import Tournament
from tournaments.stage_draws import StageDraw, stage_draw_register

__all__ = ["TEAM_DRAW", "team_rows_register"]


def _teams_entered(tournament: Tournament) -> int:
    return TeamEntry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()


TEAM_DRAW = StageDraw(draw=team_stage_draw, lengths=team_stage_lengths, entrants=_teams_entered)


def team_rows_register() -> None:
    """Register the team stage's rows (module docstring)."""
    stage_draw_register(stage=Stage.TEAMS, row=TEAM_DRAW)
    stage_handler_register(stage=Stage.TEAMS, row=TEAM_HANDLER)
