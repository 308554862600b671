"""The board picture: a pure description of one position that a template draws.

Both boards have 24 points in two rows of twelve, split by the bar, with a tray for
borne-off checkers at each end. Every point is given in the *viewer's* numbering (the
seat of ``view``), and the point numbered ``n`` always sits in the same place:

======  ==========================================================
1–12    bottom row, from right (1) to left (12)
13–24   top row, from left (13) to right (24)
======  ==========================================================

(``web/board.py`` draws bräde this way.) What differs is how the sides travel, named by
``layout``:

- ``brade``: both sides go the same way round (rules.md R1). The viewer enters from the
  bar on 1–6 (bottom right) and bears off after 24 (top right tray); the opponent's point
  p is the viewer's ((p + 11) mod 24) + 1, it bears off at the bottom left.
- ``backgammon``: the sides go in opposite directions (seed 002, "Backgammon-brættet").
  The viewer enters on 24–19 (top right) and bears off from 1–6 into the bottom right
  tray; the opponent's point p is the viewer's 25 − p, it bears off into the top right
  tray. The doubling cube lies in the middle of the bar while centred, else on its
  owner's side.

Players are ``0`` (White in bräde, the first player) and ``1``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BACKGAMMON", "BRADE", "BoardPicture", "CubePicture", "Stack"]

BRADE = "brade"
BACKGAMMON = "backgammon"


@dataclass(frozen=True, slots=True)
class Stack:
    """``count`` checkers of ``side`` on point ``point`` (1–24, viewer's numbering)."""

    side: int
    point: int
    count: int


@dataclass(frozen=True, slots=True)
class CubePicture:
    """The doubling cube: its value, its owner (None: centred) and, while a double awaits
    an answer, who offered it."""

    value: int = 1
    owner: int | None = None
    offered_by: int | None = None


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """One position to draw.

    ``stacks`` lists every occupied point (per side, in point order); ``bar`` and ``off``
    are indexed by side. ``dice`` are the dice just played by ``mover``; ``sources`` the
    points its steps left (and no step reached), ``targets`` the points they reached
    (viewer's numbering, sorted). ``cube`` is None for a game without one (bräde).
    """

    layout: str
    view: int
    stacks: tuple[Stack, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    dice: tuple[int, ...] = ()
    mover: int | None = None
    sources: tuple[int, ...] = ()
    targets: tuple[int, ...] = ()
    cube: CubePicture | None = None

    def count(self, side: int, point: int) -> int:
        """Checkers of ``side`` on the viewer's point ``point`` (0 when none)."""
        for stack in self.stacks:
            if stack.side == side and stack.point == point:
                return stack.count
        return 0

    def checkers(self, side: int) -> int:
        """All of ``side``'s checkers in the picture: on points, on the bar and off."""
        return sum(s.count for s in self.stacks if s.side == side) + self.bar[side] + self.off[side]
