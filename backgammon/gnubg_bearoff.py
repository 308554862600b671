"""GNU Backgammon's two-sided bear-off database: the exact money equities of a bear-off with
at most six checkers a side on the six home points, with each cube ownership.

gnubg 1.07 values such a position at 0-ply in match play (``eval.c``,
``EvaluatePositionCubeful4``) with the database's cubeless equity as its winning chance,
and the cube's efficiency found from the database's money equities rather than fixed: for
a cube position (centred, owned by the side on roll, owned by the other), the share of the
way from the cubeless money equity to Janowski's live-cube money equity (``MoneyLive``,
at efficiency 1) that the exact cubeful money equity goes, kept between 0 and the usual
bear-off efficiency 0.6 (:func:`cube_efficiency`).

The database is ``gnubg_ts0.bd`` (gnubg's ``makebearoff -t 6x6``, the one gnubg-nn carries
in its package data and Debian's ``gnubg`` builds on installation; the two are the same
file): a 40-byte header ``gnubg-TS-06-06-1…`` (6 points, 6 checkers, cubeful), then for
each position four little-endian unsigned 16-bit numbers ``n`` (the equity is
``n / 32767.5 - 1``): cubeless, cube owned by the side on roll, centred, owned by the
other. A position's index is the side on roll's one-sided index times 924 plus the other
side's (gnubg's ``PositionBearoff``: the rank of the checkers' arrangement among the
arrangements of at most six checkers on six points).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from math import comb
from pathlib import Path

__all__ = [
    "BEAROFF_EFFICIENCY",
    "TwoSidedBearoff",
    "cube_efficiency",
    "money_live",
    "position_bearoff",
]

POINTS = 6
CHEQUERS = 6
HEADER = b"gnubg-TS-06-06-1"
POSITIONS = comb(POINTS + CHEQUERS, POINTS)  # 924 arrangements a side
BEAROFF_EFFICIENCY = 0.6


def position_bearoff(side: Sequence[int], points: int = POINTS, chequers: int = CHEQUERS) -> int:
    """gnubg's ``PositionBearoff``: the index of one side's checkers on its first
    ``points`` points among the arrangements of at most ``chequers`` checkers."""
    j = points - 1 + sum(side[:points])
    bits = 1 << j
    for i in range(points - 1):
        j -= side[i] + 1
        bits |= 1 << j
    index = 0
    n, r = chequers + points, points
    while n != r:
        if bits & (1 << (n - 1)):
            index += comb(n - 1, r)
            r -= 1
        n -= 1
    return index


class TwoSidedBearoff:
    """The database read from ``path`` (once; 6.8 MB)."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        if not data.startswith(HEADER) or len(data) != 40 + 8 * POSITIONS * POSITIONS:
            raise ValueError(f"{path} is not gnubg's cubeful two-sided 6×6 bear-off database")
        self.data = data

    @staticmethod
    def holds(board: Sequence[Sequence[int]]) -> bool:
        """Whether a board (gnubg's: the side not on roll first) is in the database."""
        return all(sum(side[:POINTS]) <= CHEQUERS and not any(side[POINTS:]) for side in board)

    def equities(self, board: Sequence[Sequence[int]]) -> tuple[float, float, float, float]:
        """The side on roll's money equities: cubeless, owning the cube, cube centred, the
        other owning it."""
        index = position_bearoff(board[1]) * POSITIONS + position_bearoff(board[0])
        raw = struct.unpack_from("<4H", self.data, 40 + 8 * index)
        cubeless, owned, centred, theirs = (n / 32767.5 - 1.0 for n in raw)
        return cubeless, owned, centred, theirs


def money_live(win: float, owner: str) -> float:
    """Janowski's money equity with a live cube (gnubg's ``MoneyLive``) of a position with no
    gammons; ``owner`` is ``centred``, ``mine`` or ``theirs``."""
    take_point, cash_point = 0.5 / 2.5, 2.0 / 2.5
    if owner == "centred":
        if win < take_point:
            return -1.0
        if win < cash_point:
            return -1.0 + 2.0 * (win - take_point) / (cash_point - take_point)
        return 1.0
    if owner == "mine":
        return -1.0 + 2.0 * win / cash_point if win < cash_point else 1.0
    if win < take_point:
        return -1.0
    return -1.0 + 2.0 * (win - take_point) / (1.0 - take_point)


def cube_efficiency(equities: tuple[float, float, float, float], owner: str) -> float:
    """The cube efficiency gnubg 1.07 uses in match play for a position of the database,
    for a cube ``owner`` (``centred``, ``mine``, ``theirs``) from the side on roll's view."""
    cubeless = equities[0]
    exact = {"mine": equities[1], "centred": equities[2], "theirs": equities[3]}[owner]
    win = cubeless / 2.0 + 0.5
    live = cubeless if win <= 1e-7 or win >= 0.9999999 else money_live(win, owner)
    if abs(cubeless - live) <= 0.0001:
        return BEAROFF_EFFICIENCY
    x = (exact - cubeless) / (live - cubeless)
    return min(max(x, 0.0), BEAROFF_EFFICIENCY)
