"""Seeding a draw by rating (ratings.seeding)."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.errors import RatingValueError
from ratings.seeding import seeding_order, tie_break_key


def test_by_rating_highest_first() -> None:
    ratings = {1: Decimal("1480.00"), 2: Decimal("1622.10"), 3: Decimal("1501.00")}
    assert seeding_order([1, 2, 3, 4], ratings, seed=7) == [2, 3, 4, 1]  # 4 unrated: 1500


def test_ties_follow_the_seed() -> None:
    players = list(range(1, 9))
    level = {p: Decimal("1500") for p in players}
    orders = {tuple(seeding_order(players, level, seed=s)) for s in range(20)}
    assert len(orders) > 1  # different seeds, different orders
    assert seeding_order(players, level, seed=3) == seeding_order(players, level, seed=3)
    expected = sorted(players, key=lambda p: tie_break_key(3, p))
    assert seeding_order(players, level, seed=3) == expected


def test_twice_refused() -> None:
    with pytest.raises(RatingValueError):
        seeding_order([1, 1], {}, seed=0)


ratings_map = st.dictionaries(
    st.integers(1, 40), st.sampled_from([Decimal(r) for r in ("1450", "1500", "1555.55")])
)


@given(ratings_map, st.integers(), st.randoms(use_true_random=False))
def test_order_of_entry_does_not_matter(
    ratings: dict[int, Decimal], seed: int, rnd: random.Random
) -> None:
    players = sorted(ratings)
    shuffled = list(players)
    rnd.shuffle(shuffled)
    order = seeding_order(players, ratings, seed=seed)
    assert order == seeding_order(shuffled, ratings, seed=seed)
    assert [ratings[p] for p in order] == sorted(ratings.values(), reverse=True)
    # Two tied players keep their order whoever else entered.
    if len(order) > 2:
        dropped = [p for p in order if p != order[0]]
        assert seeding_order(dropped, ratings, seed=seed) == dropped
