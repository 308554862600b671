"""Random positions of the kinds the property tests and the bench need.

Kinds: ``contact`` (both sides anywhere, no one on the bar), ``bar`` (contact with checkers on
the bar, sometimes a closed board), ``race`` (the sides have passed each other), ``bearoff``
(both sides in their home boards, some already borne off). Deterministic for a given
``random.Random``.
"""

from __future__ import annotations

import random

from backgammon.position import BAR, CHECKERS, Position

__all__ = ["KINDS", "random_position"]

KINDS = ("contact", "bar", "race", "bearoff")


def _scatter(rng: random.Random, n: int, points: list[int], side: list[int]) -> None:
    for _ in range(n):
        side[rng.choice(points)] += 1


def random_position(rng: random.Random, kind: str) -> Position:
    me = [0] * 26
    opp = [0] * 26
    if kind in ("contact", "bar"):
        # opponent first, on some points of its own; then me on points it leaves open
        n_points = rng.randint(3, 9)
        opp_points = rng.sample(range(1, 25), n_points)
        _scatter(rng, CHECKERS - rng.choice((0, 0, 0, 1, 3)), opp_points, opp)
        free = [p for p in range(1, 25) if not opp[25 - p]]
        mine = rng.sample(free, min(len(free), rng.randint(3, 9)))
        _scatter(rng, CHECKERS - rng.choice((0, 0, 0, 1, 3)), mine, me)
        if kind == "bar":
            if rng.random() < 0.2:  # a closed or nearly closed board in front of me
                for p in range(19, 25):
                    if not me[p] and rng.random() < 0.85:
                        moved = next((q for q in range(1, 25) if opp[q] >= 2 and q > 6), None)
                        if moved is not None:
                            opp[moved] -= 2
                            opp[25 - p] += 2
            for _ in range(rng.randint(1, 3)):
                src = rng.choice([p for p in range(1, 25) if me[p]])
                me[src] -= 1
                me[BAR] += 1
            if rng.random() < 0.3:
                src = rng.choice([p for p in range(1, 25) if opp[p]])
                opp[src] -= 1
                opp[BAR] += 1
    elif kind == "race":
        split = rng.randint(2, 22)  # my checkers on 1..split, the opponent's beyond it
        _scatter(rng, CHECKERS - rng.choice((0, 0, 2, 5)), list(range(1, split + 1)), me)
        _scatter(rng, CHECKERS - rng.choice((0, 0, 2, 5)), list(range(1, 25 - split)), opp)
    elif kind == "bearoff":
        _scatter(rng, rng.randint(1, CHECKERS), list(range(1, 7)), me)
        _scatter(rng, rng.randint(1, CHECKERS), list(range(1, 7)), opp)
    else:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")
    return Position(tuple(me), tuple(opp))
