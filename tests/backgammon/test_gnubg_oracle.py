"""Property test with gnubg as the oracle: for random positions (contact, checkers on the
bar, race, bear-off) and every roll, the set of positions reachable by a legal play equals
the set gnubg's move generator (``gnubg_nn.moves``, dev dependency) gives.

2,000 positions × 21 rolls here; ``scripts/bg_oracle.py`` runs the 10,000-position check.
"""

from __future__ import annotations

import random

import pytest

from backgammon.movegen import legal_results
from backgammon.position import Position
from backgammon.sample import KINDS, random_position

try:
    import gnubg_nn as gnubg
except ImportError as missing:  # pinned in requirements-dev.txt: its absence is a broken setup
    raise ImportError(
        "gnubg-nn, the oracle of these tests, is not installed although requirements-dev.txt "
        "pins it: install the dev requirements (.venv/bin/pip install -r requirements-dev.txt)"
    ) from missing

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def gnubg_ids(pos: Position, d1: int, d2: int) -> set[str]:
    board = [list(pos.opp[1:]), list(pos.me[1:])]  # gnubg: [opponent, player on roll]
    keys = gnubg.moves(board, d1, d2)
    if not keys:  # gnubg lists no play; the turn passes with the board unchanged
        return {pos.position_id()}
    return {gnubg.position_id([list(s) for s in gnubg.board_from_position_key(k)]) for k in keys}


def mismatches(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    bad: list[str] = []
    for i in range(n):
        pos = random_position(rng, KINDS[i % len(KINDS)])
        for d1, d2 in ROLLS:
            ours = {r.position_id() for r in legal_results(pos, d1, d2)}
            if ours != gnubg_ids(pos, d1, d2):
                bad.append(f"{pos.position_id()} {d1}{d2}")
    return bad


class TestAgainstGnubg:
    def test_the_oracle_sees_the_position_we_send(self) -> None:
        pos = Position.from_id("4HPwATDgc/ABMA")
        assert len(gnubg_ids(pos, 3, 1)) == 16 == len(legal_results(pos, 3, 1))

    @pytest.mark.parametrize("seed", [1, 2])
    def test_random_positions_every_roll(self, seed: int) -> None:
        assert mismatches(seed, 1000) == []

    def test_each_kind_is_sampled(self) -> None:
        rng = random.Random(7)
        for kind in KINDS:
            pos = random_position(rng, kind)
            if kind == "bar":
                assert pos.me[25] > 0
            if kind == "bearoff":
                assert not any(pos.me[7:]) and not any(pos.opp[7:])
