"""Backgammon recorded live (``games.live``): ``backgammon.movegen`` checks every play,
``backgammon.cube`` every cube action (seed 002), as the replay of a ``.mat`` would.

- Every game opens with the opening roll: each player throws one die (player 0's die
  first); equal dice are thrown again; the higher die starts and plays the two dice as
  its first roll. The site can throw it.
- The player on roll may double before rolling (not in the Crawford game, only the
  cube's owner redoubles); the opponent takes (and owns the cube at twice the value) or
  drops (the doubler wins the cube's value before the double).
- A play is ``(from, to)`` steps in the mover's own numbering as ``.mat`` writes them
  (24–1, 25 the bar, 0 off); any steps that leave one of the roll's legal positions are
  the play (gnubg's rule: legal plays are distinct resulting positions), written in the
  record as the generator's steps.
- An illegal play may stand as played when the opponent accepts it ("Ugyldige slag og
  ulovlige ryk": the opponent accepts it, or has the whole roll played again). What may
  stand is what the replay of an uploaded ``.mat`` lets stand (``backgammon.replay``): a
  play that ``apply_move_text`` can carry out on the board — a wrong count, a die not
  played, a checker moved backwards or borne off too early, more steps than dice. What
  cannot be carried out at all is never acceptable, as it is an error in a replayed
  record: a checker moved from a point (or the bar) where the mover has none, a point
  held by two or more opposing checkers, a move from off or to the bar, a point that
  does not exist. An illegal play is refused first with its reason
  (``backgammon.illegal``) and ``acceptable``; posted again with ``accept_illegal`` it
  is carried out step by step as written (a single opposing checker where a step lands
  is hit) and written so in the record, whose replay then reports it as a warning on its
  line — the warning :func:`_checked_report` gives too.
- The player on roll may resign, conceding 1, 2 or 3 times the cube (``resign_value``).
- The game's record is an ordinary ``.mat`` game (``backgammon.mat``): its score line,
  the two columns, ``Wins N points [and the match]``. In a clocked match every row is
  followed by a clock line, both players' remaining times after it —
  ``; [%clk 0h01m52s 0h01m40s]`` — the times the scoresheet's clock left when the row's
  last turn was confirmed (and a ``Wins`` line by one when a resignation ended the game).
  Why a line of its own in that spelling (a ``.mat`` row has no room for a comment per
  move; gnubg reads PGN's ``0:01:52`` in a comment line as a roll): ``backgammon.mat``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from backgammon.cube import CubeState, MatchScore, Win, win_kind
from backgammon.dialects import UNNAMED
from backgammon.errors import BackgammonError
from backgammon.illegal import illegal_reason
from backgammon.mat import (
    DOUBLE,
    DROP,
    ROLL,
    TAKE,
    WIN,
    Action,
    MatGame,
    MatRecord,
    mat_action_lines,
    write_mat,
)
from backgammon.match import Ending, game_points
from backgammon.movegen import legal_plays
from backgammon.position import BAR, CHECKERS, OFF, START, Position
from backgammon.replay import Warning_, apply_move_text, illegal_stands
from games.backgammon import BACKGAMMON_FAMILY, BackgammonBoardState
from games.live import (
    TWO_DICE,
    LiveAction,
    LiveDone,
    LiveGameBase,
    LiveOutcome,
    LiveRefused,
    LiveSetup,
    LiveView,
    Phase,
    Recorder,
    RecordHeader,
    Roller,
    dice_key,
    opening_pair,
    picture_json,
    register_recorder,
)
from games.results import ResultValue

__all__ = ["BACKGAMMON_RECORDER", "BackgammonLive"]

_CONCEDED = {1: "single", 2: "gammon", 3: "backgammon"}
_HOW = {Win.SINGLE: Ending.SINGLE, Win.GAMMON: Ending.GAMMON, Win.BACKGAMMON: Ending.BACKGAMMON}


def _point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _refused(err: BackgammonError) -> LiveRefused:
    return LiveRefused("illegal_play", err.message, msg=err.msg)


class BackgammonLive(LiveGameBase):
    """One backgammon game being recorded (``games.live.LiveGame``)."""

    START_FIRST = (
        "live.opening_first",
        "The game opens with the opening roll (one die each): send 'start' first.",
    )

    def __init__(self, setup: LiveSetup) -> None:
        super().__init__(setup)
        self._boards: list[tuple[int, ...]] = [START.me, START.opp]
        self._cube = CubeState(crawford=setup.crawford)
        self._on_roll: int | None = None
        self._starter: int | None = None
        self._opening: tuple[int, int] | None = None
        self._last: tuple[int, tuple[int, int]] | None = None  # who played which dice
        self._actions: list[Action] = []
        self._illegal: list[int] = []  # the accepted illegal plays, by index in _actions
        self._result: ResultValue | None = None
        self._points = 0
        self._clocked = 0  # the actions whose remaining times are noted (``clock_note``)

    # --- what the game shows ------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self._result is not None:
            return "over"
        if self._on_roll is None:
            return "start"
        if self._cube.offered_by is not None:
            return "cube"
        return "move" if self._dice is not None else "roll"

    @property
    def to_move(self) -> int | None:
        """Who acts next: the player on roll, or the one answering a double."""
        if self._on_roll is None or self._result is not None:
            return self._on_roll if self._result is None else None
        if self._cube.offered_by is not None:
            return 1 - self._cube.offered_by
        return self._on_roll

    @property
    def starter(self) -> int | None:
        return self._starter

    @property
    def outcome(self) -> LiveOutcome | None:
        result = self._result
        if result is None:
            return None
        how = f"{result.outcome} ({result.conceded})" if result.conceded else result.outcome
        words = f"{self.setup.names[result.winner]} wins: {how}, cube {result.cube}"
        return LiveOutcome(result, words, self._points)

    @property
    def result_value(self) -> ResultValue | None:
        """The game's result once it is over."""
        return self._result

    @property
    def points(self) -> int:
        """What the finished game is worth in the match (0 before it ends)."""
        return self._points

    def _position(self, player: int) -> Position:
        return Position.trusted(self._boards[player], self._boards[1 - player])

    def legal(self) -> dict[str, list[list[list[int]]]] | None:
        if self._on_roll is None or self.phase not in ("roll", "move"):
            return None
        pos = self._position(self._on_roll)
        rolls: list[tuple[int, ...]] = [self._dice] if self._dice is not None else list(TWO_DICE)
        return {
            dice_key(dice): [
                [[s.src, s.dst] for s in play.steps] for play in legal_plays(pos, dice[0], dice[1])
            ]
            for dice in rolls
        }

    def view(self) -> LiveView:
        dice: tuple[int, ...] = ()
        mover = None
        if self._last is not None:
            mover, dice = self._last
        state = BackgammonBoardState(
            (self._boards[0], self._boards[1]), self._cube, dice=dice, mover=mover
        )
        picture = BACKGAMMON_FAMILY.board.picture(state, view=0)
        cube = self._cube
        return LiveView(
            phase=self.phase,
            to_move=self.to_move,
            dice=self._dice if self._dice is not None else (dice or None),
            legal=self.legal(),
            board=picture_json(picture, self.to_move),
            cube={
                "value": cube.value,
                "owner": cube.owner,
                "crawford": cube.crawford,
                "offered_by": cube.offered_by,
                "may_double": self.phase == "roll"
                and self._on_roll is not None
                and self._dice is None
                and cube.may_double(self._on_roll),
            },
            outcome=self.outcome,
            extra={"opening": None if self._opening is None else list(self._opening)},
        )

    # --- actions --------------------------------------------------------------------------

    def _over(self) -> LiveRefused:
        return LiveRefused("live.over", "The game is over; no more turns may be played.")

    def _act(self, kind: str, action: LiveAction, roll: Roller | None) -> LiveDone:
        if self.phase == "cube":
            if kind == "take":
                return self._take()
            if kind == "drop":
                return self._drop()
            raise LiveRefused(
                "live.answer_double", "A double awaits an answer: take or drop it first."
            )
        if kind in ("take", "drop"):
            raise _refused(
                _cube_error("bg.cube.take_none" if kind == "take" else "bg.cube.drop_none")
            )
        if kind == "double":
            return self._double()
        if kind == "resign":
            return self._resign(action)
        if kind == "roll":
            return self._roll(roll)
        if kind == "play":
            return self._play(action)
        raise LiveRefused("live.action", "Unknown action %(action)s.", action=kind)

    def _redo(self, done: LiveDone) -> bool:
        """A stored play is carried out without generating the legal plays again (an
        accepted illegal one as it was played)."""
        if done.action == "play" and self._on_roll is not None:
            assert done.dice is not None
            self._carry_out((done.dice[0], done.dice[1]), done.steps, illegal=done.illegal)
            return True
        return False

    def _start(self, action: LiveAction, roll: Roller | None) -> LiveDone:
        pair = opening_pair(
            action.dice,
            roll,
            invalid=(
                "live.opening_dice",
                "The opening roll is two dice, player 1's die first, each 1–6.",
            ),
            equal=(
                "live.opening_equal",
                "The opening dice are equal; throw them again (the Danish federation's rules: "
                "the higher die starts).",
            ),
        )
        if pair is None:
            raise LiveRefused(
                "live.opening_needed",
                "Enter the opening roll: each player's die, player 1's first.",
            )
        first, second = pair
        starter = 0 if first > second else 1
        self._opening = (first, second)
        self._starter = self._on_roll = starter
        self._dice = (max(first, second), min(first, second))
        return LiveDone(None, "start", (first, second), (), f"Opening roll {first}-{second}")

    def _double(self) -> LiveDone:
        player = self._on_roll
        assert player is not None
        if self._dice is not None:
            raise _refused(_cube_error("bg.cube.after_roll"))
        try:
            self._cube = self._cube.double(player, on_roll=player, rolled=False)
        except BackgammonError as err:
            raise _refused(err) from None
        act = Action(player, DOUBLE, value=self._cube.value * 2)
        self._actions.append(act)
        return LiveDone(player, "double", None, (), act.text().strip())

    def _take(self) -> LiveDone:
        player = self.to_move
        assert player is not None
        self._cube = self._cube.take(player)
        act = Action(player, TAKE)
        self._actions.append(act)
        return LiveDone(player, "take", None, (), act.text().strip())

    def _drop(self) -> LiveDone:
        player = self.to_move
        assert player is not None
        value = self._cube.drop(player)
        self._actions.append(Action(player, DROP))
        self._end(
            ResultValue(winner=1 - player, outcome=Ending.DROP.value, cube=value),
            game_points(Ending.DROP, value),
        )
        return LiveDone(player, "drop", None, (), "Drops")

    def _resign(self, action: LiveAction) -> LiveDone:
        player = self._on_roll
        assert player is not None
        value = action.resign_value
        if value not in _CONCEDED:
            raise LiveRefused(
                "live.resign_value",
                "A resignation concedes a single game (1), a gammon (2) or a backgammon (3).",
            )
        assert value is not None
        cube = self._cube.value
        self._dice = None
        self._end(
            ResultValue(
                winner=1 - player,
                outcome=Ending.RESIGN.value,
                cube=cube,
                conceded=_CONCEDED[value],
            ),
            value * cube,
        )
        return LiveDone(
            player,
            "resign",
            None,
            (),
            f"Resigns ({_CONCEDED[value]})",
            resign_value=value,
        )

    def _roll(self, roll: Roller | None) -> LiveDone:
        player = self._on_roll
        assert player is not None
        self._roll_check(roll)
        assert roll is not None
        a, b = roll(), roll()
        self._dice = (max(a, b), min(a, b))
        return LiveDone(player, "roll", self._dice, (), f"{self._dice[0]}{self._dice[1]}:")

    def _play(self, action: LiveAction) -> LiveDone:
        player = self._on_roll
        assert player is not None
        dice = self._play_dice(action, "-".join(str(d) for d in self._dice or ()))
        if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            raise LiveRefused("live.bg_dice", "A backgammon roll is two dice of 1–6.")
        high, low = max(dice), min(dice)
        pos = self._position(player)
        tokens = tuple(f"{_point(src)}/{_point(dst)}" for src, dst in action.steps)
        try:
            played = apply_move_text(pos, tokens)
        except BackgammonError as err:  # it cannot be carried out: never acceptable
            raise _refused(err) from None
        plays = legal_plays(pos, high, low)
        chosen = next((p for p in plays if p.result == played), None)
        if chosen is None:  # the same checkers moved, written without the hit path
            chosen = next((p for p in plays if p.result.me == played.me), None)
        if chosen is None:
            if not action.accept_illegal:
                reason = illegal_reason(pos, (high, low), action.steps)
                raise LiveRefused("live.bg_illegal", "", msg=reason, acceptable=True)
            # the opponent accepted it: it stands as played (module doc)
            text = self._carry_out((high, low), action.steps, illegal=True)
            return LiveDone(player, "play", (high, low), action.steps, text, illegal=True)
        steps = tuple((s.src, s.dst) for s in chosen.steps)
        text = self._carry_out((high, low), steps)
        return LiveDone(player, "play", (high, low), steps, text)

    def _carry_out(
        self, dice: tuple[int, int], steps: tuple[tuple[int, int], ...], *, illegal: bool = False
    ) -> str:
        """Move the checkers of a play known to be legal, or an ``illegal`` one the
        opponent accepted that can be carried out (checked when it was posted, or replayed
        from the stored turns), and end the game when the last one is borne off; the
        play's words (``31: 8/5 6/5``, ``*`` after a hit)."""
        player = self._on_roll
        assert player is not None
        me = list(self._boards[player])
        opp = list(self._boards[1 - player])
        moves: list[str] = []
        for src, dst in steps:
            hit = dst != OFF and opp[25 - dst] == 1
            if hit:
                opp[25 - dst] = 0
                opp[BAR] += 1
            me[src] -= 1
            me[dst] += 1
            moves.append(f"{_point(src)}/{_point(dst)}{'*' if hit else ''}")
        high, low = max(dice), min(dice)
        if illegal:
            self._illegal.append(len(self._actions))
        self._actions.append(Action(player, ROLL, dice=(high, low), moves=tuple(moves)))
        after = Position.trusted(tuple(me), tuple(opp))
        self._boards[player] = after.me
        self._boards[1 - player] = after.opp
        self._last = (player, (high, low))
        self._dice = None
        text = f"{high}{low}: {' '.join(moves)}".rstrip()
        if after.me[OFF] == CHECKERS:
            kind = win_kind(after.me, after.opp)
            ending = _HOW[kind]
            self._end(
                ResultValue(winner=player, outcome=ending.value, cube=self._cube.value),
                game_points(ending, self._cube.value),
            )
        else:
            self._on_roll = 1 - player
        return text

    def _end(self, result: ResultValue, points: int) -> None:
        self._result = result
        self._points = points
        reaches = self.setup.score[result.winner] + points >= self.setup.length
        self._actions.append(Action(result.winner, WIN, value=points, match=reaches))

    # --- the record -----------------------------------------------------------------------

    def clock_note(self, remaining: Sequence[int] | None) -> None:
        """The actions the last turn wrote (a roll, a cube action, the ``Wins`` that ended
        the game) carry both players' remaining times after it; a turn that wrote none (the
        opening roll, the site's roll) leaves the actions as they are."""
        if remaining is None or len(self._actions) == self._clocked:
            return
        clock = (int(remaining[0]), int(remaining[1]))
        for index in range(self._clocked, len(self._actions)):
            self._actions[index] = replace(self._actions[index], clock=clock)
        self._clocked = len(self._actions)

    def record_game(self) -> MatGame:
        return MatGame(self.setup.number, self.setup.score, tuple(self._actions))

    @property
    def illegal_actions(self) -> tuple[int, ...]:
        """The accepted illegal plays, by their index in the record's game's actions."""
        return tuple(self._illegal)


