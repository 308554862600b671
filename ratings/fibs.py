"""The FIBS rating formula: one rated match changes two ratings.

With D the rating difference and n the match length, the underdog's chance of winning is
``1 / (10^(D·√n/2000) + 1)``. The winner gains ``4·K·√n·P`` and the loser loses
``4·K·√n·P``, where P is the chance that the result did *not* happen (the underdog's chance
when the favourite won, the favourite's when the underdog won) and
``K = max(1, 5 − experience/100)``, experience being the sum of the lengths of the player's
finished matches. Everyone starts at 1500 with experience 0 (or an imported rating).

Source and decisions:

- **Each player's change uses their own K.** FIBS's ``help formula`` text (quoted by Patti
  Beadles, rec.games.backgammon, http://www.bkgm.com/rgb/rgb.cgi?view+1093, and in the
  rec.games.backgammon FAQ, https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html)
  gives K separately "for the winner" and "for the loser", each from that player's
  experience, and the MacFIBS glossary (http://fibs.com/macfibs/help/glossary/pages/Ratings.html)
  says so outright: "only your own experience points affect your ratings change". The
  issue's "the loser loses the same" is read as the same expression ``4·K·√n·P``: the two
  amounts are equal whenever the two K are (equal experience, or both at 400 or more), and
  differ otherwise, so ratings are not zero-sum while a newcomer plays. The source is
  clear, and following it keeps the figures comparable with every FIBS-style list.
- **Experience is counted before the match.** FIBS's help: "the sum of the lengths of all
  matches a player has finished" (the match being rated is not finished yet), which is also
  the issue's wording and its worked example (1500 v 1500, n = 1, both new: +10.00 with
  K = 5). The MacFIBS glossary's ``Kp = max(1, 5 − (Ep + N)/100)`` adds the current match;
  we do not.
- **Arithmetic.** Ratings are :class:`~decimal.Decimal` with exactly two decimals (what is
  stored). The chance and the raw change are computed in binary floating point (IEEE
  double; ``math.sqrt`` is correctly rounded), then each change is rounded to 0.01
  (:data:`ROUNDING`, half to even, on the float's exact value) and added exactly. A rating
  therefore never carries more than the stored precision, so continuing from stored values
  (incremental) and replaying everything (rebuild) give the same figures, cent for cent.
  The rounding is every formula's (``ratings.formula.cents``).

The formula is registered as ``fibs`` (:data:`FIBS`, ``ratings.formulas``), the default of
every rating list. The starting rating (:data:`START_RATING`) and the counting of
experience are the ledger's for every formula.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import math
from decimal import Decimal

from ratings.errors import RatingValueError
from ratings.formula import CENT, ROUNDING, Formula, MatchChange, cents
from ratings.formulas import register

__all__ = [
    "CENT",
    "FIBS",
    "ROUNDING",
    "START_RATING",
    "MatchChange",
    "k_factor",
    "match_change",
    "to_rating",
    "underdog_chance",
]

START_RATING = Decimal("1500.00")


def to_rating(value: Decimal | int | str) -> Decimal:
    """A rating as stored: a finite decimal with at most two decimals, shown with two.

    ``RatingValueError`` for anything else (``"1612.345"`` is refused, not rounded: it
    would not survive being stored)."""
    try:
        number = Decimal(value)
    except ArithmeticError as exc:
        raise RatingValueError(f"a rating is a number, not {value!r}") from exc
    if not number.is_finite():
        raise RatingValueError(f"a rating is a finite number, not {value!r}")
    rounded = number.quantize(CENT, rounding=ROUNDING)
    if rounded != number:
        raise RatingValueError(f"a rating has at most two decimals, not {value!r}")
    return rounded


def underdog_chance(difference: float, length: int) -> float:
    """The lower-rated player's chance of winning an n-point (n-game) match:
    ``1 / (10^(D·√n/2000) + 1)`` with D = |difference|."""
    if length < 1:
        raise RatingValueError(f"a match length is at least 1, not {length}")
    exponent = abs(difference) * math.sqrt(length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def k_factor(experience: int) -> float:
    """``max(1, 5 − experience/100)``: 5 for a newcomer, 1 from 400 experience on."""
    if experience < 0:
        raise RatingValueError(f"experience is at least 0, not {experience}")
    return max(1.0, 5.0 - experience / 100.0)


def match_change(
    *,
    winner_rating: Decimal,
    loser_rating: Decimal,
    length: int,
    winner_experience: int,
    loser_experience: int,
) -> MatchChange:
    """The FIBS change for a match of ``length`` won by the player rated ``winner_rating``.

    The winner gains ``4·K_w·√n·P`` and the loser loses ``4·K_l·√n·P`` (each K from that
    player's own experience before the match), both rounded to 0.01."""
    underdog = underdog_chance(float(winner_rating - loser_rating), length)
    # P: the chance of the result that did not happen. Level ratings: both chances 1/2.
    chance_not = underdog if winner_rating >= loser_rating else 1.0 - underdog
    stake = 4.0 * math.sqrt(length) * chance_not
    return MatchChange(
        gain=cents(k_factor(winner_experience) * stake),
        loss=cents(k_factor(loser_experience) * stake),
        chance_of_other_result=chance_not,
    )


# The formula behind the formula protocol (``ratings.formula.RatingFormula``).
FIBS = register(
    Formula(
        key="fibs",
        name="FIBS",
        summary=(
            "The FIBS formula: the change grows with the square root of the match length and "
            "with the surprise of the result, and each player's own experience scales it "
            "(five times as much for a newcomer, once from 400 experience on)."
        ),
        change=match_change,
    )
)
