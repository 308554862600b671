"""A team match from its boards: who won, by how many boards, and whether it is decided —
the match-level early decision (scoring.md S5) one level up.

A team match is played over ``boards`` boards; board k pairs the two teams' k-th players
in an ordinary match of the competition's game and length. Each board gives a
:class:`Board`: its winner (``"home"``, ``"away"``, or ``None`` while it is not decided)
and the points each side won at it (for bräde the games won, for backgammon the points;
``tiebreak``: bräde's skiljepoäng, 0 in backgammon).

Decisions where the sources are silent (the Danish federation's team league and chess's
team competitions count the same way; written here so the site's pages can say it):

- A board won is one **board point**; a team match's winner has more board points; equal
  board points when every board is decided is a **draw** (possible with an even number of
  boards; an individual match always has a winner, S3).
- A team match is **decided early** when one team's board points exceed the other's plus
  the boards still undecided: the other cannot catch up. A draw is never early (the
  boards still to play could break it). The boards still undecided are played on (their
  results count in the ratings and the players' histories) and, as in chess's team
  competitions, each board counts in the board points when it is decided; the match
  points cannot change after the early decision.
- A **walkover** board (one team had no player, ``walkover=True`` with a winner) gives its
  board point to the other team and no points (S6: a walkover is not points). When
  neither team had a player (``walkover=True``, no winner) neither team gets the board.
- Only a decided team match counts in a table (``league``).

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Board", "Side", "TeamMatchScore", "team_match_score"]

Side = Literal["home", "away"]


@dataclass(frozen=True, slots=True)
class Board:
    """One board's result (module docstring). ``winner None`` and ``walkover False``: not
    decided yet."""

    winner: Side | None = None
    home_points: int = 0
    away_points: int = 0
    home_tiebreak: int = 0
    away_tiebreak: int = 0
    walkover: bool = False

    @property
    def decided(self) -> bool:
        return self.winner is not None or self.walkover


@dataclass(frozen=True, slots=True)
class TeamMatchScore:
    """A team match's score: board points, and the points and tiebreak points of its
    decided boards (walkovers counting no points). ``winner`` is ``"draw"`` for a drawn
    match, ``None`` while it is undecided; ``early`` when it was decided with boards still
    undecided."""

    home_boards: int
    away_boards: int
    home_points: int
    away_points: int
    home_tiebreak: int
    away_tiebreak: int
    undecided: int
    winner: Side | Literal["draw"] | None
    early: bool

    @property
    def decided(self) -> bool:
        return self.winner is not None


def team_match_score(boards: Sequence[Board]) -> TeamMatchScore:
    """The score of a team match from its boards, in board order (module docstring)."""
    home = away = home_points = away_points = home_tiebreak = away_tiebreak = 0
    undecided = 0
    for board in boards:
        if not board.decided:
            undecided += 1
            continue
        if board.winner == "home":
            home += 1
        elif board.winner == "away":
            away += 1
        if not board.walkover:
            home_points += board.home_points
            away_points += board.away_points
            home_tiebreak += board.home_tiebreak
            away_tiebreak += board.away_tiebreak
    winner: Side | Literal["draw"] | None = None
    if home > away + undecided:
        winner = "home"
    elif away > home + undecided:
        winner = "away"
    elif undecided == 0 and boards:
        winner = "draw"
    return TeamMatchScore(
        home_boards=home,
        away_boards=away,
        home_points=home_points,
        away_points=away_points,
        home_tiebreak=home_tiebreak,
        away_tiebreak=away_tiebreak,
        undecided=undecided,
        winner=winner,
        early=winner is not None and undecided > 0,
    )