def _cube_error(code: str) -> BackgammonError:
    from backgammon.errors import CubeError
    from backgammon.messages import bg_msg

    return CubeError(bg_msg(code))


def _record(setup: LiveSetup, games: Sequence[MatGame], tags: Mapping[str, str]) -> MatRecord:
    return MatRecord(
        length=setup.length,
        players=setup.names,
        games=tuple(games),
        headers=tuple(tags.items()),
    )


def _record_text(setup: LiveSetup, games: list[Any], tags: Mapping[str, str]) -> str:
    """The ``.mat`` record (gnubg's layout) of the games, ``tags`` as its headers."""
    return write_mat(_record(setup, games, tags))


def _warnings(games: Sequence[BackgammonLive], tags: Mapping[str, str]) -> list[dict[str, object]]:
    """The accepted illegal plays as the replay of the record warns of them: each on the
    line ``write_mat`` writes it on, with the replay's own message, in the file's order."""
    written = [game.record_game() for game in games]
    lines = mat_action_lines(_record(games[-1].setup, written, tags))
    found = [
        Warning_(illegal_stands(mat.actions[index]), mat.number, lines[k][index])
        for k, (game, mat) in enumerate(zip(games, written, strict=True))
        for index in game.illegal_actions
    ]
    found.sort(key=lambda warning: warning.line)
    return [warning.to_dict(coded=True) for warning in found]


