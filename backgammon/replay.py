"""Replay and verify a ``.mat`` match (seed 002).

Per game: every roll's move is carried out on the board and checked against the legal plays
(:mod:`backgammon.movegen`); cube actions against the cube state (:mod:`backgammon.cube`);
the ``Wins N points`` against the result; the game's score line against the score so far.

- An **illegal move stands** once the opponent has rolled or doubled ("Ugyldige slag og
  ulovlige ryk": accepting an illegal move happens by starting one's own turn): it is
  reported as a warning with its line and the replay goes on from the position as played.
  Decision: a game's last move (nothing follows it) is reported the same way — the record
  shows the game was scored, so the opponent let it stand.
- A move that **cannot be carried out at all** is an error: no checker of the mover on the
  point it leaves, a point that does not exist, a point held by two or more opposing
  checkers (two colours cannot share a point).
- Errors: cube actions out of turn or by the wrong player, a double in the Crawford game, a
  ``Wins N points`` that the play and the cube do not give, a score line that differs from
  the games before it, a game after the match is over. The replay stops at the first error.

A ``Wins`` line that ends a game not finished on the board and not by a drop is read as a
resignation, which must be 1, 2 or 3 times the cube — or, after a ``Losses`` line, as a
match awarded by forfeit when it says exactly the points the winner needed and more than
a resignation could give (Backgammon Galaxy, a player who left: ``is_forfeit``).

The conventions of other programs (docs/game-record.md, "Backgammon records from other
programs"), each read so that it can never let a wrong result through:

- ``54: Cannot Move`` is a roll with no play (as ``54:``): the replay checks that no play
  was possible, like any other play.
- ``33: ???`` is a roll never played: the game must end right after it (nothing but the
  ``Losses``/``Wins`` lines follow); the board does not change.
- ``Losses N point(s)`` (Galaxy) must be in the loser's column and say what the ``Wins``
  line says.
- A ``Wins`` line *capped* at what counts (Galaxy, some FIBS clients): less than the
  game's value is accepted only when the game decides the match and the line says exactly
  the points the winner needed or the match length; the game counts its full value, so
  the score is the same whichever way a program writes it. Any other value is refused.
- A money session (``0 point match``, or any file read with ``money``): no match length,
  no Crawford rule; with the Jacoby rule (``; [Jacoby "On"]`` or the option) a game won
  while the cube is centred counts 1 point and its ``Wins`` line must say 1.
- A resumed match (FIBS): the first game's score line need not be 0–0; the match goes on
  from it. Decision: when one player is at match point at the resumed start, the file
  does not say whether the Crawford game was played; the first game is taken as the
  Crawford game unless it holds a double (then it is post-Crawford, as FIBS and gnubg
  resume such matches).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from backgammon.cube import CubeState, MatchScore, Win, win_kind
from backgammon.dialects import ReadOptions, canonical_program, unsupported_format
from backgammon.errors import (
    BackgammonError,
    CubeError,
    ImpossibleMoveError,
    IncompleteGameError,
    MatchError,
    ResultMismatchError,
    ScoreMismatchError,
    UnsupportedFormatError,
)
from backgammon.mat import (
    DOUBLE,
    DROP,
    LOSS,
    ROLL,
    TAKE,
    WIN,
    Action,
    MatGame,
    MatRecord,
    MatSeen,
    decode_mat,
    read_mat,
)
from backgammon.messages import bg_msg
from backgammon.movegen import legal_results
from backgammon.position import BAR, CHECKERS, OFF, START, Position
from backgammon.record import is_bg_record, read_bg_record
from backgammon.sgf import is_sgf, read_sgf
from engine.messages import Msg

__all__ = [
    "GameReport",
    "MatchReport",
    "Warning_",
    "apply_move_text",
    "illegal_stands",
    "replay_mat",
    "replay_record",
    "replay_text",
]

_STEP_RE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<n>\d)\))?$")


@dataclass(frozen=True, slots=True)
class Warning_:
    """A reported but accepted irregularity (an illegal move that stands)."""

    msg: Msg
    game: int
    line: int

    @property
    def message(self) -> str:
        return self.msg.text()

    def to_dict(self, *, coded: bool = False) -> dict[str, object]:
        """``coded`` adds the message's ``code`` and ``params`` (the stored report)."""
        out: dict[str, object] = {"game": self.game, "line": self.line, "message": self.message}
        if coded:
            out.update(self.msg.to_dict())
        return out


