"""Doubles (seed 002, rule 5: played four times) against a plain search.

``movegen._doubles`` is the fast generator (one choice per point, pruned, results built at
the leaves); ``movegen._search`` is the plain depth-first search over single steps that
the other rolls with the bar or bearing off use. Over random positions of every kind and
every double they must give the same positions — and gnubg agrees with both
(tests/backgammon/test_gnubg_oracle.py, when gnubg-nn is installed).
"""

from __future__ import annotations

import random

import pytest

from backgammon.movegen import _doubles, _result, _search, legal_plays, legal_results
from backgammon.position import Position
from backgammon.sample import KINDS, random_position


def searched(pos: Position, d: int) -> set[Position]:
    out: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int, bool], ...]] = {}
    oppm = [0, *pos.opp[24:0:-1], 0]
    _search(list(pos.me), oppm, (d, d, d, d), out, [-1])
    return {_result(pos, board, mask) for board, mask in out}


@pytest.mark.parametrize("kind", KINDS)
def test_the_fast_doubles_equal_a_plain_search(kind: str) -> None:
    rng = random.Random(f"doubles-{kind}")
    for _ in range(150):
        pos = random_position(rng, kind)
        for d in range(1, 7):
            found = _doubles(pos, d)
            assert len(set(found)) == len(found), (pos.position_id(), d)  # no duplicates
            assert set(found) == searched(pos, d), (pos.position_id(), d)


def test_bearing_off_becomes_possible_during_the_turn() -> None:
    # one checker on the 9 point, the rest home: 6-6 plays 9/3 and bears off three
    me = [0] * 26
    me[9], me[6], me[5], me[1] = 1, 4, 5, 5
    opp = [0] * 26
    opp[1] = 2  # the opponent's checkers in their home board: no contact
    pos = Position(tuple(me), tuple(opp))
    (play,) = legal_plays(pos, 6, 6)
    assert play.text() == "9/3 6/off 6/off 6/off"
    assert legal_results(pos, 6, 6) == [play.result]


def test_nothing_enters_and_the_position_stands() -> None:
    me = [0] * 26
    me[25], me[13] = 1, 14
    opp = [0] * 26
    opp[6], opp[1] = 2, 13  # their 6 point is my 19, where a 6 enters: 6-6 cannot
    pos = Position(tuple(me), tuple(opp))
    assert legal_results(pos, 6, 6) == [pos]
    assert legal_plays(pos, 6, 6)[0].steps == ()
