"""Immutable positions (rules.md R1) and the record's ``Position:`` text form.

Each side's checkers are counted on that side's own points (R1): index 0 is the bar,
1–24 the points; borne-off checkers are what is missing from 15. Besides the board a
position carries the per-game state the rules need (:class:`SideState`):

- R13 (one-die rule): how many further turns must be rolled with a single die;
- R14 (resigning): whether the side ever had a band on its points 13–24, and whether it
  ever had the *janblotta* out;
- R15 (board + double-six): whether the side has yet to make its first roll, and whether
  the checkers on its point 7 are the double-six stack.

The text form (game-record.md) carries only the board and the side to move; the rest is
derived by :meth:`Position.from_text` (decisions, as a club organiser would take them):
a side whose 15 checkers all stand on point 1 has not rolled yet; the R14 flags are what
the position shows now; two or more checkers on point 7 are read as the R15 stack (any
other band on 2–11 is an error, R5.3); no series of single-die turns is running.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from operator import mul
from typing import Any, cast

from engine.errors import InvalidValue
from engine.messages import msg
from engine.types import BAR, CHECKERS_PER_SIDE, OFF, Side, to_other_numbering

__all__ = ["Position", "SideState", "has_janblotta_out", "is_jan", "side_state"]

_EMPTY: tuple[int, ...] = (0,) * 25
_HOME: tuple[int, ...] = (0, CHECKERS_PER_SIDE) + (0,) * 23


@dataclass(frozen=True, slots=True)
class SideState:
    """Per-game state of one side that the board alone does not show."""

    ever_band_13_24: bool = False  # R14
    ever_janblotta: bool = False  # R14
    single_die_left: int = 0  # R13: further turns that must be rolled with a single die
    first_roll_pending: bool = True  # R15: the side has not rolled yet this game
    stack_on_7: bool = False  # R15: the checkers on point 7 are the double-six stack

    def text(self) -> str:
        return (
            f"SideState(band13_24={self.ever_band_13_24}, janblotta={self.ever_janblotta}, "
            f"single_die_left={self.single_die_left}, first_roll={self.first_roll_pending}, "
            f"stack={self.stack_on_7})"
        )


def is_jan(points: tuple[int, ...] | list[int]) -> bool:
    """R10: a side is jan when bar > 6 − (its own points in Q1 occupied by it).

    ``points`` in that side's own numbering (index 0 = bar). 6 − occupied is the number
    of Q1 points without a checker of the side.
    """
    return points[BAR] > points[1:7].count(0)


def has_janblotta_out(points: tuple[int, ...] | list[int], stack_on_7: bool = False) -> bool:
    """R14: bar + blots on 7–24 > 6 − own points occupied in Q1.

    Decision: a double-six stack (R15) is hit as a whole, so its checkers all count here.
    """
    exposed = points[BAR] + points[7:25].count(1)
    if stack_on_7 and points[7] > 1:
        exposed += points[7]
    return exposed > points[1:7].count(0)


def has_band_13_24(points: tuple[int, ...] | list[int]) -> bool:
    """R14: a band (two or more checkers) on any of the side's points 13–24."""
    return max(points[13:25]) >= 2


_STATES: dict[tuple[bool, bool, int, bool, bool], SideState] = {}


def side_state(
    ever_band_13_24: bool,
    ever_janblotta: bool,
    single_die_left: int,
    first_roll_pending: bool,
    stack_on_7: bool,
) -> SideState:
    """A :class:`SideState`, shared: there are only a few hundred distinct ones, and a
    replay makes one per turn."""
    key = (ever_band_13_24, ever_janblotta, single_die_left, first_roll_pending, stack_on_7)
    state = _STATES.get(key)
    if state is None:
        state = SideState(*key)
        if len(_STATES) < 4096:
            _STATES[key] = state
    return state


