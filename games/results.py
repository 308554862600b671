"""Family-neutral game results, match settings and the standing of a match.

One :class:`ResultValue` type carries what a result entry holds for any game, so the
database and the forms need one shape: the winner and the outcome code (from the family's
vocabulary) always, and the fields only some games read — bräde's pattern and munk, the
backgammon cube and what a resignation conceded, Kungabräde's game type. A family refuses
a result that sets a field it does not read (a cube on a bräde game is an entry bug).

Players are ``0`` (the first: White in bräde, player 1) and ``1`` (the second).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "MatchScoring",
    "MatchSettings",
    "MatchStanding",
    "ResultValue",
    "ScoredGame",
    "ScoringError",
]


@dataclass(frozen=True, slots=True)
class ResultValue:
    """One game's result as it is entered.

    - ``winner``: 0 or 1; ``outcome``: a code of the family's ``vocabulary.outcomes``.
    - ``pattern``, ``munk``: bräde's vackert spel pattern (R12) and munk (R11).
    - ``cube``: backgammon, the cube's value (for a drop: before the refused double).
    - ``conceded``: backgammon, what a resignation conceded (``single``, ``gammon``,
      ``backgammon``); empty otherwise.
    - ``game_type``: Kungabräde, a code of ``vocabulary.game_types``.
    """

    winner: int
    outcome: str
    pattern: str = ""
    munk: bool = False
    cube: int = 1
    conceded: str = ""
    game_type: str = ""


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """A match's settings as a tournament holds them; each family reads its own.

    - ``length``: bräde and Kungabräde, the (odd) number of games — best of n; backgammon,
      the points to play to.
    - ``scale``, ``resignations``: bräde only (scoring.md S1, S2).
    - ``crawford``: backgammon only (the Crawford rule; on in tournaments).
    """

    length: int
    scale: str = "ww"
    resignations: str = "capped"
    crawford: bool = True


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game of a match once scored: ``points`` to its ``winner``; ``crawford`` marks
    backgammon's Crawford game. ``mark`` is the sign the points carry where the scale
    writes one (bräde's Ny 1: ``+`` or ``−``, which is the game's tiebreak);
    ``tiebreak_to`` the seat a tiebreak point went to (bräde's W&W skiljepoäng: the
    winner's or the loser's), None when the game gave none."""

    number: int
    winner: int
    points: int
    crawford: bool = False
    mark: str = ""
    tiebreak_to: int | None = None

    @property
    def text(self) -> str:
        """The points as the game writes them: ``2``, ``2+``, ``4−``."""
        return f"{self.points}{self.mark}"


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """Where a match stands after the results so far.

    ``score`` is each player's points (bräde: on the match's scale; backgammon: points;
    Kungabräde: games won). ``length_unit`` says what ``length`` counts: ``games`` (best
    of n) or ``points`` (backgammon). ``tiebreak`` is bräde's skiljepoäng or plus and
    minus (None when the scale has none, and for the other games). ``crawford_game`` is
    the number of backgammon's Crawford game once known; ``next_is_crawford`` whether the
    next game is it (no doubling, so no cube above 1 and no drop may be entered).
    ``decided_early``: bräde's S4, decided before all of the match's games were played.

    How the game writes the score (for the match page): ``scale`` is the scale it is on
    (bräde's ``ww``, ``ny1``, ``ny2``; empty for a game without scales), ``marks`` each
    player's signs after the points (Ny 1's, pluses first: ``++−``), ``tiebreak_text``
    each player's tiebreak as the scale writes it (skiljepoäng ``2``, Ny 1's ``+1``,
    ``−1``, ``±0``; None when ``tiebreak`` is).
    """

    length: int
    length_unit: str
    score: tuple[int, int]
    winner: int | None
    decided_after_game: int | None
    games: tuple[ScoredGame, ...]
    tiebreak: tuple[int, int] | None = None
    crawford_game: int | None = None
    next_is_crawford: bool = False
    decided_early: bool = False
    scale: str = ""
    marks: tuple[str, str] = ("", "")
    tiebreak_text: tuple[str, str] | None = None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def score_text(self) -> tuple[str, str]:
        """Each player's points as the game writes them: ``5``, ``5++−``."""
        return (f"{self.score[0]}{self.marks[0]}", f"{self.score[1]}{self.marks[1]}")


class ScoringError(ValueError):
    """A result or match that the family's rules refuse.

    ``kind``: ``result`` (a result that cannot be: an unknown outcome, a field the game
    does not have), ``match`` (a bad length, a game after the match was decided, a
    resignation over the cap) or ``cube`` (backgammon: doubling in the Crawford game).
    ``game`` is the 1-based number of the offending game where there is one. ``cause`` is
    the family's own error (bräde's carries a coded message the pages can translate).
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "result",
        game: int | None = None,
        cause: Exception | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.game = game
        self.cause = cause

    def __str__(self) -> str:
        return f"game {self.game}: {self.message}" if self.game is not None else self.message


class MatchScoring(Protocol):
    """A family's match scoring for one match's settings (a pure object)."""

    @property
    def settings(self) -> MatchSettings: ...

    def standing(self, results: Sequence[ResultValue]) -> MatchStanding:
        """The match after ``results`` (in order). Raises :class:`ScoringError` (with
        ``game``) for a result the game refuses or a game after the match was decided."""
        ...
