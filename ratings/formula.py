"""What a rating formula gives the ledger: one rated match's change, and the stored precision.

A formula (FIBS: ``ratings.fibs``; the Danish federation's: ``ratings.danish``) is an object
with a ``key`` (the code a rating list stores: ``fibs``, ``danish``), a ``name`` and a
``summary`` in English (the pages translate them; the key is the stable code), and
:meth:`RatingFormula.match_change`, the change one match makes to its two players. It
registers itself in ``ratings.formulas`` when its module is imported; the ledger asks the
registry for a book's formula and never imports one by name.

What every formula shares, and so lives here:

- :class:`MatchChange`, the answer: the winner's gain and the loser's loss (both ≥ 0).
- The arithmetic of stored ratings: a change is rounded to :data:`CENT` (:data:`ROUNDING`,
  half to even, on the float's exact value: :func:`cents`), so a rating never carries more
  than the stored two decimals, and continuing from stored values (incremental) and
  replaying everything (rebuild) give the same figures, cent for cent.
- The same inputs: both ratings before the match, the rated length n and both players'
  experience before the match (the sum of the lengths of their rated matches). A formula
  that has no use for experience (the Danish one) still takes it, so the ledger calls
  every formula the same way.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Protocol

__all__ = ["CENT", "ROUNDING", "Formula", "MatchChange", "RatingFormula", "cents"]

CENT = Decimal("0.01")
ROUNDING = ROUND_HALF_EVEN


def cents(value: float) -> Decimal:
    """``value`` rounded to the stored precision (0.01, half to even). ``Decimal(float)``
    is exact, so the rounding sees the float's true value."""
    return Decimal(value).quantize(CENT, rounding=ROUNDING)


@dataclass(frozen=True, slots=True)
class MatchChange:
    """What one rated match does: the winner's gain and the loser's loss (both ≥ 0), and
    P, the chance of the other result (the loser winning)."""

    gain: Decimal
    loss: Decimal
    chance_of_other_result: float


class RatingFormula(Protocol):
    """A rating formula, as the ledger and the pages see it."""

    @property
    def key(self) -> str:
        """The stored code (``fibs``, ``danish``)."""
        ...

    @property
    def name(self) -> str:
        """The formula's name in English (the pages translate it)."""
        ...

    @property
    def summary(self) -> str:
        """One sentence, in English, on how a match moves the ratings (the rating list
        page shows it under the list's name)."""
        ...

    def match_change(
        self,
        *,
        winner_rating: Decimal,
        loser_rating: Decimal,
        length: int,
        winner_experience: int,
        loser_experience: int,
    ) -> MatchChange:
        """The change of a match of ``length`` won by the player rated ``winner_rating``,
        each experience being the player's before the match. ``RatingValueError`` for a
        length below 1 or a negative experience."""
        ...


@dataclass(frozen=True, slots=True)
class Formula:
    """A formula module's object (``RatingFormula``): its code, English name and summary,
    and its module's ``match_change`` function (``change``), which it answers with."""

    key: str
    name: str
    summary: str
    change: Callable[..., MatchChange]

    def match_change(
        self,
        *,
        winner_rating: Decimal,
        loser_rating: Decimal,
        length: int,
        winner_experience: int,
        loser_experience: int,
    ) -> MatchChange:
        return self.change(
            winner_rating=winner_rating,
            loser_rating=loser_rating,
            length=length,
            winner_experience=winner_experience,
            loser_experience=loser_experience,
        )
