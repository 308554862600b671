"""The scales of S2 as data, and the points and tiebreak one game gives each player.

Three scales (docs/scoring.md S2; sources: helmfrid *Poäng och skiljepoäng*, talisman
*Poäng i bräde*):

- ``ww`` — Wahlström & Widstrand 1956, with *skiljepoäng* (tiebreak points) to the winner
  of a jan or uppgivet game and to the loser of a munk or sprängjan game.
- ``ny1`` — the same points, with a ``+`` or ``−`` attached to the winner's points; ties on
  points are broken by (number of +) − (number of −). It ranks exactly as skiljepoäng do
  (proved in ``tests/scoring/test_exhaustive.py``), but is written the Ny 1 way (``2+``).
- ``ny2`` — points chosen so that a match over an odd number of completed games can never
  be level; there is no tiebreak.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType

from engine.errors import MatchError
from engine.messages import msg
from engine.types import Outcome, OutcomeKind, Side

PLUS = "+"
MINUS = "−"  # U+2212, as the sources print it; parse() also accepts "-"


class Scale(StrEnum):
    """A points scale of S2; the value is the record's ``Scale`` tag."""

    WW = "ww"
    NY1 = "ny1"
    NY2 = "ny2"

    @classmethod
    def parse(cls, text: str | Scale) -> Scale:
        """Read ``ww``/``ny1``/``ny2`` (any case, also ``W&W``, ``Ny 1``, ``Ny 2``).

        Raises ``MatchError`` (a ``ValueError``) for anything else.
        """
        if isinstance(text, Scale):
            return text
        key = str(text).strip().lower().replace(" ", "").replace("&", "")
        try:
            return cls(key)
        except ValueError:
            raise MatchError(msg("match.scale", text=repr(text))) from None

    @property
    def has_tiebreak(self) -> bool:
        """S2: ``ny2`` needs no tiebreak; ``ww`` and ``ny1`` break ties on points."""
        return self is not Scale.NY2

    def label(self) -> str:
        """The scale's name as the sources print it."""
        return {Scale.WW: "W&W", Scale.NY1: "Ny 1", Scale.NY2: "Ny 2"}[self]


class Row(StrEnum):
    """A row of S2's table: the ways a game can be won, as far as scoring cares."""

    HEMSPEL = "hemspel"
    VACKERT_SPEL = "vackert_spel"
    UPPGIVET = "uppgivet"
    HEMSPEL_MUNK = "hemspel_munk"
    VACKERT_SPEL_MUNK = "vackert_spel_munk"
    JAN = "jan"
    SPRANGJAN = "sprangjan"

    @classmethod
    def of(cls, outcome: Outcome) -> Row:
        kind = outcome.kind
        if kind is OutcomeKind.HEMSPEL:
            return cls.HEMSPEL_MUNK if outcome.munk else cls.HEMSPEL
        if kind is OutcomeKind.VACKERT_SPEL:
            return cls.VACKERT_SPEL_MUNK if outcome.munk else cls.VACKERT_SPEL
        return {
            OutcomeKind.UPPGIVET: cls.UPPGIVET,
            OutcomeKind.JAN: cls.JAN,
            OutcomeKind.SPRANGJAN: cls.SPRANGJAN,
        }[kind]


@dataclass(frozen=True, slots=True)
class RowScores:
    """One row of S2's table across all scales."""

    ww: int
    skiljepoang_winner: int
    skiljepoang_loser: int
    ny1_mark: str  # "", PLUS or MINUS
    ny2: int


