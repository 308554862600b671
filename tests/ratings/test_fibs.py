"""The FIBS formula (ratings.fibs): worked examples checked to 0.01, and its properties."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.errors import RatingValueError
from ratings.fibs import k_factor, match_change, to_rating, underdog_chance


def change(
    winner: str, loser: str, n: int, winner_exp: int, loser_exp: int
) -> tuple[Decimal, Decimal]:
    result = match_change(
        winner_rating=Decimal(winner),
        loser_rating=Decimal(loser),
        length=n,
        winner_experience=winner_exp,
        loser_experience=loser_exp,
    )
    return result.gain, result.loss


class TestWorkedExamples:
    """Each expected figure was worked out by hand from the formula (with 50-digit decimal
    arithmetic for the powers of ten), not by this code."""

    def test_newcomers_level_one_game(self) -> None:
        # P = 1/2, K = 5: 4·5·√1·0.5 = 10.
        assert change("1500", "1500", 1, 0, 0) == (Decimal("10.00"), Decimal("10.00"))

    def test_experienced_level_one_game(self) -> None:
        # K = 1 from 400 experience on: 4·1·1·0.5 = 2.
        assert change("1500", "1500", 1, 400, 400) == (Decimal("2.00"), Decimal("2.00"))

    def test_favourite_wins_seven(self) -> None:
        # D = 100, n = 7: P_upset = 1/(10^(100·√7/2000) + 1) = 0.424433; 4·√7·P = 4.4918.
        assert change("1850", "1750", 7, 500, 1000) == (Decimal("4.49"), Decimal("4.49"))

    def test_underdog_wins_seven(self) -> None:
        # P = 1 − 0.424433 = 0.575567; 4·√7·P = 6.0912.
        assert change("1750", "1850", 7, 500, 1000) == (Decimal("6.09"), Decimal("6.09"))

    def test_own_k_each_favourite_wins(self) -> None:
        # D = 100, n = 5: P_upset = 0.435994. Winner new (K 5): 4·5·√5·P = 19.4982;
        # loser at 250 experience (K 2.5): 9.7491.
        assert change("1600", "1500", 5, 0, 250) == (Decimal("19.50"), Decimal("9.75"))

    def test_own_k_each_underdog_wins(self) -> None:
        # P = 0.564006: 4·5·√5·P = 25.2231; 4·2.5·√5·P = 12.6116.
        assert change("1500", "1600", 5, 0, 250) == (Decimal("25.22"), Decimal("12.61"))

    def test_fractional_k(self) -> None:
        # K 3.5 (150) and 4.5 (50), n = 3, level: 4·3.5·√3·0.5 = 12.1244, 4·4.5·√3·0.5 = 15.5885.
        assert change("1500", "1500", 3, 150, 50) == (Decimal("12.12"), Decimal("15.59"))

    def test_odd_ratings(self) -> None:
        # D = 113.57, n = 11: P_upset = 0.393254; K 4.63 and 1: 24.1552 and 5.2171.
        assert change("1612.34", "1498.77", 11, 37, 820) == (Decimal("24.16"), Decimal("5.22"))

    def test_huge_gap(self) -> None:
        # D = 1500, n = 25: P_upset = 0.000178; the favourite gains 0.0036 → 0.00, and the
        # underdog's win is worth 4·5·0.999822 = 19.9964 → 20.00.
        assert change("2500", "1000", 25, 400, 400) == (Decimal("0.00"), Decimal("0.00"))
        assert change("1000", "2500", 25, 400, 400) == (Decimal("20.00"), Decimal("20.00"))

    @pytest.mark.parametrize(
        ("difference", "length", "favourite_share"),
        # The favourite's winning share the formula assumes, from the table "batting average
        # for favorite to maintain his rating" (rec.games.backgammon, bkgm.com/rgb view+45).
        [(100, 1, "0.529"), (100, 5, "0.564"), (100, 11, "0.594"), (200, 11, "0.682"),
         (400, 11, "0.822"), (500, 1, "0.640"), (700, 7, "0.894")],
    )  # fmt: skip
    def test_published_table(self, difference: int, length: int, favourite_share: str) -> None:
        assert round(1 - underdog_chance(difference, length), 3) == float(favourite_share)


class TestK:
    @pytest.mark.parametrize(
        ("experience", "k"),
        [(0, 5.0), (1, 4.99), (100, 4.0), (150, 3.5), (399, 1.01), (400, 1.0), (10_000, 1.0)],
    )
    def test_values(self, experience: int, k: float) -> None:
        assert k_factor(experience) == pytest.approx(k)

    def test_negative_refused(self) -> None:
        with pytest.raises(RatingValueError):
            k_factor(-1)


class TestRatingValues:
    def test_two_decimals_kept(self) -> None:
        assert str(to_rating("1612.3")) == "1612.30"
        assert str(to_rating(1500)) == "1500.00"

    @pytest.mark.parametrize("bad", ["1612.345", "NaN", "Infinity", "abc"])
    def test_refused(self, bad: str) -> None:
        with pytest.raises(RatingValueError):
            to_rating(bad)

    def test_length_at_least_one(self) -> None:
        with pytest.raises(RatingValueError):
            underdog_chance(0, 0)


ratings = st.decimals(min_value=800, max_value=2500, places=2)
experience = st.integers(min_value=0, max_value=2000)


@given(ratings, ratings, st.integers(min_value=1, max_value=25), experience, experience)
def test_properties(
    winner: Decimal, loser: Decimal, n: int, winner_exp: int, loser_exp: int
) -> None:
    result = match_change(
        winner_rating=winner,
        loser_rating=loser,
        length=n,
        winner_experience=winner_exp,
        loser_experience=loser_exp,
    )
    # Cent-exact, never negative, bounded by 4·5·√n, and the same amount both ways when
    # the two K are the same.
    for amount in (result.gain, result.loss):
        assert amount == amount.quantize(Decimal("0.01")) and amount >= 0
        assert amount <= Decimal(20 * n**0.5).quantize(Decimal("0.01")) + Decimal("0.01")
    if k_factor(winner_exp) == k_factor(loser_exp):
        assert result.gain == result.loss
    # Beating a stronger player is worth at least as much as beating a weaker one.
    if winner < loser:
        assert result.chance_of_other_result >= 0.5
    else:
        assert result.chance_of_other_result <= 0.5
