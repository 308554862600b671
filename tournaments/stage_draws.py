"""What each stage does at the draw, in one table keyed by ``formats.Stage``: the draw
itself, the default length of every round it creates, and the default tiebreak chain of
a stage ranked by a table.

The draw of a tournament (``tournament_draw``), the draw form's lengths
(``draw_lengths``) and a new tournament's chain (``tournaments.format_options``) read the
row of the tournament's first stage (``formats.format_for(...).stage``); no module asks
which stage or format a tournament has. A new stage is a new row here, or, for a stage
an app above ``tournaments`` runs (the team matches), a row that app registers
(``stage_draw_register``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.permissions import User
from formats import Stage, format_for
from games.registry import family_for
from stages import knockout, roundrobin, tiebreaks
from tournaments import elimination_draw, swiss_rounds
from tournaments.guards import organiser_require
from tournaments.knockout_draw import knockout_draw
from tournaments.models import Entry, Tournament
from tournaments.round_robin_draw import round_robin_draw

__all__ = [
    "STAGE_DRAWS",
    "StageDraw",
    "draw_entrants",
    "draw_lengths",
    "stage_draw",
    "stage_draw_register",
    "tournament_draw",
]


class Draw(Protocol):
    """A stage's draw: the rounds (and, but for a Swiss, the matches) from the active
    entries; ``lengths`` one match length per round, ``draw_seed`` reproduces a draw."""

    def __call__(
        self,
        *,
        tournament: Tournament,
        by: User,
        lengths: Sequence[int] | None,
        draw_seed: int | None,
    ) -> Tournament: ...


@dataclass(frozen=True)
class StageDraw:
    """A stage's row: its ``draw``; ``lengths(tournament, players)``, the default length of
    each round the draw creates; ``chain(game, scale)``, the default tiebreak chain after
    match points (``None`` for a bracket, which has no table); ``entrants(tournament)``,
    how many the draw draws (``None``: the active players' entries; a team stage counts
    its teams)."""

    draw: Draw
    lengths: Callable[[Tournament, int], list[int]]
    chain: Callable[[str, str], list[str]] | None = None
    entrants: Callable[[Tournament], int] | None = None


def _knockout_lengths(tournament: Tournament, players: int) -> list[int]:
    return knockout.default_lengths(knockout.round_count(players))


def _elimination_lengths(tournament: Tournament, players: int) -> list[int]:
    shape = elimination_draw.bracket_shape(tournament, players)
    return elimination_draw.default_lengths(elimination_draw.round_plan(shape))


def _group_lengths(tournament: Tournament, players: int) -> list[int]:
    rounds = roundrobin.group_round_count(
        players, tournament.groups, double=tournament.double_round
    )
    return roundrobin.default_lengths(rounds)


def _group_chain(game: str, scale: str) -> list[str]:
    """A round robin's tiebreaks after match points: its game's family's default."""
    return tiebreaks.default_chain(family_for(game), scale)


def _swiss_lengths(tournament: Tournament, players: int) -> list[int]:
    rounds = tournament.swiss_rounds or swiss_rounds.default_rounds(players)
    return roundrobin.default_lengths(rounds)


STAGE_DRAWS: dict[Stage, StageDraw] = {
    Stage.KNOCKOUT: StageDraw(draw=knockout_draw, lengths=_knockout_lengths),
    Stage.ELIMINATION: StageDraw(
        draw=elimination_draw.elimination_draw, lengths=_elimination_lengths
    ),
    Stage.GROUPS: StageDraw(draw=round_robin_draw, lengths=_group_lengths, chain=_group_chain),
    # Rounds created empty, paired one at a time (``matches.swiss_progression``).
    Stage.PAIRED: StageDraw(
        draw=swiss_rounds.swiss_start, lengths=_swiss_lengths, chain=swiss_rounds.default_chain
    ),
}


def stage_draw_register(*, stage: Stage, row: StageDraw) -> None:
    """The row of a stage run by an app above this one (the team matches of ``teams``,
    which imports ``tournaments``, not the other way): registered when Django starts
    (its ``AppConfig.ready``), as ``matches`` registers its side of
    ``tournaments.match_play_port``. Registering the same row again changes nothing."""
    if STAGE_DRAWS.get(stage, row) != row:
        raise ValueError(f"the stage {stage!r} has a draw already")
    STAGE_DRAWS[stage] = row


def stage_draw(stage: Stage) -> StageDraw:
    """The row of ``stage``."""
    return STAGE_DRAWS[stage]


def tournament_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None = None,
    draw_seed: int | None = None,
) -> Tournament:
    """Draw the tournament's first stage from the active entries (organisers only, before
    the draw): the row of its format's stage draws it.

    ``lengths``: one match length per round, first round first (default: the stage's,
    ``draw_lengths``). ``draw_seed`` reproduces an earlier draw; a new one is chosen and
    stored otherwise.
    """
    organiser_require(by, tournament)
    draw = stage_draw(format_for(tournament.format).stage).draw
    return draw(tournament=tournament, by=by, lengths=lengths, draw_seed=draw_seed)


def draw_entrants(*, tournament: Tournament) -> int:
    """How many the tournament's draw draws: its stage's ``entrants``, by default the
    players' entries still in (the draw form's count of players)."""
    entrants = stage_draw(format_for(tournament.format).stage).entrants
    if entrants is not None:
        return entrants(tournament)
    return Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()


def draw_lengths(tournament: Tournament, players: int) -> list[int]:
    """The default length of every round the draw creates for ``players`` players (an
    empty list below two players). The draw form offers these; the draws use the same
    functions, so the form and the draw cannot disagree."""
    if players < 2:
        return []
    return stage_draw(format_for(tournament.format).stage).lengths(tournament, players)