def _record_tags(header: RecordHeader) -> dict[str, str]:
    """The ``.mat`` record's headers: the event and who transcribed it (the players and
    the length are the record's own lines)."""
    return {"Event": header.event, "Transcriber": header.transcriber}


def _checked_report(games: Sequence[BackgammonLive], tags: Mapping[str, str]) -> dict[str, Any]:
    """The report ``backgammon.replay`` gives the ``.mat`` record of ``games`` (``tags`` its
    headers): each game's winner, points, cube, Crawford game and ending, the score after
    it, the match's winner once one reaches the length, and the illegal plays the
    opponent accepted as its warnings."""
    setup = games[-1].setup
    names = setup.names
    entries: list[dict[str, object]] = []
    # counted as the replay counts (the Crawford game known once a player reaches
    # length - 1, also when it is the next game, not recorded yet)
    match = MatchScore(setup.length, games[0].setup.score, games[0].setup.number - 1)
    for game in games:
        result = game.result_value
        if result is None:
            raise ValueError("a game that is not over has no report")
        match = match.add_game(result.winner, game.points)
        entries.append(
            {
                "game": game.setup.number,
                "winner": names[result.winner],
                "points": game.points,
                "cube": result.cube,
                "crawford": game.setup.crawford,
                "how": result.outcome,
                "score_after": list(match.score),
            }
        )
    score = match.score
    crawford_game = match.crawford_game
    return {
        "valid": True,
        "error": None,
        # the reader's name for the layout ``write_mat`` writes (gnubg's, no program line)
        "program": UNNAMED,
        "format": "mat",
        "money": False,
        "jacoby": False,
        "length": setup.length,
        "players": list(names),
        "score": {names[0]: score[0], names[1]: score[1]},
        "winner": None if match.winner is None else names[match.winner],
        "crawford_game": crawford_game,
        "games": entries,
        "warnings": _warnings(games, tags),
        "errors": [],
    }


# Backgammon's live recording (``games.live.LiveRecorder``).
BACKGAMMON_RECORDER = Recorder(
    "backgammon",
    BackgammonLive,
    _record_text,
    _record_tags,
    _checked_report,
    accepts_illegal=True,  # seed 002, "Ugyldige slag og ulovlige ryk"
)
register_recorder(BACKGAMMON_RECORDER)
