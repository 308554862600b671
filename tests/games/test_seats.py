"""Which player: seats 0/1 at the seam, and the only conversions (``games.seats``)."""

from __future__ import annotations

import pytest

from engine.types import Side
from games.seats import SEATS, letter_of, other, seat_of, side_of


def test_white_and_w_are_seat_0_black_and_b_seat_1() -> None:
    assert [seat_of(Side.WHITE), seat_of("W"), seat_of(Side.BLACK), seat_of("B")] == [0, 0, 1, 1]
    assert [side_of(seat) for seat in SEATS] == [Side.WHITE, Side.BLACK]
    assert [letter_of(seat) for seat in SEATS] == ["W", "B"]
    assert [other(seat) for seat in SEATS] == [1, 0]


def test_the_conversions_round_trip() -> None:
    for seat in SEATS:
        assert seat_of(side_of(seat)) == seat == seat_of(letter_of(seat))
        assert other(other(seat)) == seat


@pytest.mark.parametrize("bad", [-1, 2, 3])
def test_a_number_that_is_no_seat_is_refused(bad: int) -> None:
    with pytest.raises(ValueError):
        side_of(bad)
    with pytest.raises(ValueError):
        other(bad)


@pytest.mark.parametrize("bad", ["X", "", "white player"])
def test_a_letter_that_is_no_side_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        seat_of(bad)
