"""Backgammon match scoring from entered game results (seed 002, "Gammon og backgammon",
"Dobleterningen" and the Crawford rule).

A tournament enters per game the winner, how the game ended and the cube's value; this
module turns such results into points and the match's score, the Crawford game and the
winner. The replay of a ``.mat`` record (:mod:`backgammon.replay`) finds the same figures
from the play itself; both count through :class:`backgammon.cube.MatchScore`.

Points of one game (seed 002):

- played out: the cube's value times 1 (*single*), 2 (*gammon*: the loser has borne off
  nothing) or 3 (*backgammon*: nothing borne off and a checker on the bar or in the
  winner's home board);
- a *drop* (a refused double): the value the cube showed before the double — the doubler
  wins that many points;
- a *resignation*: 1, 2 or 3 times the cube, as the resignation conceded a single game, a
  gammon or a backgammon.

The match is played to ``length`` points and ends at once when a player reaches it. The
game right after a player first reaches match point (length − 1) is the *Crawford game*:
no one may double in it, so its cube stays at 1 and no double can be dropped; after it
doubling is allowed again. Cube values are powers of two; values past 64 are allowed.

Decisions where the seed is silent:

- A match is 1 to :data:`MAX_MATCH_POINTS` (25) points long, the site's bound (as bräde's
  best of 25): a 1-point match has no Crawford game (no one can *reach* match point).
- An entered drop's cube value is the value before the refused double (what a ``.mat``
  record writes as ``Doubles => 4`` / ``Drops`` / ``Wins 2 points`` is entered as a drop
  at cube 2): the value the points come from, as for every other ending.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from backgammon.cube import MatchScore, Win
from backgammon.errors import BackgammonError, CubeError, MatchError, ResultEntryError
from backgammon.messages import bg_msg

__all__ = [
    "MAX_MATCH_POINTS",
    "Ending",
    "GameResult",
    "MatchStanding",
    "ScoredGame",
    "check_cube_value",
    "check_match_length",
    "game_points",
    "score_match",
]

MAX_MATCH_POINTS = 25


class Ending(StrEnum):
    """How a game ended, as a result is entered (and as a replay reports it: ``how``)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGN = "resign"


_PLAYED: dict[Ending, Win] = {
    Ending.SINGLE: Win.SINGLE,
    Ending.GAMMON: Win.GAMMON,
    Ending.BACKGAMMON: Win.BACKGAMMON,
}


def check_cube_value(value: object) -> int:
    """A cube value: a power of two from 1 ("Dobleterningen": it starts at 1 and every
    double doubles it; values past 64 are allowed)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultEntryError(bg_msg("bg.result.cube_whole", value=repr(value)))
    if value < 1 or value & (value - 1):
        raise ResultEntryError(bg_msg("bg.result.cube_power", value=value))
    return value


def check_match_length(length: object) -> int:
    """A match length in points: a whole number from 1 to :data:`MAX_MATCH_POINTS`."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise MatchError(bg_msg("bg.match.length_whole", length=repr(length)))
    if not 1 <= length <= MAX_MATCH_POINTS:
        raise MatchError(bg_msg("bg.match.length_range", limit=MAX_MATCH_POINTS, length=length))
    return length


def game_points(ending: Ending, cube: int, conceded: Win | None = None) -> int:
    """The points one game is worth (seed 002): the cube's value times 1, 2 or 3 for a
    game played out or resigned (``conceded``: what the resignation gave), the cube's value
    for a drop."""
    check_cube_value(cube)
    if ending is Ending.RESIGN:
        if conceded is None:
            raise ResultEntryError(bg_msg("bg.result.conceded"))
        return int(conceded) * cube
    if conceded is not None:
        raise ResultEntryError(bg_msg("bg.result.only_resign", ending=ending.value))
    if ending is Ending.DROP:
        return cube
    return int(_PLAYED[ending]) * cube


@dataclass(frozen=True, slots=True)
class GameResult:
    """One entered game: ``winner`` 0 (first player) or 1, how it ended, the cube's value
    (for a drop: before the refused double) and, for a resignation, what it conceded."""

    winner: int
    ending: Ending
    cube: int = 1
    conceded: Win | None = None

    def __post_init__(self) -> None:
        if self.winner not in (0, 1):
            raise ResultEntryError(bg_msg("bg.result.winner", winner=repr(self.winner)))
        game_points(self.ending, self.cube, self.conceded)  # checks cube and conceded

    @property
    def points(self) -> int:
        return game_points(self.ending, self.cube, self.conceded)


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game of the match with its number (1-based), points and whether it was the
    Crawford game; ``score_after`` is the match score once it counted."""

    number: int
    result: GameResult
    points: int
    crawford: bool
    score_after: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """A match after the games entered so far."""

    score: MatchScore
    games: tuple[ScoredGame, ...]

    @property
    def length(self) -> int:
        return self.score.length

    @property
    def points(self) -> tuple[int, int]:
        return self.score.score

    @property
    def winner(self) -> int | None:
        return self.score.winner

    @property
    def over(self) -> bool:
        return self.score.over

    @property
    def decided_after_game(self) -> int | None:
        """The game that ended the match: the last one, once a player reached the length."""
        return self.score.games if self.score.over else None

    @property
    def crawford_game(self) -> int | None:
        return self.score.crawford_game

    @property
    def next_is_crawford(self) -> bool:
        """Whether the next game is the Crawford game (no doubling in it)."""
        return not self.over and self.score.next_is_crawford()


def score_match(
    *, length: int, results: Sequence[GameResult], crawford_rule: bool = True
) -> MatchStanding:
    """The match after ``results`` (in order). Raises a :class:`BackgammonError` with
    ``game`` set: :class:`MatchError` for a game after the match was decided (or a bad
    length, without ``game``), :class:`CubeError` for a doubled cube or a drop in the
    Crawford game."""
    score = MatchScore(check_match_length(length), crawford_rule=crawford_rule)
    games: list[ScoredGame] = []
    for number, result in enumerate(results, start=1):
        try:
            if score.over:
                winner = score.winner
                assert winner is not None
                raise MatchError(
                    bg_msg(
                        "bg.match.decided",
                        game=number,
                        player=winner + 1,
                        length=score.length,
                        decided=score.games,
                    )
                )
            crawford = score.next_is_crawford()
            if crawford and (result.cube != 1 or result.ending is Ending.DROP):
                raise CubeError(bg_msg("bg.cube.crawford_game", game=number))
            points = result.points
            score = score.add_game(result.winner, points)
        except BackgammonError as exc:
            raise exc.located(game=number) from None
        games.append(ScoredGame(number, result, points, crawford, score.score))
    return MatchStanding(score, tuple(games))
