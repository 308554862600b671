"""Steps and plays (rules.md R4): small immutable value types with a text form.

A *step* moves one checker by one die, in the mover's own numbering (0 = bar, 25 = off);
a *play* is the steps of one turn in the order played. Text forms follow the record
(game-record.md): ``13/19*`` (``*`` = hit), ``bar/3``, ``21/off``; a blast (R9) is written
with ``*`` like a hit (the record does not tell them apart); a play is its steps separated
by blanks, ``-`` when empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.types import BAR, OFF

__all__ = ["Play", "Step", "point_text"]


def point_text(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die: ``src`` → ``dst`` (mover's numbering, 0 bar, 25 off)."""

    src: int
    dst: int
    die: int
    hit: bool = False
    blast: bool = False

    def text(self) -> str:
        star = "*" if self.hit or self.blast else ""
        return f"{point_text(self.src)}/{point_text(self.dst)}{star}"

    @property
    def distance(self) -> int:
        """Points actually travelled (a reduced bear-off travels less than its die)."""
        return self.dst - self.src

    def __repr__(self) -> str:
        extra = ""
        if self.hit:
            extra += ", hit=True"
        if self.blast:
            extra += ", blast=True"
        return f"Step({self.src}, {self.dst}, {self.die}{extra})"


@dataclass(frozen=True, slots=True)
class Play:
    """The steps of one turn in the order played (empty: nothing could be played)."""

    steps: tuple[Step, ...] = ()

    def text(self) -> str:
        if not self.steps:
            return "-"
        return " ".join(s.text() for s in self.steps)

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """``(src, dst)`` of each step, as ``Game.play_turn`` and records take them."""
        return tuple((s.src, s.dst) for s in self.steps)

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)

    @property
    def pips(self) -> int:
        """Points travelled (R8 for helmfrid/talisman)."""
        return sum(s.dst - s.src for s in self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        return f"<Play {self.text()}>"

    def __str__(self) -> str:
        return self.text()
