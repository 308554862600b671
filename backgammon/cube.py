"""The doubling cube, game results and match scoring (seed 002, "Gammon og backgammon",
"Dobleterningen", Crawford rule).

- A game is won single (1), gammon (2: the loser has borne off nothing) or backgammon (3:
  nothing borne off and a checker on the bar or in the winner's home board), times the cube.
- The cube starts centred at 1. Only the player on roll may double, before rolling; the
  opponent takes (and then owns the cube at twice the value) or drops (and loses the game at
  the value before the double). Only the owner may redouble. Values past 64 are allowed.
- A resignation concedes 1, 2 or 3 times the cube.
- Crawford rule: in the game right after a player first reaches match point (length − 1),
  no one may double; after it (post-Crawford) doubling is allowed again. Decision, as gnubg:
  a player must *reach* match point by winning a game, so a 1-point match has no Crawford
  game. The match ends at once when a player reaches the length.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from backgammon.errors import CubeError, MatchError
from backgammon.messages import bg_msg
from backgammon.position import OFF, Position

__all__ = ["CubeState", "MatchScore", "Win", "cube_limit", "win_kind"]


class Win(IntEnum):
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


def win_kind(winner: tuple[int, ...], loser: tuple[int, ...]) -> Win:
    """How much a finished game is won by (seed 002, diagrams 5–7). ``winner``/``loser``
    are each side's 26 counts in its own numbering; the winner has borne off all 15."""
    if loser[OFF]:
        return Win.SINGLE
    # the winner's home board is the loser's points 19–24; 25 is the bar
    if any(loser[19:26]):
        return Win.BACKGAMMON
    return Win.GAMMON


def position_win_kind(pos: Position) -> Win:
    """The result when the player on roll in ``pos`` has just borne off the last checker."""
    return win_kind(pos.me, pos.opp)


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube within one game. ``owner`` is 0, 1 or ``None`` (centred); ``offered_by`` the
    player whose double awaits an answer."""

    value: int = 1
    owner: int | None = None
    crawford: bool = False
    offered_by: int | None = None

    def may_double(self, player: int) -> bool:
        return (
            not self.crawford
            and self.offered_by is None
            and (self.owner is None or self.owner == player)
        )

    def double(self, player: int, *, on_roll: int | None, rolled: bool) -> CubeState:
        """``player`` doubles; ``on_roll`` is who is to roll next, ``rolled`` whether they
        have already rolled this turn."""
        if self.crawford:
            raise CubeError(bg_msg("bg.cube.crawford"))
        if self.offered_by is not None:
            raise CubeError(bg_msg("bg.cube.pending"))
        if on_roll is not None and player != on_roll:
            raise CubeError(bg_msg("bg.cube.not_on_roll"))
        if rolled:
            raise CubeError(bg_msg("bg.cube.after_roll"))
        if self.owner is not None and self.owner != player:
            raise CubeError(bg_msg("bg.cube.not_owner"))
        return replace(self, offered_by=player)

    def take(self, player: int) -> CubeState:
        if self.offered_by is None:
            raise CubeError(bg_msg("bg.cube.take_none"))
        if player == self.offered_by:
            raise CubeError(bg_msg("bg.cube.take_own"))
        return CubeState(self.value * 2, player, self.crawford, None)

    def drop(self, player: int) -> int:
        """The points the doubler wins when ``player`` drops: the value before the double."""
        if self.offered_by is None:
            raise CubeError(bg_msg("bg.cube.drop_none"))
        if player == self.offered_by:
            raise CubeError(bg_msg("bg.cube.drop_own"))
        return self.value


@dataclass(frozen=True, slots=True)
class MatchScore:
    """Score of a match to ``length`` points, game by game. ``crawford_game`` is the number
    of the Crawford game once it is known; ``games`` how many games are complete."""

    length: int
    score: tuple[int, int] = (0, 0)
    games: int = 0
    crawford_game: int | None = None
    crawford_rule: bool = True

    @property
    def winner(self) -> int | None:
        if self.length <= 0:
            return None
        for player in (0, 1):
            if self.score[player] >= self.length:
                return player
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def next_is_crawford(self) -> bool:
        """Whether game number ``games + 1`` is the Crawford game."""
        return self.crawford_game is not None and self.crawford_game == self.games + 1

    def add_game(self, winner: int, points: int) -> MatchScore:
        if self.over:
            raise MatchError(
                bg_msg("bg.match.after_length", game=self.games + 1, length=self.length)
            )
        score = list(self.score)
        score[winner] += points
        crawford_game = self.crawford_game
        if (
            self.crawford_rule
            and crawford_game is None
            and self.length > 1
            and max(score) < self.length
            and self.length - 1 in score
        ):
            crawford_game = self.games + 2
        return MatchScore(
            self.length, (score[0], score[1]), self.games + 1, crawford_game, self.crawford_rule
        )


def cube_limit(length: int, score: tuple[int, int]) -> int:
    """The highest cube a match to ``length`` points can use at ``score``: the smallest
    power of two that covers what the player furthest from the length still needs (past
    it the cube is dead, so no one doubles further). A larger cube is allowed (values past
    64 are), but in a 3-point match a cube of 64 is more likely a slip of the finger than a
    game: an entry asks to confirm it."""
    most = max(1, min(length, max(length - score[0], length - score[1])))
    limit = 1
    while limit < most:
        limit *= 2
    return limit
