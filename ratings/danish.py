"""The Danish Backgammon Federation's rating formula (Dansk Backgammon Forbund, DBgF).

With D the rating difference (the higher rating minus the lower, so D ≥ 0) and N the
match length, the lower-rated player's chance of winning — the chance of an upset — is
``P_upset = 1 / (10^(D·√N/2000) + 1)``. Then ``P = P_upset`` if the higher-rated player
wins and ``P = 1 − P_upset`` if the lower-rated player wins: P is the chance the loser
had. The winner's rating rises by ``delta = N·P`` and the loser's falls by the same delta.

Source: the federation's page "Beregning af rating",
https://www.backgammon.dk/Rangliste/Beregning+af+rating (the same text, "Ratingsystemet -
Baggrund", at https://dbgf.dk/Rating/Baggrund). Its worked example, "Eksempel 1": A (1100)
beats B (1000) in a 9-point match; ``P_upset = 1/(10^(100·√9/2000) + 1) =
1/(10^0.15 + 1) = 1/(1.413 + 1) = 0.4145``; A gains and B loses ``9 × 0.4145 = 3.73``; had
B won, ``P = 1 − 0.4145 = 0.5855`` and B would have gained (and A lost) ``9 × 0.5855 =
5.27``. "3.73 + 5.27 = 9": the two possible changes of a player add up to the match
length (tests/ratings/test_danish.py checks these figures).

Decisions where the federation's page is silent, or differs from FIBS:

- **No experience factor.** The page's formula is ``delta = N·P`` for everyone, with no K
  and no other use of a player's experience (what it calls TMP, total match points);
  FIBS's ``K = max(1, 5 − experience/100)`` (``ratings.fibs``) has no counterpart. So the
  change here does not depend on experience: a newcomer's first match moves the ratings
  exactly as a veteran's. Experience is still *counted* as for FIBS — the ledger adds
  each rated match's length to both players, and the rating list shows it — because the
  issue asks for "starting ratings and experience as for FIBS" and a federation list
  shows TMP beside the rating; it only never enters this formula.
  the formula's ``match_change`` takes the two experiences, as every formula does,
  and checks that they are not negative, but does not use them.
- **Starting ratings as for FIBS**: 1500, or a rating brought from elsewhere
  (``ratings.ledger``, the same for every formula). The page's 1000 and 1100 are an
  example's figures, not a start.
- **Zero-sum**: the loser loses exactly what the winner gains (the page: "Vinderens
  rating stiger med delta, og taberens rating falder med delta").
- **Rounding as FIBS's module**: ratings keep two decimals, and a change is computed in
  binary floating point and rounded to 0.01, half to even, on the float's exact value
  (``ratings.formula.cents``). The favourite's gain ``N·P_upset`` is rounded; the
  underdog's gain is ``N`` minus that rounded gain, exactly. So the two possible changes
  add up to exactly N, as the page says, for every D and N; rounding ``N·(1 − P_upset)``
  on its own could miss N by a cent where the float's error meets a half cent. For the
  page's example both ways give 3.73 and 5.27.
- **Level ratings** (D = 0): ``P_upset = ½``, so whoever wins gains N/2.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import math
from decimal import Decimal

from ratings.errors import RatingValueError
from ratings.formula import Formula, MatchChange, cents
from ratings.formulas import register

__all__ = ["DANISH", "match_change", "upset_chance"]


def upset_chance(difference: float, length: int) -> float:
    """``P_upset``: the lower-rated player's chance of winning an N-point match,
    ``1 / (10^(D·√N/2000) + 1)`` with D = |difference|."""
    if length < 1:
        raise RatingValueError(f"a match length is at least 1, not {length}")
    exponent = abs(difference) * math.sqrt(length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def match_change(
    *,
    winner_rating: Decimal,
    loser_rating: Decimal,
    length: int,
    winner_experience: int = 0,
    loser_experience: int = 0,
) -> MatchChange:
    """The federation's change for a match of ``length`` won by the player rated
    ``winner_rating``: the winner gains and the loser loses ``N·P``, P being the chance
    the loser had. Experience is checked but not used (see the module text)."""
    for experience in (winner_experience, loser_experience):
        if experience < 0:
            raise RatingValueError(f"experience is at least 0, not {experience}")
    upset = upset_chance(float(winner_rating - loser_rating), length)
    on_form = cents(length * upset)  # the favourite's gain by winning
    if winner_rating >= loser_rating:  # the favourite (or one of two level players) won
        delta, chance_not = on_form, upset
    else:
        delta, chance_not = Decimal(length) - on_form, 1.0 - upset
    return MatchChange(gain=delta, loss=delta, chance_of_other_result=chance_not)


# The formula behind the formula protocol (``ratings.formula.RatingFormula``).
DANISH = register(
    Formula(
        key="danish",
        name="Danish Backgammon Federation rating",
        summary=(
            "The Danish Backgammon Federation's formula: the winner gains the match length "
            "times the chance the loser had of winning, and the loser loses as much; "
            "experience is counted but does not change the figures."
        ),
        change=match_change,
    )
)