_SIDE_RE = re.compile(r"^(?P<side>[A-Za-z]+)\b(?P<rest>.*)$")
_ITEM_RE = re.compile(r"^(?P<point>\d+|bar)(?::(?P<count>\d+))?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Position:
    """A position: both boards in their own numbering, the side to move, and game state.

    ``white``/``black``: 25 counts each, index 0 the bar and 1–24 the points, in that
    side's own numbering. Hashable and immutable.
    """

    to_move: Side
    white: tuple[int, ...] = _HOME
    black: tuple[int, ...] = _HOME
    white_state: SideState = field(default_factory=SideState)
    black_state: SideState = field(default_factory=SideState)

    def __post_init__(self) -> None:
        white, black = self.white, self.black
        # The common case in a few C-level passes (a replay builds a position per turn);
        # the slow loop below only runs to name what is wrong.
        if (
            len(white) == 25
            and len(black) == 25
            and min(white) >= 0
            and min(black) >= 0
            and sum(white) <= CHECKERS_PER_SIDE
            and sum(black) <= CHECKERS_PER_SIDE
            # White's 1–24 are Black's 13–24, 1–12 (R1); counts are >= 0, so a product is
            # nonzero exactly where both sides hold checkers
            and not any(map(mul, white[1:], black[13:] + black[1:13]))
        ):
            return
        for side, pts in ((Side.WHITE, white), (Side.BLACK, black)):
            if len(pts) != 25:
                raise ValueError(f"{side.word}: a board has 25 counts (bar and 1–24)")
            if any(c < 0 for c in pts):
                raise ValueError(f"{side.word}: negative checker count")
            if sum(pts) > CHECKERS_PER_SIDE:
                raise ValueError(
                    f"{side.word} has {sum(pts)} checkers on the board and bar, more than 15"
                )
        for p in range(1, 25):
            if white[p] and black[to_other_numbering(p)]:
                raise InvalidValue(
                    msg("position.both_sides", point=p, other_point=to_other_numbering(p))
                )

    # --- construction -----------------------------------------------------------------

    @classmethod
    def derived(
        cls,
        to_move: Side,
        white: tuple[int, ...],
        black: tuple[int, ...],
        white_state: SideState,
        black_state: SideState,
    ) -> Position:
        """A position the engine derived by legal steps from a checked one, built without
        the checks of ``__post_init__`` (a replay builds one per turn; legal steps keep
        the counts valid)."""
        self = object.__new__(cls)
        SET_TO_MOVE(self, to_move)
        SET_WHITE(self, white)
        SET_BLACK(self, black)
        SET_WHITE_STATE(self, white_state)
        SET_BLACK_STATE(self, black_state)
        return self

    @classmethod
    def initial(cls, to_move: Side) -> Position:
        """R1: all 15 checkers of each side on its point 1."""
        return cls(to_move)

    @classmethod
    def from_boards(
        cls,
        to_move: Side,
        white: tuple[int, ...] | list[int],
        black: tuple[int, ...] | list[int],
    ) -> Position:
        """A position from two boards, with the game state derived as ``from_text`` does."""
        w = tuple(white)
        b = tuple(black)
        return cls(to_move, w, b, _derived_state(w), _derived_state(b))

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read ``W 1:10 7 9 13:2 19 bar:0 | B 1:12 5 bar:2 | W`` (game-record.md)."""
        parts = [p.strip() for p in text.strip().split("|")]
        if len(parts) != 3:
            raise InvalidValue(msg("position.fields", count=len(parts), text=repr(text)))
        boards: dict[Side, list[int]] = {}
        for part in parts[:2]:
            m = _SIDE_RE.match(part)
            if not m:
                raise InvalidValue(msg("position.field_start", text=repr(part)))
            side = Side.from_text(m.group("side"))
            if side in boards:
                raise InvalidValue(msg("position.side_twice", side=side.word))
            board = [0] * 25
            seen: set[int] = set()
            for item in m.group("rest").split():
                im = _ITEM_RE.match(item)
                if not im:
                    raise InvalidValue(msg("position.item", side=side.word, text=repr(item)))
                raw = im.group("point").lower()
                point = BAR if raw == "bar" else int(raw)
                if point != BAR and not 1 <= point <= 24:
                    raise InvalidValue(msg("position.point_range", side=side.word, point=point))
                count = 1 if im.group("count") is None else int(im.group("count"))
                if point in seen:
                    raise InvalidValue(msg("position.point_twice", side=side.word, point=raw))
                seen.add(point)
                if count > CHECKERS_PER_SIDE:
                    raise InvalidValue(
                        msg("position.too_many_on", side=side.word, count=count, point=raw)
                    )
                board[point] = count
            if sum(board) > CHECKERS_PER_SIDE:
                raise InvalidValue(msg("position.too_many", side=side.word, count=sum(board)))
            for q in range(2, 12):
                if board[q] > 1 and q != 7:
                    # R5.3 (point 7 may hold the R15 double-six stack)
                    raise InvalidValue(msg("position.band_2_11", side=side.word, point=q))
            boards[side] = board
        if len(boards) != 2:
            raise InvalidValue(msg("position.needs_both"))
        to_move = Side.from_text(parts[2])
        return cls.from_boards(to_move, boards[Side.WHITE], boards[Side.BLACK])

    # --- reading ----------------------------------------------------------------------

    def points(self, side: Side) -> tuple[int, ...]:
        """That side's 25 counts in its own numbering (index 0 = bar)."""
        return self.white if side is Side.WHITE else self.black

    def state(self, side: Side) -> SideState:
        return self.white_state if side is Side.WHITE else self.black_state

    def count(self, side: Side, point: int) -> int:
        """Checkers of ``side`` on ``point`` in that side's numbering (0 bar, 25 off)."""
        if point == OFF:
            return self.borne_off(side)
        if not 0 <= point <= 24:
            raise ValueError(f"point {point} is out of range (0–25)")
        return self.points(side)[point]

    def borne_off(self, side: Side) -> int:
        return CHECKERS_PER_SIDE - sum(self.points(side))

    def bar(self, side: Side) -> int:
        return self.points(side)[BAR]

    def is_jan(self, side: Side) -> bool:
        """R10: ``side`` cannot enter all its checkers on the bar."""
        return is_jan(self.points(side))

    def board_key(self) -> tuple[tuple[int, ...], tuple[int, ...], Side]:
        """The board alone (no game state): what "the same resulting position" means."""
        return (self.white, self.black, self.to_move)

    # --- derived positions ------------------------------------------------------------

    def with_boards(
        self,
        side: Side,
        own: tuple[int, ...],
        other: tuple[int, ...],
    ) -> Position:
        """The same game state with new boards (``own`` for ``side``, ``other`` for the other)."""
        if side is Side.WHITE:
            return replace(self, white=own, black=other)
        return replace(self, white=other, black=own)

    def with_state(self, side: Side, state: SideState) -> Position:
        if side is Side.WHITE:
            return replace(self, white_state=state)
        return replace(self, black_state=state)

    def with_to_move(self, side: Side) -> Position:
        return replace(self, to_move=side)

    # --- text ---------------------------------------------------------------------------

    def text(self) -> str:
        """Canonical ``Position:`` text: points ascending, ``bar:n`` last and only when n > 0."""
        fields = []
        for side in (Side.WHITE, Side.BLACK):
            pts = self.points(side)
            items = [side.value]
            for p in range(1, 25):
                if pts[p] == 1:
                    items.append(str(p))
                elif pts[p] > 1:
                    items.append(f"{p}:{pts[p]}")
            if pts[BAR]:
                items.append(f"bar:{pts[BAR]}")
            fields.append(" ".join(items))
        fields.append(self.to_move.value)
        return " | ".join(fields)

    def __repr__(self) -> str:
        return f"Position.from_text({self.text()!r})"

    def __str__(self) -> str:
        return self.text()


# The slot setters of Position. They bypass the frozen dataclass's ``__setattr__`` and are
# the fastest way to fill a new position (Position.derived; the replay's one-pass check,
# engine.game._play_straight, builds one per turn this way).
_SLOTS = cast(Any, Position)
SET_TO_MOVE: Callable[[Position, Side], None] = _SLOTS.to_move.__set__
SET_WHITE: Callable[[Position, tuple[int, ...]], None] = _SLOTS.white.__set__
SET_BLACK: Callable[[Position, tuple[int, ...]], None] = _SLOTS.black.__set__
SET_WHITE_STATE: Callable[[Position, SideState], None] = _SLOTS.white_state.__set__
SET_BLACK_STATE: Callable[[Position, SideState], None] = _SLOTS.black_state.__set__


def _derived_state(points: tuple[int, ...]) -> SideState:
    stack = points[7] > 1
    return SideState(
        ever_band_13_24=has_band_13_24(points),
        ever_janblotta=has_janblotta_out(points, stack),
        single_die_left=0,
        first_roll_pending=points == _HOME,
        stack_on_7=stack,
    )


def initial_board() -> tuple[int, ...]:
    return _HOME


def empty_board() -> tuple[int, ...]:
    return _EMPTY
