"""What the matches app does for each kind of stage (``formats.Stage``): one row per stage,
the one place in ``matches/`` that tells the stages apart (a stage run by an app above
``matches``, the team matches, registers its row: ``stage_handler_register``).

A format of an existing stage (a Monrad beside the Swiss) needs no change here: its
stage's row serves it. A new kind of stage is one new row. Each row gives:

- ``pairs_rounds``: its rounds are paired one at a time from the standings (pair, publish,
  check-in, half-point byes; a player withdrawn between rounds is simply not paired again);
- ``placings``: the final placings so far (``matches.placing.Placing``, best first);
- ``orders``: the players of each of its tables in order, for a knockout drawn from them
  (None: it has no tables);
- ``rounds_to_play``: how many of its rounds are still to be paired or published (a
  knockout after it waits for them);
- ``tables``: its standings tables (a round robin's groups, paired rounds' one table;
  None: it has none);
- ``standings``: its standings in the standings API's shape (None: it has none, its
  placings stand for them); ``standings_shared``: the same for every reader, so the
  API may answer a crowd from one rendering;
- ``sections``: the brackets after its main one, for the bracket pages and API (None: one
  bracket), and ``main_title`` the main one's title.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from formats import Stage, format_for, keys
from matches import elimination_brackets
from matches.elimination_placings import elimination_placings
from matches.group_placings import group_orders, group_placings, paired_orders, paired_placings
from matches.group_standings import group_tables
from matches.knockout_placings import knockout_placings
from matches.models import Match
from matches.placing import Placing
from matches.standings_data import group_standings_data, paired_standings_data
from matches.swiss_standings import swiss_standings, unplayed_swiss_rounds
from tournaments.models import Player, Round, Tournament

__all__ = [
    "HANDLERS",
    "StageHandler",
    "StandingsTable",
    "handler_for",
    "paired_format_keys",
    "stage_handler_register",
]


class StandingsTable(Protocol):
    """A standings table as the pages read it (``GroupStandings``, ``SwissStandings``)."""

    @property
    def chain(self) -> tuple[str, ...]: ...

    @property
    def lines(self) -> Sequence[Any]: ...

    @property
    def label(self) -> str: ...


Sections = Callable[[Tournament, Sequence[Round], Mapping[int, list[Match]]], list[Any]]


def _none_to_play(tournament: Tournament) -> int:
    return 0


@dataclass(frozen=True, slots=True)
class StageHandler:
    """One stage's row (module docstring)."""

    pairs_rounds: bool
    placings: Callable[[Tournament], list[Placing]]
    orders: Callable[[Tournament], list[list[Player]]] | None = None
    rounds_to_play: Callable[[Tournament], int] = _none_to_play
    tables: Callable[[Tournament], Sequence[StandingsTable]] | None = None
    standings: Callable[[Tournament], dict[str, Any]] | None = None
    standings_shared: bool = False
    sections: Sections | None = None
    main_title: Callable[[Tournament], str] | None = None


HANDLERS: dict[Stage, StageHandler] = {
    Stage.KNOCKOUT: StageHandler(
        pairs_rounds=False,
        placings=lambda t: knockout_placings(tournament=t),
    ),
    Stage.ELIMINATION: StageHandler(
        pairs_rounds=False,
        placings=lambda t: elimination_placings(tournament=t),
        sections=lambda t, rounds, matches: elimination_brackets.elimination_sections(
            tournament=t, rounds=rounds, matches=matches
        ),
        main_title=elimination_brackets.main_title,
    ),
    Stage.GROUPS: StageHandler(
        pairs_rounds=False,
        placings=lambda t: group_placings(tournament=t),
        orders=group_orders,
        tables=lambda t: group_tables(tournament=t),
        standings=group_standings_data,
        standings_shared=True,
    ),
    Stage.PAIRED: StageHandler(
        pairs_rounds=True,
        placings=lambda t: paired_placings(tournament=t),
        orders=paired_orders,
        tables=lambda t: [swiss_standings(tournament=t)],
        rounds_to_play=lambda t: unplayed_swiss_rounds(tournament=t),
        standings=paired_standings_data,  # after the published rounds: per reader
    ),
}


def stage_handler_register(*, stage: Stage, row: StageHandler) -> None:
    """The row of a stage run by an app above ``matches`` (the team matches of ``teams``),
    registered when Django starts (its ``AppConfig.ready``); the same row again changes
    nothing."""
    if HANDLERS.get(stage, row) != row:
        raise ValueError(f"the stage {stage!r} has a handler already")
    HANDLERS[stage] = row


def handler_for(tournament: Tournament) -> StageHandler:
    """The row of the tournament's first stage (its format's, ``formats.format_for``)."""
    return HANDLERS[format_for(tournament.format).stage]


def paired_format_keys() -> tuple[str, ...]:
    """The keys of the formats whose rounds are paired one at a time (for a query over
    many tournaments: ``tournament__format__in=paired_format_keys()``)."""
    return tuple(
        key
        for stage, handler in HANDLERS.items()
        if handler.pairs_rounds
        for key in keys(stage=stage)
    )