@dataclass(frozen=True, slots=True)
class GameReport:
    number: int
    winner: int | None
    points: int
    cube: int
    crawford: bool
    how: str  # single / gammon / backgammon / drop / resign / forfeit
    score_after: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.number,
            "winner": self.winner,
            "points": self.points,
            "cube": self.cube,
            "crawford": self.crawford,
            "how": self.how,
            "score_after": list(self.score_after),
        }


@dataclass(slots=True)
class MatchReport:
    length: int
    players: tuple[str, str]
    games: list[GameReport] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    errors: list[BackgammonError] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    crawford_game: int | None = None
    program: str = ""
    format: str = ""
    money: bool = False
    jacoby: bool = False

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self, *, coded: bool = False) -> dict[str, object]:
        """The report as JSON (``manage.py replay --json``); ``coded`` adds each error's
        and warning's ``code`` and ``params`` (the stored report)."""
        return {
            "valid": self.valid,
            "program": self.program or None,
            "format": self.format or None,
            "money": self.money,
            "jacoby": self.jacoby,
            "length": self.length if self.length >= 0 else None,
            "players": list(self.players),
            "score": {self.players[0]: self.score[0], self.players[1]: self.score[1]},
            "winner": None if self.winner is None else self.players[self.winner],
            "crawford_game": self.crawford_game,
            "games": [
                {**g.to_dict(), "winner": None if g.winner is None else self.players[g.winner]}
                for g in self.games
            ],
            "warnings": [w.to_dict(coded=coded) for w in self.warnings],
            "errors": [e.to_dict(coded=coded) for e in self.errors],
        }


def _point(text: str) -> int:
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    if len(text) > 2:  # no point has three digits (and int() of thousands raises)
        shown = text if len(text) <= 24 else text[:24] + "…"
        raise ImpossibleMoveError(bg_msg("bg.move.no_point", point=shown))
    value = int(text)
    if not 0 <= value <= BAR:
        raise ImpossibleMoveError(bg_msg("bg.move.no_point", point=value))
    return value


def illegal_stands(action: Action) -> Msg:
    """The warning of an illegal roll ``action`` that stands as played: its dice and its
    moves as the record writes them (a live recording's accepted illegal move says the
    same, ``games.live_backgammon``)."""
    assert action.dice is not None
    d1, d2 = action.dice
    written = " ".join(action.moves) or "(no move)"
    return bg_msg("bg.turn.illegal_stands", dice=f"{d1}{d2}", moves=written)


def apply_move_text(pos: Position, moves: tuple[str, ...]) -> Position:
    """Carry out a written move as played (no check of the dice). Raises
    :class:`ImpossibleMoveError` when it cannot be done at all."""
    return _carry_out(pos, moves)[0]


def _uses_every_die(pos: Position, steps: list[tuple[int, int]], d1: int, d2: int) -> bool:
    """Whether the written steps, in their order, play every die of the roll legally: then
    the play is legal without generating the others (it uses the most dice there are).
    Otherwise the caller compares with the generated plays."""
    orders = [(d1, d1, d1, d1)] if d1 == d2 else [(d1, d2), (d2, d1)]
    for dice in orders:
        if len(steps) != len(dice):
            continue
        me = list(pos.me)
        for (src, dst), d in zip(steps, dice, strict=True):
            if me[BAR] and src != BAR:
                break
            if dst == OFF:
                if any(me[7:26]) or src > d or (src < d and any(me[src + 1 : 7])):
                    break
            elif src - dst != d:
                break
            me[src] -= 1
            me[dst] += 1
        else:
            return True
    return False


