"""A backgammon game of a ``.mat`` record, frame by frame, for the record viewer: the
position after every action (a roll and its move, a double, a take, a drop, the win),
with the cube, drawn through the family's board (``games.backgammon.BackgammonBoard``)
as :mod:`web.picture` draws it.

Pure Python on the backgammon engine (no Django); the view words the captions and each
frame's action, by its kind (``DOUBLE``, ``TAKE``, ``DROP``, ``WIN``; a roll is shown as
the record writes it). A move is
carried out as written (``backgammon.replay.apply_move_text``); a move written without the
hit its path makes is completed as the verification does (the legal play that leaves the
mover's checkers where the written one does), so the viewer shows what was verified.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from backgammon.cube import CubeState
from backgammon.errors import BackgammonError
from backgammon.mat import DOUBLE, DROP, ROLL, TAKE, WIN, Action
from backgammon.movegen import legal_results
from backgammon.position import START, Position
from backgammon.replay import apply_move_text, read_record
from games.backgammon import BackgammonBoardState

__all__ = [
    "DOUBLE",
    "DROP",
    "TAKE",
    "WIN",
    "Action",
    "BgFrame",
    "BgReplayedGame",
    "NotReplayableError",
    "replay_mat_game",
]


class NotReplayableError(ValueError):
    """The record does not read, has no such game, or a move cannot be carried out."""


@dataclass(frozen=True)
class BgFrame:
    """The board after ``action`` (the opening when None)."""

    index: int
    state: BackgammonBoardState
    action: Action | None = None


@dataclass(frozen=True)
class BgReplayedGame:
    number: int
    games_in_record: int
    players: tuple[str, str]
    length: int
    frames: list[BgFrame] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return len(self.frames) - 1


def _played(pos: Position, action: Action) -> Position:
    played = apply_move_text(pos, action.moves)
    if action.dice is None:
        return played
    legal = legal_results(pos, *action.dice)
    if played in legal:
        return played
    same = sorted((r for r in legal if r.me == played.me), key=lambda r: r.position_id())
    return same[0] if same else played  # an illegal move stands as played


def replay_mat_game(text: str, number: int) -> BgReplayedGame:
    """Replay game ``number`` of a backgammon record action by action (``.mat`` of any
    program's dialect, gnubg's ``.sgf``, the project's own form: ``read_record``)."""
    try:
        record = read_record(text)
    except BackgammonError as exc:
        raise NotReplayableError(str(exc)) from None
    if not 1 <= number <= len(record.games):
        raise NotReplayableError(f"the record has no game {number}")
    game = record.games[number - 1]
    boards: list[tuple[int, ...]] = [START.me, START.opp]
    cube = CubeState()
    frames = [BgFrame(0, BackgammonBoardState((boards[0], boards[1]), cube))]
    for action in game.actions:
        dice: tuple[int, ...] = ()
        mover: int | None = None
        if action.kind == ROLL:
            player = action.player
            try:
                played = _played(Position(boards[player], boards[1 - player]), action)
            except BackgammonError as exc:
                raise NotReplayableError(str(exc)) from None
            boards[player], boards[1 - player] = played.me, played.opp
            dice = action.dice or ()
            mover = player
        elif action.kind == DOUBLE:
            cube = CubeState(cube.value, cube.owner, cube.crawford, action.player)
        elif action.kind == TAKE:
            cube = CubeState(cube.value * 2, action.player, cube.crawford, None)
        elif action.kind not in (DROP, WIN):
            continue
        state = BackgammonBoardState((boards[0], boards[1]), cube, dice, mover)
        frames.append(BgFrame(len(frames), state, action))
    return BgReplayedGame(
        number=number,
        games_in_record=len(record.games),
        players=record.players,
        length=record.length,
        frames=frames,
    )
