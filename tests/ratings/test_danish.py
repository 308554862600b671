"""The Danish Backgammon Federation's formula (ratings.danish): the federation's worked
example, more cases worked out by hand, and the federation's "the two possible changes add
up to the match length"; then the formula beside FIBS in the registry and the ledger."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.danish import DANISH, match_change, upset_chance
from ratings.errors import RatingValueError
from ratings.fibs import FIBS
from ratings.formulas import (
    DEFAULT_FORMULA,
    UnknownFormulaError,
    choices,
    formula_for,
    formula_keys,
)
from ratings.ledger import Book, FinishedMatch, Ledger, PlayerState, rebuild

T0 = datetime(2025, 9, 1, 18, 0, tzinfo=UTC)


def m(
    id: int, a: int, b: int, *, n: int, winner: int | None = None, game: str = "brade"
) -> FinishedMatch:
    return FinishedMatch(
        id=id,
        game=game,
        player_a=a,
        player_b=b,
        winner=a if winner is None else winner,
        length=n,
        ended_at=T0 + timedelta(minutes=id),
    )


def change(winner: str, loser: str, n: int) -> tuple[Decimal, Decimal]:
    result = match_change(winner_rating=Decimal(winner), loser_rating=Decimal(loser), length=n)
    return result.gain, result.loss


class TestTheFederationsExample:
    """ "Eksempel 1" of https://www.backgammon.dk/Rangliste/Beregning+af+rating: A (1100)
    beats B (1000) in a 9-point match."""

    def test_the_upset_chance(self) -> None:
        # 1/(10^(100·√9/2000) + 1) = 1/(10^0.15 + 1) = 1/(1.41254 + 1) = 0.414501
        assert round(upset_chance(100, 9), 4) == 0.4145

    def test_the_favourite_wins(self) -> None:
        # 9 × 0.414501 = 3.7305: A gains 3.73, B loses 3.73.
        assert change("1100", "1000", 9) == (Decimal("3.73"), Decimal("3.73"))

    def test_the_underdog_wins(self) -> None:
        # 9 × (1 − 0.414501) = 5.2695: B gains 5.27, A loses 5.27.
        assert change("1000", "1100", 9) == (Decimal("5.27"), Decimal("5.27"))

    def test_the_two_changes_add_up_to_the_length(self) -> None:
        # "Bemærk at 3.73+5.27 = 9": and B would stand at 1005.27 or 996.27.
        won, _ = change("1000", "1100", 9)
        _, lost = change("1100", "1000", 9)
        assert won + lost == 9
        assert (Decimal("1000.00") + won, Decimal("1000.00") - lost) == (
            Decimal("1005.27"),
            Decimal("996.27"),
        )


class TestWorkedByHand:
    """Each figure worked out by hand from the federation's formula (the powers of ten with
    50-digit decimal arithmetic), not by this code."""

    @pytest.mark.parametrize(("n", "half"), [(1, "0.50"), (7, "3.50"), (11, "5.50")])
    def test_level_ratings_each_gain_half_the_length(self, n: int, half: str) -> None:
        # D = 0: P_upset = 1/(10^0 + 1) = ½, whoever wins.
        assert change("1500", "1500", n) == (Decimal(half), Decimal(half))
        assert change("1234.56", "1234.56", n) == (Decimal(half), Decimal(half))

    def test_a_one_point_match(self) -> None:
        # D = 200, N = 1: 1/(10^0.1 + 1) = 1/(1.258925 + 1) = 0.442688.
        assert change("1700", "1500", 1) == (Decimal("0.44"), Decimal("0.44"))
        # The underdog: 1 − 0.442688 = 0.557312.
        assert change("1500", "1700", 1) == (Decimal("0.56"), Decimal("0.56"))

    def test_a_four_point_match(self) -> None:
        # D = 400, N = 4: 10^(400·2/2000) = 10^0.4 = 2.511886; P = 0.284747; 4P = 1.1390.
        assert change("1900", "1500", 4) == (Decimal("1.14"), Decimal("1.14"))
        assert change("1500", "1900", 4) == (Decimal("2.86"), Decimal("2.86"))

    def test_a_big_difference_in_a_long_match(self) -> None:
        # D = 1000, N = 25: 10^(1000·5/2000) = 10^2.5 = 316.2278; P = 0.0031523;
        # 25P = 0.0788: the favourite gains 0.08, the underdog would gain 24.92.
        assert change("2500", "1500", 25) == (Decimal("0.08"), Decimal("0.08"))
        assert change("1500", "2500", 25) == (Decimal("24.92"), Decimal("24.92"))

    def test_a_very_big_difference_in_a_short_match(self) -> None:
        # D = 2000, N = 1: 1/(10^1 + 1) = 1/11 = 0.0909.
        assert change("3000", "1000", 1) == (Decimal("0.09"), Decimal("0.09"))
        assert change("1000", "3000", 1) == (Decimal("0.91"), Decimal("0.91"))

    def test_cents_in_the_ratings(self) -> None:
        # D = 150 (1650.25 v 1500.25), N = 11: 10^(150·√11/2000) = 1.773080; P = 0.360600;
        # 11P = 3.9666, 11(1 − P) = 7.0334.
        assert change("1650.25", "1500.25", 11) == (Decimal("3.97"), Decimal("3.97"))
        assert change("1500.25", "1650.25", 11) == (Decimal("7.03"), Decimal("7.03"))


class TestProperties:
    @given(
        st.integers(min_value=0, max_value=400_000).map(lambda c: Decimal(c).scaleb(-2)),
        st.integers(min_value=1, max_value=99),
    )
    def test_the_favourites_gain_and_the_underdogs_add_up_to_n(
        self, difference: Decimal, n: int
    ) -> None:
        high, low = Decimal("1000.00") + difference, Decimal("1000.00")
        favourite, _ = change(str(high), str(low), n)
        underdog, _ = change(str(low), str(high), n)
        assert favourite + underdog == n
        assert Decimal(0) <= favourite <= Decimal(n) / 2 <= underdog <= n

    @pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 9, 11, 13, 17, 21, 25])
    @pytest.mark.parametrize("difference", ["0", "0.01", "1", "33.33", "100", "500", "2000"])
    def test_the_two_changes_add_up_to_n_on_a_grid(self, difference: str, n: int) -> None:
        high = str(Decimal("1500") + Decimal(difference))
        favourite, _ = change(high, "1500", n)
        underdog, _ = change("1500", high, n)
        assert favourite + underdog == n

    @given(
        st.integers(min_value=0, max_value=300_000).map(lambda c: Decimal(c).scaleb(-2)),
        st.integers(min_value=0, max_value=300_000).map(lambda c: Decimal(c).scaleb(-2)),
        st.integers(min_value=1, max_value=99),
    )
    def test_the_loser_loses_what_the_winner_gains(self, a: Decimal, b: Decimal, n: int) -> None:
        gain, loss = change(str(a), str(b), n)
        assert gain == loss == gain.quantize(Decimal("0.01"))

    @given(st.integers(min_value=0, max_value=5000), st.integers(min_value=0, max_value=5000))
    def test_experience_changes_nothing(self, winner_exp: int, loser_exp: int) -> None:
        with_experience = match_change(
            winner_rating=Decimal("1500"),
            loser_rating=Decimal("1620.40"),
            length=7,
            winner_experience=winner_exp,
            loser_experience=loser_exp,
        )
        assert with_experience == match_change(
            winner_rating=Decimal("1500"), loser_rating=Decimal("1620.40"), length=7
        )

    def test_refused(self) -> None:
        with pytest.raises(RatingValueError, match="at least 1"):
            change("1500", "1500", 0)
        with pytest.raises(RatingValueError, match="experience"):
            match_change(
                winner_rating=Decimal("1500"),
                loser_rating=Decimal("1500"),
                length=1,
                winner_experience=-1,
            )


class TestBesideFibs:
    def test_the_registry_has_both_fibs_first(self) -> None:
        assert formula_keys()[:2] == ("fibs", "danish") and DEFAULT_FORMULA == "fibs"
        assert formula_for("danish") is DANISH and formula_for("fibs") is FIBS
        assert ("danish", "Danish Backgammon Federation rating") in choices()
        with pytest.raises(UnknownFormulaError, match="known formulas: fibs, danish"):
            formula_for("elo")

    def test_the_protocol_gives_the_modules_figures(self) -> None:
        result = DANISH.match_change(
            winner_rating=Decimal("1100"),
            loser_rating=Decimal("1000"),
            length=9,
            winner_experience=0,
            loser_experience=50,
        )
        assert (result.gain, result.loss) == (Decimal("3.73"), Decimal("3.73"))

    def test_a_book_rates_by_its_formula(self) -> None:
        danish = Book("backgammon", formula="danish")
        a, b = danish.apply(m(1, 10, 20, game="backgammon", n=9))
        # Level newcomers, 9 points: ±4.50 (FIBS would move them ±60.00: K 5, 4·5·3·½).
        assert (a.change, b.change, a.formula) == (Decimal("4.50"), Decimal("-4.50"), "danish")
        assert danish.state(10) == PlayerState(Decimal("1504.50"), 9)
        with pytest.raises(UnknownFormulaError):
            Book("brade", formula="elo")

    def test_a_ledger_keeps_both_lists_side_by_side(self) -> None:
        matches = [m(1, 10, 20, n=5), m(2, 30, 10, n=3), m(3, 20, 30, n=7, winner=30)]
        start = {"brade": {30: PlayerState(Decimal("1700.00"), 450)}}
        both = rebuild(matches, imported=start, formulas=("fibs", "danish"))
        fibs_only = rebuild(matches, imported=start)
        # The FIBS book is the one a FIBS-only ledger keeps, entry for entry.
        assert both.rating_list("brade") == fibs_only.rating_list("brade")
        for player in (10, 20, 30):
            assert both.history("brade", player) == fibs_only.history("brade", player)
        # The Danish book started from the same imported start and counted experience the
        # same way, with its own figures.
        danish = dict(both.rating_list("brade", "danish"))
        assert {p: s.experience for p, s in danish.items()} == {
            p: s.experience for p, s in fibs_only.rating_list("brade")
        }
        assert danish[10].rating != both.rating("brade", 10)
        # Match 1: level newcomers, 5 points: ±2.50.
        first = both.history("brade", 10, "danish")[0]
        assert (first.before, first.change) == (Decimal("1500.00"), Decimal("2.50"))
        # Zero-sum: the Danish ratings add up to the starts.
        assert sum(s.rating for s in danish.values()) == Decimal("4700.00")

    def test_a_ledger_applies_a_match_to_every_formula(self) -> None:
        ledger = Ledger(formulas=("fibs", "danish"))
        entries = ledger.apply(m(2, 10, 20, n=3))
        assert [(e.formula, e.player) for e in entries] == [
            ("fibs", 10),
            ("fibs", 20),
            ("danish", 10),
            ("danish", 20),
        ]
        with pytest.raises(RatingValueError, match="keeps no 'danish'"):
            Ledger().book("brade", "danish")
        with pytest.raises(RatingValueError, match="twice"):
            Ledger(formulas=("fibs", "fibs"))