def _carry_out(pos: Position, moves: tuple[str, ...]) -> tuple[Position, list[tuple[int, int]]]:
    steps: list[tuple[int, int]] = []
    me = list(pos.me)
    opp = list(pos.opp)
    for token in moves:
        m = _STEP_RE.match(token)
        if m is None:
            raise ImpossibleMoveError(bg_msg("bg.move.bad", move=repr(token)))
        repeat = int(m.group("n") or 1)
        parts = m.group("path").split("/")
        for _ in range(repeat):
            for a, b in itertools.pairwise(parts):
                src = _point(a.rstrip("*"))
                dst = _point(b.rstrip("*"))
                if src == OFF:
                    raise ImpossibleMoveError(bg_msg("bg.move.from_off", move=token))
                if dst == BAR:
                    raise ImpossibleMoveError(bg_msg("bg.move.to_bar", move=token))
                if not me[src]:
                    if src == BAR:
                        raise ImpossibleMoveError(bg_msg("bg.move.no_checker_bar", move=token))
                    raise ImpossibleMoveError(bg_msg("bg.move.no_checker", move=token, point=src))
                if dst != OFF:
                    held = opp[25 - dst]
                    if held >= 2:
                        raise ImpossibleMoveError(
                            bg_msg("bg.move.held", move=token, point=dst, count=held)
                        )
                    if held == 1:
                        opp[25 - dst] = 0
                        opp[BAR] += 1
                me[src] -= 1
                me[dst] += 1
                steps.append((src, dst))
    # every step moved one checker between existing points and hit a lone one at most:
    # the sides stay whole
    return Position.trusted(tuple(me), tuple(opp)), steps


