"""The gnubg Match ID (gnubg manual, "A technical description of the Match ID").

A 66-bit key, each field a little-endian integer at its bit offset, packed into 9 bytes
(least significant bits first) and written as 12 base64 characters:

====== ===== =====================================================================
bits   width field
====== ===== =====================================================================
1–4    4     log2 of the cube value (a 1-cube is 0; up to 2**15)
5–6    2     cube owner: 0 player 0, 1 player 1, 3 centred
7      1     player on roll (or who rolled)
8      1     Crawford game
9–11   3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
12     1     whose turn it is to decide (differs from bit 7 after a double or resignation)
13     1     a double is offered
14–15  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16–18  3     die 1 (0 not rolled)
19–21  3     die 2
22–36  15    match length (0 money game)
37–51  15    player 0's score
52–66  15    player 1's score
67     1     newer gnubg versions: the Jacoby rule setting (kept as read, see below)
====== ===== =====================================================================

The manual documents 66 bits; gnubg 1.x also writes a 67th bit about the Jacoby rule
(money play only). It is carried through unchanged as ``jacoby_bit`` so that an ID read
is written back identically.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from backgammon.errors import PositionError

__all__ = ["GameState", "MatchState"]

_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("jacoby_bit", 66, 1),
)


class GameState(IntEnum):
    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


CENTRED = 3


@dataclass(frozen=True, slots=True)
class MatchState:
    """What a Match ID holds. ``cube_owner`` is 0, 1 or ``None`` (centred); ``dice`` is
    ``(0, 0)`` before the roll."""

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    jacoby_bit: int = 0

    def __post_init__(self) -> None:
        cube = self.cube
        if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
            raise PositionError(f"a cube value is a power of two up to 32768, not {cube}")
        if self.cube_owner not in (None, 0, 1) or self.on_roll not in (0, 1):
            raise PositionError("players are 0 and 1")
        if self.turn not in (0, 1):
            raise PositionError("players are 0 and 1")
        if self.jacoby_bit not in (0, 1):
            raise PositionError("the Jacoby bit is 0 or 1")
        if not 0 <= self.resignation <= 3:
            raise PositionError("a resignation is of 1, 2 or 3 times the cube")
        if any(not 0 <= d <= 6 for d in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            raise PositionError(f"not a roll: {self.dice}")
        limit = (1 << 15) - 1
        if not 0 <= self.match_length <= limit or any(not 0 <= s <= limit for s in self.score):
            raise PositionError("match length and scores are 0–32767")

    def key(self) -> bytes:
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": CENTRED if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": self.resignation,
            "die1": self.dice[0],
            "die2": self.dice[1],
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "jacoby_bit": self.jacoby_bit,
        }
        value = 0
        for name, offset, _width in _FIELDS:
            value |= values[name] << offset
        return value.to_bytes(9, "little")

    def match_id(self) -> str:
        return base64.b64encode(self.key()).decode("ascii")

    @classmethod
    def from_id(cls, match_id: str) -> MatchState:
        text = match_id.strip()
        if len(text) != 12:
            raise PositionError(f"a Match ID has 12 characters, not {len(text)}: {text!r}")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise PositionError(f"not a Match ID: {text!r}") from exc
        value = int.from_bytes(raw, "little")
        f = {name: value >> offset & ((1 << width) - 1) for name, offset, width in _FIELDS}
        if f["cube_owner"] == 2:
            raise PositionError("cube owner 2 does not exist (0, 1 or 3 centred)")
        try:
            state = GameState(f["game_state"])
        except ValueError as exc:
            raise PositionError(f"game state {f['game_state']} does not exist") from exc
        return cls(
            match_length=f["match_length"],
            score=(f["score0"], f["score1"]),
            cube=1 << f["cube_log2"],
            cube_owner=None if f["cube_owner"] == CENTRED else f["cube_owner"],
            on_roll=f["on_roll"],
            turn=f["turn"],
            crawford=bool(f["crawford"]),
            game_state=state,
            double_offered=bool(f["double_offered"]),
            resignation=f["resignation"],
            dice=(f["die1"], f["die2"]),
            jacoby_bit=f["jacoby_bit"],
        )

    def text(self) -> str:
        return self.match_id()

    @classmethod
    def from_text(cls, text: str) -> MatchState:
        return cls.from_id(text)
