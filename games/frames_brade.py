"""A bräde game of a record, frame by frame, for the record viewer: :func:`replay_game`
replays a record up to one game and pairs every turn line with the position after it (the
engine's replay yields the positions, ``engine.replay.GameReport.positions``); each
:class:`Frame` gives its ``state`` for bräde's family board (``games.brade.BradeBoard``),
which ``web.picture`` draws on ``web.board``'s board. The view words the captions.

Pure Python on the engine (no Django).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.position import Position
from engine.record import GameRecord, MatchRecord, TurnRecord, read_record, steps_text
from engine.replay import replay
from engine.types import BAR, Outcome, Side
from games.brade import BradeBoardState

__all__ = [
    "Frame",
    "NotReplayableError",
    "Position",
    "ReplayedGame",
    "TurnRecord",
    "checkers_of",
    "play_of",
    "replay_game",
]


def play_of(turn: TurnRecord) -> str:
    """A turn's play as the record writes it (``bar/4 1/7*``, ``-`` for none)."""
    return steps_text(turn.steps)


def checkers_of(position: Position, side: Side) -> tuple[list[tuple[int, int]], int, int]:
    """Where ``side``'s checkers stand: (point, count) for each point it holds, 1 to 24 in
    its own numbering, how many are on the bar and how many are borne off."""
    points = position.points(side)
    return (
        [(p, points[p]) for p in range(1, 25) if points[p]],
        points[BAR],
        position.borne_off(side),
    )


class NotReplayableError(ValueError):
    """The record cannot be shown: it does not read, or the game is not there or bad."""


@dataclass(frozen=True)
class Frame:
    """One step of the viewer: the position after ``turn`` (the opening when None)."""

    index: int
    position: Position
    turn: TurnRecord | None = None

    @property
    def state(self) -> BradeBoardState:
        """The frame as the family's board drawing takes it (``games.brade.BradeBoard``)."""
        return BradeBoardState(self.position, self.turn)


@dataclass(frozen=True)
class ReplayedGame:
    """A game of a record, replayed: its opening, outcome and one frame per turn line."""

    number: int
    games_in_record: int
    tags: dict[str, str]
    record: GameRecord
    starter: Side
    outcome: Outcome | None
    frames: list[Frame] = field(default_factory=list)

    @property
    def turns(self) -> int:
        """Turn lines of the game (forfeited rolls and a resignation included)."""
        return len(self.frames) - 1


def replay_game(text: str, number: int) -> ReplayedGame:
    """Replay ``text`` up to game ``number`` and return that game frame by frame.

    Only the games up to ``number`` are replayed (the earlier ones decide who starts
    it, R2). Raises :class:`NotReplayableError` when the record does not read, has no
    such game, or the replay fails before the game is over.
    """
    try:
        record = read_record(text)
    except EngineError as exc:
        raise NotReplayableError(str(exc)) from None
    if not 1 <= number <= len(record.games):
        raise NotReplayableError(f"the record has no game {number}")
    upto = MatchRecord(tags=record.tags, games=record.games[:number])
    report = replay(upto)
    if len(report.games) < number:
        raise NotReplayableError(str(report.error) if report.error else f"game {number} is bad")
    game_report = report.games[number - 1]
    game_record = record.games[number - 1]
    positions = game_report.positions
    frames = [Frame(0, positions[0])]
    at = 0
    for turn in game_record.turns:
        if not turn.resigns:  # a resignation leaves the position as it was
            at += 1
        frames.append(Frame(len(frames), positions[at], turn))
    return ReplayedGame(
        number=number,
        games_in_record=len(record.games),
        tags=dict(record.tags),
        record=game_record,
        starter=game_report.starter,
        outcome=game_report.outcome,
        frames=frames,
    )
