"""Small value types shared across the engine: sides, outcomes, patterns.

Point numbering (R1): every side numbers the points along its own path,
1 = its home, 12 = the *huk*, 24 = the last point; ``BAR`` (0) is the bar and
``OFF`` (25) is borne off.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.errors import InvalidValue
from engine.messages import msg

BAR = 0
OFF = 25
CHECKERS_PER_SIDE = 15


class Side(StrEnum):
    """A side of the board; the value is the record letter."""

    WHITE = "W"
    BLACK = "B"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def word(self) -> str:
        """``White`` or ``Black``, as messages and records write it."""
        return "White" if self is Side.WHITE else "Black"

    @classmethod
    def from_text(cls, text: str) -> Side:
        """Read ``W``/``B``/``White``/``Black`` (any case)."""
        key = text.strip().lower()
        if key in ("w", "white"):
            return cls.WHITE
        if key in ("b", "black"):
            return cls.BLACK
        raise InvalidValue(msg("side.bad", text=repr(text)))


def to_other_numbering(point: int) -> int:
    """R1: White's point p is Black's point ((p + 11) mod 24) + 1 (and back).

    Only for board points 1–24; the bar and off are per side.
    """
    if not 1 <= point <= 24:
        raise ValueError(f"only points 1–24 have a number for the other side, not {point}")
    return ((point + 11) % 24) + 1


class OutcomeKind(StrEnum):
    """How a game was won (rules.md, "Outcomes the engine reports")."""

    HEMSPEL = "hemspel"
    VACKERT_SPEL = "vackert_spel"
    JAN = "jan"
    SPRANGJAN = "sprangjan"
    UPPGIVET = "uppgivet"

    @property
    def word(self) -> str:
        """The outcome as players say and write it, with its Swedish letters (``vackert
        spel``, ``sprängjan``): the one source of bräde's outcome words (the value is the
        ASCII code of game-record.md)."""
        return _OUTCOME_WORDS[self]

    @classmethod
    def from_text(cls, text: str) -> OutcomeKind:
        """Read an outcome word as records write it (``vackert``, ``sprängjan``…)."""
        key = text.strip().lower().replace("ä", "a")
        aliases = {"vackert": cls.VACKERT_SPEL, "vackert_spel": cls.VACKERT_SPEL}
        if key in aliases:
            return aliases[key]
        try:
            return cls(key)
        except ValueError:
            raise InvalidValue(msg("outcome.bad", text=repr(text))) from None


class Pattern(StrEnum):
    """R12 patterns of vackert spel."""

    ENKELT_KRONSPEL = "enkelt_kronspel"
    DUBBELT_KRONSPEL = "dubbelt_kronspel"
    TRAPPSPEL = "trappspel"
    UPPSPEL = "uppspel"

    @property
    def word(self) -> str:
        """The pattern in words (``enkelt kronspel``)."""
        return self.value.replace("_", " ")


_OUTCOME_WORDS = {
    OutcomeKind.HEMSPEL: "hemspel",
    OutcomeKind.VACKERT_SPEL: "vackert spel",
    OutcomeKind.JAN: "jan",
    OutcomeKind.SPRANGJAN: "sprängjan",
    OutcomeKind.UPPGIVET: "uppgivet",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one game: winner, how, the R12 pattern, and munk (R11)."""

    winner: Side
    kind: OutcomeKind
    pattern: Pattern | None = None
    munk: bool = False

    def __post_init__(self) -> None:
        if (self.kind is OutcomeKind.VACKERT_SPEL) != (self.pattern is not None):
            raise InvalidValue(msg("outcome.pattern"))
        if self.munk and self.kind not in (OutcomeKind.HEMSPEL, OutcomeKind.VACKERT_SPEL):
            raise InvalidValue(msg("outcome.munk"))

    def text(self) -> str:
        """The record's ``Result:`` body, e.g. ``White vackert trappspel munk``."""
        word = "vackert" if self.kind is OutcomeKind.VACKERT_SPEL else self.kind.value
        parts = [self.winner.word, word]
        if self.pattern is not None:
            parts.append(self.pattern.value)
        if self.munk:
            parts.append("munk")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Outcome.from_text({self.text()!r})"

    @classmethod
    def from_text(cls, text: str) -> Outcome:
        words = text.split()
        if len(words) < 2:
            raise InvalidValue(msg("outcome.words", text=repr(text)))
        winner = Side.from_text(words[0])
        kind = OutcomeKind.from_text(words[1])
        rest = [w.lower() for w in words[2:]]
        pattern: Pattern | None = None
        munk = False
        for word in rest:
            if word == "munk" and not munk:
                munk = True
            elif pattern is None and not munk and word in {p.value for p in Pattern}:
                pattern = Pattern(word)
            else:
                raise InvalidValue(msg("outcome.word", word=repr(word), text=repr(text)))
        return cls(winner, kind, pattern, munk)
