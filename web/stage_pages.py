"""Which page parts each kind of stage (``formats.Stage``) shows: one row per stage, the one
place in ``web/`` that tells the stages apart.

A format of an existing stage (a Monrad beside the Swiss) needs no change here: its
stage's row serves it. A new kind of stage is one new row. Each row says:

- ``bracket``: its page draws a bracket (``_bracket.html``), the part the live page polls;
  a stage without one sends the bracket's address to its standings;
- ``bracket_columns``: that bracket is put together from its rounds' columns, each cached
  on its own (``web.views.bracket_parts``: one bracket, a knockout);
- ``brackets``: it has brackets after the main one (consolation, losers', final), so
  the match lengths are given for each;
- ``group_table``: its page shows the round robin's tables (``group_context``), its
  rounds, and the knockout after them apart;
- ``paired_rounds``: its pages are the paired rounds' (``web.views.swiss``): standings,
  the rounds the reader may see, check-in, pairing, half-point byes;
- ``standings``: the screen shows its standings (``matches.stage_handlers``' tables);
- ``team_table``: its pages are the team matches' (``web.views.team_stage``): the team
  table, the rounds' team matches and their boards.
"""

from __future__ import annotations

from dataclasses import dataclass

from formats import Stage, format_for
from tournaments.models import Tournament

__all__ = ["STAGE_PAGES", "StagePage", "page_for", "stage_page"]


@dataclass(frozen=True, slots=True)
class StagePage:
    """One stage's row (module docstring)."""

    bracket: bool = False
    bracket_columns: bool = False
    brackets: bool = False
    group_table: bool = False
    paired_rounds: bool = False
    standings: bool = False
    team_table: bool = False


STAGE_PAGES: dict[Stage, StagePage] = {
    Stage.KNOCKOUT: StagePage(bracket=True, bracket_columns=True),
    Stage.ELIMINATION: StagePage(bracket=True, brackets=True),
    Stage.GROUPS: StagePage(group_table=True, standings=True),
    Stage.PAIRED: StagePage(paired_rounds=True, standings=True),
    Stage.TEAMS: StagePage(team_table=True),
}


def stage_page(key: str) -> StagePage:
    """The page parts of the format stored as ``key`` (its first stage's row)."""
    return STAGE_PAGES[format_for(key).stage]


def page_for(tournament: Tournament) -> StagePage:
    """The page parts of ``tournament``'s format."""
    return stage_page(tournament.format)
