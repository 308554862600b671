"""Bräde recorded live (``games.live``): ``engine.game.Game`` checks every turn, for the
tournament's rule set and add-ons, as a replay of the record would.

- Who starts (R2): game 1 opens with the tek — each player's die, White's first, the
  lower starts; equal dice are thrown again and not recorded — or, where the players
  decide it otherwise, the starter named; the site can throw the tek itself. Every
  later game is started by the loser of the previous one (S5): it opens with the
  starter's roll.
- A turn is a roll of two dice, or one die where R13 allows (or requires) it; the
  engine refuses a roll R13 forbids with its own message. The steps are ``(from, to)``
  in the mover's own numbering (R1: 1–24, 0 the bar, 25 off), as the record writes them.
- Resigning (R14, *uppgivet*): the side to move, before rolling, and only while R14
  allows it; the engine says why not.
- The game's record is an ordinary bräde record (game-record.md): ``Tek``/``Starter``,
  the turn lines, ``Result``. In a clocked match each turn line carries the mover's
  remaining time after it as PGN's ``[%clk 0:01:52]``, in the line's comment
  (``engine.record``): the time the scoresheet's clock left when the turn was confirmed.

Player 0 is White, player 1 Black.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import EngineError
from engine.game import Game
from engine.messages import msg
from engine.movegen import legal_plays
from engine.play import Play
from engine.position import Position
from engine.record import GameRecord, MatchRecord, RecordStep, TurnRecord, turn_text, write_text
from engine.replay import GameReport
from engine.rules import RuleSet
from engine.types import Outcome, Side
from games.brade import BRADE_FAMILY, BradeBoardState, result_of
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
from games.seats import seat_of, side_of
from scoring.match import match_state
from scoring.scales import score_game

__all__ = ["BRADE_RECORDER", "BradeLive", "picture_json"]


def _play_steps(play: Play) -> list[list[int]]:
    return [[step.src, step.dst] for step in play.steps]


def _refused(err: EngineError) -> LiveRefused:
    return LiveRefused("illegal_play", err.msg.text(), msg=err.msg)


class BradeLive(LiveGameBase):
    """One bräde game being recorded (``games.live.LiveGame``)."""

    START_FIRST = (
        "live.start_first",
        "The game opens with the tek (or the starter named): send 'start' first.",
    )

    def __init__(self, setup: LiveSetup) -> None:
        super().__init__(setup)
        self.rules = RuleSet.from_names(setup.rules, setup.addons)
        self._game: Game | None = None
        self._tek: tuple[int, int] | None = None
        self._chosen: Side | None = None  # a starter the players named (no tek)
        self._turns: list[TurnRecord] = []
        self._last: TurnRecord | None = None
        self._outcome: Outcome | None = None
        self._clocked = 0  # the turns whose remaining time is noted (``clock_note``)
        if setup.starter is not None:
            self._game = Game(self.rules, starter=side_of(setup.starter))

    # --- what the game shows ------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self._outcome is not None:
            return "over"
        if self._game is None:
            return "start"
        return "move" if self._dice is not None else "roll"

    @property
    def to_move(self) -> int | None:
        if self._game is None:
            return None
        return seat_of(self._game.to_move)

    @property
    def starter(self) -> int | None:
        if self._game is None:
            return None
        return seat_of(self._game.start.to_move)

    @property
    def outcome(self) -> LiveOutcome | None:
        if self._outcome is None:
            return None
        out = self._outcome
        return LiveOutcome(result_of(out), out.text(), score_game(self.setup.scale, out).points)

    def legal(self) -> dict[str, list[list[list[int]]]] | None:
        game = self._game
        if game is None or self._outcome is not None:
            return None
        if self._dice is not None:
            rolls: list[tuple[int, ...]] = [self._dice]
        else:
            single = game.single_die()  # R13
            rolls = [] if single == "required" else list(TWO_DICE)
            if single != "forbidden":
                rolls += [(d,) for d in range(6, 0, -1)]
        return {
            dice_key(dice): [_play_steps(p) for p in legal_plays(game.position, dice, self.rules)]
            for dice in rolls
        }

    def view(self) -> LiveView:
        game = self._game
        position = game.position if game is not None else _opening()
        picture = BRADE_FAMILY.board.picture(BradeBoardState(position, self._last), view=0)
        return LiveView(
            phase=self.phase,
            to_move=self.to_move,
            dice=self._dice
            if self._dice is not None
            else (self._last.dice if self._last is not None else None),
            legal=self.legal(),
            board=picture_json(picture, self.to_move),
            cube=None,
            outcome=self.outcome,
            extra={
                "single_die": None if game is None else game.single_die(),
                "can_resign": game is not None
                and self._outcome is None
                and self._dice is None
                and game.can_resign(),
                "tek": None if self._tek is None else list(self._tek),
            },
        )

    # --- actions --------------------------------------------------------------------------

    def _over(self) -> LiveRefused:
        assert self._outcome is not None
        return _refused_msg("game.over", outcome=self._outcome.text())

    def _act(self, kind: str, action: LiveAction, roll: Roller | None) -> LiveDone:
        if kind == "resign":
            return self._resign()
        if kind == "roll":
            return self._roll(action, roll)
        if kind == "play":
            return self._play(action)
        raise LiveRefused(
            "live.no_cube",
            "Bräde has no doubling cube: '%(action)s' is not an action of bräde.",
            action=kind,
        )

    def _start(self, action: LiveAction, roll: Roller | None) -> LiveDone:
        if action.dice is None and action.starter is not None:
            if action.starter not in (0, 1):
                raise LiveRefused("live.starter", "The starter is player 0 (White) or 1 (Black).")
            self._chosen = side_of(action.starter)
            self._game = Game(self.rules, starter=self._chosen)
            return LiveDone(
                None, "start", None, (), f"Starter: {self._chosen.word}", starter=action.starter
            )
        tek = opening_pair(  # R2: ties are thrown again and not recorded
            action.dice,
            roll,
            invalid=("live.tek_dice", "The tek is two dice, White's die first, each 1–6."),
            equal=(
                "live.tek_equal",
                "R2: the tek dice are equal; throw them again (a tie is not recorded).",
            ),
        )
        if tek is None:
            raise LiveRefused("live.tek_needed", "Enter the tek (each player's die) or who starts.")
        white, black = tek
        self._tek = (white, black)
        starter = Side.WHITE if white < black else Side.BLACK  # R2: the lower die starts
        self._game = Game(self.rules, starter=starter)
        return LiveDone(None, "start", (white, black), (), f"Tek: {white}-{black}")

    def _resign(self) -> LiveDone:
        game = self._game
        assert game is not None
        if self._dice is not None:
            raise LiveRefused(
                "live.resign_after_roll",
                "R14: a player resigns before rolling; the dice are rolled already.",
            )
        side = game.to_move
        try:
            outcome = game.resign()
        except EngineError as err:
            raise _refused(err) from None
        turn = TurnRecord(side, resigns=True)
        self._turns.append(turn)
        self._outcome = outcome
        return LiveDone(seat_of(side), "resign", None, (), turn_text(turn))

    def _roll(self, action: LiveAction, roll: Roller | None) -> LiveDone:
        game = self._game
        assert game is not None
        self._roll_check(roll)
        assert roll is not None
        single = game.single_die()  # R13
        side = game.to_move
        if action.single and single == "forbidden":
            if self.rules.r13_mode == "none":
                raise _refused_msg("roll.single_never", rules=self.rules.text())
            raise _refused_msg("roll.single_not_here", side=side.word)
        one = single == "required" or action.single
        dice = (roll(),) if one else tuple(sorted((roll(), roll()), reverse=True))
        self._dice = dice
        return LiveDone(seat_of(side), "roll", dice, (), f"{side.value} rolls {_dice(dice)}")

    def _play(self, action: LiveAction) -> LiveDone:
        game = self._game
        assert game is not None
        dice = self._play_dice(action, _dice(self._dice or ()))
        side = game.to_move
        try:
            result = game.play_turn(tuple(dice), action.steps)
        except EngineError as err:
            raise _refused(err) from None
        steps = tuple(RecordStep(s.src, s.dst, s.hit or s.blast) for s in result.play.steps)
        turn = TurnRecord(side, result.dice, steps)
        self._turns.append(turn)
        self._last = turn
        self._dice = None
        self._outcome = result.outcome
        return LiveDone(
            seat_of(side),
            "play",
            result.dice,
            tuple((s.src, s.dst) for s in result.play.steps),
            turn_text(turn),
        )

    # --- the record -----------------------------------------------------------------------

    def clock_note(self, remaining: Sequence[int] | None) -> None:
        """The turn line the last action wrote carries its mover's remaining time; an
        action that wrote none (the tek, the site's roll) leaves the lines as they are."""
        if remaining is None or len(self._turns) == self._clocked:
            return
        turn = self._turns[-1]
        self._turns[-1] = replace(turn, clock=int(remaining[seat_of(turn.side)]))
        self._clocked = len(self._turns)

    def game_report(self) -> GameReport:
        """The game as the engine's replay reports it (``engine.replay.GameReport``)."""
        if self._game is None:
            raise ValueError("the game has not started: it has no report")
        return GameReport(
            number=self.setup.number,
            starter=self._game.start.to_move,
            outcome=self._outcome,
            turns=len(self._turns),
        )

    def record_game(self) -> GameRecord:
        return GameRecord(
            number=self.setup.number,
            tek=self._tek,
            starter=self._chosen,
            turns=tuple(self._turns),
            result=self._outcome,
        )


def _dice(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in dice)


def _refused_msg(code: str, **params: Any) -> LiveRefused:
    message = msg(code, **params)
    return LiveRefused("illegal_play", message.text(), msg=message)


def _opening() -> Position:
    """The set-up (R1) shown before the tek: White to move, no turn played."""
    return Position.initial(Side.WHITE)


def _record_text(setup: LiveSetup, games: list[Any], tags: Mapping[str, str]) -> str:
    """The bräde text record (game-record.md) of the games, with ``tags``."""
    return write_text(MatchRecord(tags=dict(tags), games=tuple(games)))


def _record_tags(header: RecordHeader) -> dict[str, str]:
    """game-record.md's tags: the event and round, the players, the rule set and add-ons,
    the match (length, scale, resignations); an empty one left out."""
    tags = {
        "Event": header.event,
        "Round": header.round,
        "White": header.names[0],
        "Black": header.names[1],
        "Rules": header.rules,
        "Addons": ", ".join(header.addons),
        "Length": str(header.length),
        "Scale": header.scale,
        "Resignations": header.resignations,
    }
    return {key: value for key, value in tags.items() if value}


def _checked_report(games: Sequence[BradeLive], tags: Mapping[str, str]) -> dict[str, Any]:
    """The report the engine's replay gives the record of ``games`` (game-record.md's JSON
    report: valid, the rule set, each game's starter, outcome and turns; the record's
    ``tags`` do not change it). Bräde has no illegal play that stands: every turn was
    legal."""
    setup = games[-1].setup
    reports = [game.game_report() for game in games]
    state = match_state(
        length=setup.length,
        scale=setup.scale,
        policy=setup.resignations,
        outcomes=[r.outcome for r in reports if r.outcome is not None],
    )
    return {
        "valid": True,
        "error": None,
        "rules": setup.rules,  # the rule set; its add-ons are the record's Addons tag
        "games": [r.to_dict() for r in reports],
        "match": dict(state.to_report()),
    }


# Bräde's live recording (``games.live.LiveRecorder``).
BRADE_RECORDER = Recorder("brade", BradeLive, _record_text, _record_tags, _checked_report)
register_recorder(BRADE_RECORDER)