class _GameReplay:
    def __init__(
        self,
        game: MatGame,
        cube: CubeState,
        report: MatchReport,
        match: MatchScore | None = None,
        jacoby: bool = False,
    ) -> None:
        self.game = game
        self.cube = cube
        self.report = report
        self.match = match if match is not None else MatchScore(report.length)
        self.jacoby = jacoby
        self.unplayed: Action | None = None  # a roll written ``???``
        self.loss: Action | None = None  # Galaxy's ``Losses N points``
        self.boards: list[tuple[int, ...]] = [START.me, START.opp]
        self.on_roll: int | None = None  # who rolls next; None before the opening roll
        self.pending_illegal: tuple[int, int, Msg] | None = None  # (player, line, message)
        self.finished_by_play: int | None = None

    def position(self, player: int) -> Position:
        return Position.trusted(self.boards[player], self.boards[1 - player])

    def err(self, exc: BackgammonError, action: Action) -> BackgammonError:
        return exc.located(game=self.game.number, turn=action.turn or None, line=action.line)

    def accept_pending(self) -> None:
        if self.pending_illegal is not None:
            _player, line, message = self.pending_illegal
            self.report.warnings.append(Warning_(message, self.game.number, line))
            self.pending_illegal = None

    def roll(self, action: Action) -> None:
        player = action.player
        if action.unplayed and self.finished_by_play is not None:
            return  # the next roll of a game already over, shown as never played
        if self.finished_by_play is not None:
            raise CubeError(bg_msg("bg.turn.roll_after_end"))
        if self.cube.offered_by is not None:
            raise CubeError(bg_msg("bg.turn.roll_pending"))
        if self.on_roll is not None and player != self.on_roll:
            raise CubeError(bg_msg("bg.turn.roll_out_of_turn"))
        assert action.dice is not None
        d1, d2 = action.dice
        pos = self.position(player)
        self.accept_pending()  # the opponent's illegal move stands: this player rolled
        if action.unplayed:  # rolled, then resigned: the board stays
            self.on_roll = 1 - player
            return
        played, steps = _carry_out(pos, action.moves)
        # a play of every die in the written order is legal as it stands; otherwise compare
        # with the generated plays
        fully_played = _uses_every_die(pos, steps, d1, d2)
        legal = [played] if fully_played else legal_results(pos, d1, d2)
        if played not in legal:
            same_board = sorted(
                (r for r in legal if r.me == played.me), key=lambda r: r.position_id()
            )
            if same_board:  # written without the hit path gnubg would show
                played = same_board[0]
            else:
                self.pending_illegal = (player, action.line, illegal_stands(action))
        self.boards[player] = played.me
        self.boards[1 - player] = played.opp
        self.on_roll = 1 - player
        if played.me[OFF] == CHECKERS:
            self.finished_by_play = player

    def double(self, action: Action) -> None:
        player = action.player
        if self.finished_by_play is not None:
            raise CubeError(bg_msg("bg.turn.double_after_end"))
        if self.on_roll is None:
            raise CubeError(bg_msg("bg.turn.double_before_roll"))
        self.cube = self.cube.double(player, on_roll=self.on_roll, rolled=False)
        if action.value is not None and action.value != self.cube.value * 2:
            raise CubeError(
                bg_msg(
                    "bg.cube.value",
                    value=action.value or 0,
                    cube=self.cube.value,
                    doubled=self.cube.value * 2,
                )
            )
        self.accept_pending()  # doubling accepts the opponent's move too

    def take(self, action: Action) -> None:
        self.cube = self.cube.take(action.player)

    def run(self) -> tuple[int, int, str]:
        """Replay; returns ``(winner, points, how)``."""
        dropped: tuple[int, int] | None = None
        for index, action in enumerate(self.game.actions):
            try:
                if dropped is not None and action.kind not in (WIN, LOSS):
                    raise CubeError(bg_msg("bg.turn.after_drop"))
                if self.unplayed is not None and action.kind not in (WIN, LOSS):
                    raise CubeError(bg_msg("bg.turn.unplayed_not_last"))
                if action.kind == LOSS:
                    if self.loss is not None:
                        raise ResultMismatchError(bg_msg("bg.loss.twice"))
                    self.loss = action
                    continue
                if action.kind == ROLL and action.unplayed:
                    self.roll(action)
                    self.unplayed = action
                elif action.kind == ROLL:
                    self.roll(action)
                elif action.kind == DOUBLE:
                    self.double(action)
                elif action.kind == TAKE:
                    self.take(action)
                elif action.kind == DROP:
                    points = self.cube.drop(action.player)
                    doubler = self.cube.offered_by
                    assert doubler is not None
                    dropped = (doubler, points)
                else:
                    rest = self.game.actions[index + 1 :]
                    if any(a.kind == LOSS for a in rest):
                        late = next(a for a in rest if a.kind == LOSS)
                        raise self.err(ResultMismatchError(bg_msg("bg.loss.no_wins")), late)
                    return self.win(action, dropped)
            except BackgammonError as exc:
                raise self.err(exc, action) from None
        line = self.game.actions[-1].line if self.game.actions else self.game.line
        raise IncompleteGameError(bg_msg("bg.game.no_wins"), game=self.game.number, line=line)

    def win(self, action: Action, dropped: tuple[int, int] | None) -> tuple[int, int, str]:
        player = action.player
        claimed = action.value or 0
        if dropped is not None:
            winner, points = dropped
            how = "drop"
        elif self.finished_by_play is not None:
            winner = self.finished_by_play
            kind = win_kind(self.boards[winner], self.boards[1 - winner])
            points = int(kind) * self.cube.value
            how = {Win.SINGLE: "single", Win.GAMMON: "gammon", Win.BACKGAMMON: "backgammon"}[kind]
        else:
            winner = player
            how = "resign"
            cube = self.cube.value
            if not claimed % cube and 1 <= claimed // cube <= 3:
                points = claimed
            elif self.is_forfeit(winner, claimed):
                how = "forfeit"
                points = claimed
                self.report.warnings.append(
                    Warning_(
                        bg_msg("bg.read.forfeit", points=claimed), self.game.number, action.line
                    )
                )
            else:  # a capped resignation: the least it can have conceded
                above = [k * cube for k in (1, 2, 3) if k * cube > claimed]
                if not above or not self.is_cap(winner, claimed, above[0]):
                    raise ResultMismatchError(bg_msg("bg.wins.resign", claimed=claimed, cube=cube))
                points = above[0]
        if player != winner:
            raise ResultMismatchError(
                bg_msg("bg.wins.loser_column", player=self.report.players[player])
            )
        if self.jacoby and self.cube.owner is None and self.cube.value == 1 and how != "drop":
            points = 1  # the Jacoby rule: no gammon before the cube is turned
            if claimed != 1:
                raise ResultMismatchError(bg_msg("bg.jacoby.points", claimed=claimed))
        if claimed != points and not self.is_cap(winner, claimed, points):
            if claimed < points and self.match.length > 0 and self.is_decisive(winner, points):
                needed = self.match.length - self.match.score[winner]
                raise ResultMismatchError(
                    bg_msg(
                        "bg.wins.cap",
                        claimed=claimed,
                        points=points,
                        needed=needed,
                        length=self.match.length,
                    )
                )
            raise ResultMismatchError(bg_msg("bg.wins.points", claimed=claimed, points=points))
        if self.loss is not None:
            if self.loss.player == winner:
                raise self.err(
                    ResultMismatchError(
                        bg_msg("bg.loss.column", player=self.report.players[winner])
                    ),
                    self.loss,
                )
            if self.loss.value != claimed:
                raise self.err(
                    ResultMismatchError(
                        bg_msg("bg.loss.points", lost=self.loss.value or 0, claimed=claimed)
                    ),
                    self.loss,
                )
        self.accept_pending()
        return winner, points, how

    def is_decisive(self, winner: int, points: int) -> bool:
        """Whether ``points`` won by ``winner`` end the match."""
        length = self.match.length
        return length > 0 and self.match.score[winner] + points >= length

    def is_forfeit(self, winner: int, claimed: int) -> bool:
        """A match awarded in an unfinished game (Backgammon Galaxy, when a player leaves or
        runs out of time): ``Losses N``/``Wins N point(s) and the match`` where ``N`` is more
        than any resignation could give (3 × the cube) and exactly the points the winner
        needed. Decision: read as the match awarded to the winner (``how`` ``forfeit``);
        any other value, such as FIBS's ``Wins 100 points`` after a forfeit, is refused."""
        if self.loss is None or self.match.length <= 0:
            return False
        needed = self.match.length - self.match.score[winner]
        return claimed > 3 * self.cube.value and claimed == needed

    def is_cap(self, winner: int, claimed: int, points: int) -> bool:
        """A ``Wins`` line capped at what counts: less than the game's ``points``, the game
        decides the match, and it says exactly the points needed or the match length."""
        length = self.match.length
        needed = length - self.match.score[winner]
        return claimed < points and self.is_decisive(winner, points) and claimed in (needed, length)