# S2's table, row by row (the single source of truth for points).
TABLE: Mapping[Row, RowScores] = MappingProxyType(
    {
        Row.HEMSPEL: RowScores(ww=1, skiljepoang_winner=0, skiljepoang_loser=0, ny1_mark="", ny2=3),
        Row.VACKERT_SPEL: RowScores(
            ww=1, skiljepoang_winner=0, skiljepoang_loser=0, ny1_mark="", ny2=3
        ),
        Row.UPPGIVET: RowScores(
            ww=1, skiljepoang_winner=1, skiljepoang_loser=0, ny1_mark=PLUS, ny2=4
        ),
        Row.HEMSPEL_MUNK: RowScores(
            ww=2, skiljepoang_winner=0, skiljepoang_loser=1, ny1_mark=MINUS, ny2=5
        ),
        Row.VACKERT_SPEL_MUNK: RowScores(
            ww=2, skiljepoang_winner=0, skiljepoang_loser=1, ny1_mark=MINUS, ny2=5
        ),
        Row.JAN: RowScores(ww=2, skiljepoang_winner=1, skiljepoang_loser=0, ny1_mark=PLUS, ny2=7),
        Row.SPRANGJAN: RowScores(
            ww=4, skiljepoang_winner=0, skiljepoang_loser=1, ny1_mark=MINUS, ny2=11
        ),
    }
)


@dataclass(frozen=True, slots=True)
class GameScore:
    """What one game gives under one scale.

    ``tiebreak_winner``/``tiebreak_loser`` are added to each player's tiebreak total:
    skiljepoäng under ``ww``; under ``ny1`` +1 for a ``+`` and −1 for a ``−`` (to the
    winner; the loser gets 0); always 0 under ``ny2``. ``mark`` is the Ny 1 sign (``+``,
    ``−`` or empty; empty under the other scales).
    """

    scale: Scale
    winner: Side
    points: int
    tiebreak_winner: int
    tiebreak_loser: int
    mark: str

    def tiebreak_for(self, side: Side) -> int:
        return self.tiebreak_winner if side is self.winner else self.tiebreak_loser

    def points_for(self, side: Side) -> int:
        return self.points if side is self.winner else 0

    def text(self) -> str:
        """The winner's points as the scale writes them: ``2``, ``2+``, ``4−``, ``7``."""
        return f"{self.points}{self.mark}"


def score_game(scale: Scale | str, outcome: Outcome) -> GameScore:
    """S2: points and tiebreak of one game's outcome under ``scale``."""
    return _score_game(Scale.parse(scale), outcome)


@lru_cache(maxsize=256)  # 3 scales × 26 outcomes: match states are rebuilt often
def _score_game(scale: Scale, outcome: Outcome) -> GameScore:
    row = TABLE[Row.of(outcome)]
    if scale is Scale.WW:
        return GameScore(
            scale, outcome.winner, row.ww, row.skiljepoang_winner, row.skiljepoang_loser, ""
        )
    if scale is Scale.NY1:
        sign = {"": 0, PLUS: 1, MINUS: -1}[row.ny1_mark]
        return GameScore(scale, outcome.winner, row.ww, sign, 0, row.ny1_mark)
    return GameScore(scale, outcome.winner, row.ny2, 0, 0, "")


def format_points(scale: Scale | str, points: int, plus: int = 0, minus: int = 0) -> str:
    """A player's points as the scale writes them.

    Under ``ny1`` the marks follow the points, pluses first (``2+``, ``4−``, ``5++−``);
    the other scales write the bare number (``ww`` shows skiljepoäng separately).
    """
    return f"{points}{format_marks(scale, plus, minus)}"


def format_marks(scale: Scale | str, plus: int, minus: int) -> str:
    """The marks a player's points carry: under ``ny1`` pluses then minuses (``++−``);
    none under the other scales."""
    if Scale.parse(scale) is Scale.NY1:
        return f"{PLUS * plus}{MINUS * minus}"
    return ""


def format_tiebreak(scale: Scale | str, value: int) -> str:
    """A tiebreak total as the scale writes it: ``2`` (skiljepoäng), ``+1``/``−1``/``±0``."""
    scale = Scale.parse(scale)
    if scale is Scale.NY1:
        if value > 0:
            return f"{PLUS}{value}"
        if value < 0:
            return f"{MINUS}{-value}"
        return "±0"
    return str(value)
