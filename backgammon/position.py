"""Immutable backgammon positions and the gnubg Position ID.

A :class:`Position` is seen from the side that is to play (*on roll*): ``me`` are its
checkers, ``opp`` the opponent's, each in that side's **own** numbering (seed 002, "Backgammon-
brættet": points 1–6 are the side's inner home board, 19–24 the opponent's). Each is a tuple
of 26 counts: index ``0`` = borne off, ``1``–``24`` = the points, ``25`` = the bar — the
numbers ``.mat`` records use (``bar/22``, ``25/22``, ``6/off``, ``6/0``). My point ``p`` is the
opponent's point ``25 − p``.

Positions with fewer than 15 checkers on the board are allowed (the rest are borne off), as
in gnubg; more than 15 is an error, and so are two colours on one point.

**Position ID** (gnubg manual, "A technical description of the Position ID"): an 80-bit key
— for each side, for points 1…24 then the bar, as many 1-bits as checkers followed by a 0 —
packed little-endian into 10 bytes, then base64 without padding (14 characters). The manual
says the player on roll is encoded first; gnubg's own code (``PositionKey(ms.anBoard)`` with
``anBoard[1]`` the player on roll) writes the **opponent first** and the player on roll second,
and every ID gnubg, eXtreme Gammon and BGBlitz exchange follows the code. Decision: follow the
code (checked against gnubg's ``show board`` output in the tests), so IDs pasted from those
programs read the right way round.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass

from backgammon.errors import PositionError

__all__ = ["BAR", "CHECKERS", "OFF", "START", "Position"]

CHECKERS = 15
BAR = 25
OFF = 0

# 2 on the 24 point, 5 on the 13, 3 on the 8, 5 on the 6 (seed 002, diagram 1).
_START_SIDE: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)


def _side(counts: tuple[int, ...] | list[int], who: str) -> tuple[int, ...]:
    if len(counts) == 26:
        on_board = counts[1:]
    elif len(counts) == 25:
        on_board = counts
    else:
        raise PositionError(f"{who}: 25 or 26 counts (points 1–24 and the bar) expected")
    if any(c < 0 for c in on_board):
        raise PositionError(f"{who}: a negative checker count")
    total = sum(on_board)
    if total > CHECKERS:
        raise PositionError(f"{who}: {total} checkers on the board; a side has 15")
    return (CHECKERS - total, *on_board)


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, seen from the side on roll. Hashable and immutable.

    ``me``/``opp``: 26 counts each in the side's own numbering (0 off, 1–24, 25 bar). The
    off count is derived: 25 counts (points and bar) may be given instead.
    """

    me: tuple[int, ...] = _START_SIDE
    opp: tuple[int, ...] = _START_SIDE

    def __post_init__(self) -> None:
        if len(self.me) != 26 or self.me[0] != CHECKERS - sum(self.me[1:]):
            object.__setattr__(self, "me", _side(tuple(self.me), "player on roll"))
        if len(self.opp) != 26 or self.opp[0] != CHECKERS - sum(self.opp[1:]):
            object.__setattr__(self, "opp", _side(tuple(self.opp), "opponent"))
        if min(self.me) < 0 or min(self.opp) < 0:
            raise PositionError("a negative checker count")
        me, opp = self.me, self.opp
        for p in range(1, 25):
            if me[p] and opp[25 - p]:
                raise PositionError(f"point {p} holds checkers of both sides")

    @classmethod
    def trusted(cls, me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
        """A position from sides already known to be whole (26 counts each, the off count
        right, no point shared): a replay's boards, which only legal steps change. Skips
        the checks of the constructor, which a replay would otherwise pay twice a turn."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "me", me)
        object.__setattr__(pos, "opp", opp)
        return pos

    # --- derived facts -------------------------------------------------------------
    def swapped(self) -> Position:
        """The same board with the turn passed to the other side."""
        return Position(self.opp, self.me)

    def pips(self) -> tuple[int, int]:
        """Pip counts (player on roll, opponent)."""
        return (
            sum(p * c for p, c in enumerate(self.me)),
            sum(p * c for p, c in enumerate(self.opp)),
        )

    def borne_off(self) -> tuple[int, int]:
        return self.me[OFF], self.opp[OFF]

    # --- gnubg Position ID -----------------------------------------------------------
    def key(self) -> bytes:
        """The 10-byte gnubg position key (opponent first, as gnubg's code writes it)."""
        value = 0
        bit = 0
        for side in (self.opp, self.me):
            for idx in range(1, 26):
                n = side[idx]
                if n:
                    value |= ((1 << n) - 1) << bit
                    bit += n
                bit += 1
        return value.to_bytes(10, "little")

    def position_id(self) -> str:
        """The 14-character gnubg Position ID."""
        return base64.b64encode(self.key()).decode("ascii")[:14]

    @classmethod
    def from_key(cls, key: bytes) -> Position:
        if len(key) != 10:
            raise PositionError("a position key has 10 bytes")
        value = int.from_bytes(key, "little")
        sides: list[list[int]] = [[], []]
        side = 0
        run = 0
        for bit in range(80):
            if value >> bit & 1:
                run += 1
                continue
            sides[side].append(run)
            run = 0
            if len(sides[side]) == 25:
                if side == 1:
                    break
                side = 1
        if len(sides[1]) != 25 or value >> 80:
            raise PositionError("the position key does not hold two sides of 25 places")
        opp, me = sides
        return cls(tuple(me), tuple(opp))

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Read a gnubg Position ID (14 base64 characters; ``=`` padding tolerated)."""
        text = position_id.strip().rstrip("=")
        if len(text) != 14:
            raise PositionError(f"a Position ID has 14 characters, not {len(text)}: {text!r}")
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError) as exc:
            raise PositionError(f"not a Position ID: {text!r}") from exc
        return cls.from_key(raw)

    # --- text form: the Position ID ---------------------------------------------------
    def text(self) -> str:
        return self.position_id()

    @classmethod
    def from_text(cls, text: str) -> Position:
        return cls.from_id(text)

    def __str__(self) -> str:
        return self.position_id()


START = Position()

# trusted_position's parts, public for move generation's hot loop, which inlines them
# (``backgammon.movegen``): the slot descriptors' setters skip the frozen dataclass's
# __setattr__
raw_new = object.__new__
raw_set_me: Callable[[Position, tuple[int, ...]], None] = Position.__dict__["me"].__set__
raw_set_opp: Callable[[Position, tuple[int, ...]], None] = Position.__dict__["opp"].__set__


def trusted_position(me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
    """A position from counts already known to be valid (move generation's results),
    built without the checks: a replay and the bench make hundreds of thousands."""
    pos: Position = raw_new(Position)
    raw_set_me(pos, me)
    raw_set_opp(pos, opp)
    return pos