def replay_record(record: MatRecord, options: ReadOptions | None = None) -> MatchReport:
    """Replay a read record; ``options`` says what the file cannot (a money session, the
    Jacoby rule, the program)."""
    options = options or ReadOptions()
    length = 0 if options.money else record.length
    jacoby = length == 0 and (record.jacoby if options.jacoby is None else options.jacoby)
    report = MatchReport(
        length,
        record.players,
        program=canonical_program(options.program) if options.program else record.program,
        format=record.format,
        money=length == 0,
        jacoby=jacoby,
    )
    if record.crawford is not None:
        crawford_rule = record.crawford
    else:
        crawford_rule = (record.header("Crawford", "On") or "On").lower() != "off"
    report.warnings.extend(Warning_(msg, game, line) for msg, game, line in record.notes)
    match = _start(record, length, crawford_rule, report)
    if match is None:
        return report
    for game in record.games:
        try:
            if match.over:
                raise MatchError(bg_msg("bg.match.after_end"), line=game.line)
            if game.score != match.score:
                raise ScoreMismatchError(
                    bg_msg(
                        "bg.score.line",
                        first=game.score[0],
                        second=game.score[1],
                        before_first=match.score[0],
                        before_second=match.score[1],
                    ),
                    line=game.score_line,
                )
            crawford = match.next_is_crawford()
            if crawford and match.games == 0 and any(a.kind == DOUBLE for a in game.actions):
                # resumed post-Crawford (see the module's docstring): the Crawford game
                # is behind, so no later game is one
                crawford = False
                match = MatchScore(length, match.score, 0, None, crawford_rule=False)
            replay = _GameReplay(game, CubeState(crawford=crawford), report, match, jacoby)
            winner, points, how = replay.run()
            match = match.add_game(winner, points)
            last = next(a for a in reversed(game.actions) if a.kind == WIN)
            # ``and the match`` is optional: FIBS and eXtreme Gammon write it on the game
            # that ends the match, GNU Backgammon 1.07 does not (tests/data/backgammon).
            # Claimed on a game that does not end the match, it is wrong.
            if last.match and not match.over and length > 0:
                raise ResultMismatchError(bg_msg("bg.wins.match_wrong"), line=last.line)
        except BackgammonError as exc:
            report.errors.append(exc.located(game=game.number))
            break
        report.games.append(
            GameReport(game.number, winner, points, replay.cube.value, crawford, how, match.score)
        )
    report.warnings.sort(key=lambda warning: warning.line)  # in the file's order
    report.score = match.score
    report.winner = match.winner
    # the Crawford game by its number in the file (a resumed match need not start at 1)
    index = match.crawford_game
    if index is not None and index <= len(record.games):
        report.crawford_game = record.games[index - 1].number
    elif index is not None and record.games:
        report.crawford_game = record.games[-1].number + index - len(record.games)
    else:
        report.crawford_game = index
    return report


def _start(
    record: MatRecord, length: int, crawford_rule: bool, report: MatchReport
) -> MatchScore | None:
    """The score the match starts from: 0–0, or a resumed match's first score line."""
    first = record.games[0].score if record.games else (0, 0)
    if length > 0 and max(first) >= length:
        report.errors.append(
            MatchError(
                bg_msg("bg.match.start", first=first[0], second=first[1]),
                game=record.games[0].number,
                line=record.games[0].score_line,
            )
        )
        return None
    if record.games:
        _resumed(record.games[0], report)
    crawford_game = None
    one_at_match_point = (length - 1 in first) and first != (length - 1, length - 1)
    if crawford_rule and length > 1 and one_at_match_point and max(first) < length:
        crawford_game = 1  # see the module's docstring on resumed matches
    return MatchScore(length, first, 0, crawford_game, crawford_rule)


def _resumed(game: MatGame, report: MatchReport) -> None:
    """A warning on the first game's line when the file reads as a match resumed: its score
    line is not 0–0 (FIBS resumes a saved match so), or it is not game 1. Decision: both
    are read as a match going on from there (see the module's docstring), and neither
    passes in silence."""
    if game.score != (0, 0):
        msg = bg_msg("bg.read.resumed", game=game.number, first=game.score[0], second=game.score[1])
        report.warnings.append(Warning_(msg, game.number, game.score_line or game.line))
    elif game.number != 1:
        msg = bg_msg("bg.read.resumed_number", game=game.number)
        report.warnings.append(Warning_(msg, game.number, game.line))


def read_record(data: str | bytes, *, name: str = "", seen: MatSeen | None = None) -> MatRecord:
    """Read a backgammon record of any form the site reads: the project's own text or JSON
    (recognised by its ``[Game "backgammon"]``), gnubg's ``.sgf`` (``(;``) or ``.mat`` of
    any dialect. Raises :class:`UnsupportedFormatError` for a recognised format the site
    does not read (``name`` is the file's name, when known), :class:`RecordSyntaxError`
    otherwise; ``seen`` gets what was read before the error."""
    if isinstance(data, bytes):
        unsupported = unsupported_format(data, name)
        if unsupported is not None:
            raise UnsupportedFormatError(bg_msg("bg.format.unsupported", format=unsupported))
        text = decode_mat(data)
    else:
        unsupported = unsupported_format(data[:4096].encode("utf-8", "replace"), name)
        if unsupported is not None:
            raise UnsupportedFormatError(bg_msg("bg.format.unsupported", format=unsupported))
        text = data
    if is_bg_record(text):
        return read_bg_record(text)
    if is_sgf(text):
        return read_sgf(text, seen=seen)
    return read_mat(text, seen=seen)


def replay_text(
    text: str | bytes, *, name: str = "", options: ReadOptions | None = None
) -> MatchReport:
    """Parse and replay a backgammon record of any form (:func:`read_record`). A syntax
    error or an unsupported format is reported, not raised; the report names the length,
    the players and the program read before it."""
    seen = MatSeen()
    try:
        record = read_record(text, name=name, seen=seen)
    except BackgammonError as exc:
        return _unread(exc, seen, options)
    return replay_record(record, options)


# the players of a report whose reader stopped before the file named them
UNNAMED_PLAYERS = ("Player 1", "Player 2")


def _unread(exc: BackgammonError, seen: MatSeen, options: ReadOptions | None) -> MatchReport:
    program = seen.program
    if options is not None and options.program:
        program = canonical_program(options.program)
    length = seen.length if seen.length is not None else -1
    if options is not None and options.money:
        length = 0
    report = MatchReport(
        length,
        seen.players or UNNAMED_PLAYERS,
        program=program,
        format="" if isinstance(exc, UnsupportedFormatError) else seen.format,
        money=length == 0,
    )
    report.errors.append(exc)
    return report


def replay_mat(text: str | bytes, options: ReadOptions | None = None) -> MatchReport:
    """Parse and replay a ``.mat`` text (or a file's bytes, :func:`backgammon.mat.decode_mat`).
    A syntax error is reported, not raised."""
    seen = MatSeen()
    try:
        record = read_mat(decode_mat(text) if isinstance(text, bytes) else text, seen=seen)
    except BackgammonError as exc:
        return _unread(exc, seen, options)
    return replay_record(record, options)
