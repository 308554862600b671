"""The ``.mat`` match record, as gnubg, eXtreme Gammon and BGBlitz export it (and FIBS-era
programs before them): read and written.

Layout::

    ; [Site "eXtreme Gammon"]              header comments: ; [Key "Value"]
    ; [Crawford "On"]

     7 point match

     Game 1
     Alice : 0                     Bob : 0         the score before the game
      1)                             31: 8/5 6/5   left column player 1, right player 2
      2) 52: 13/8 13/11              Doubles => 2
      3)  Takes                      64: 24/18 13/9
      4) 43: bar/21* 13/10           54:
                                      Wins 2 points

Moves: ``from/to`` with ``bar``/``25`` and ``off``/``0``, ``*`` after a hit point,
``(2)`` for a repeated move, ``24/18*/13`` for one checker through a hit. A roll with no
move (``54:``, or ``54: Cannot Move`` as BGBlitz, Backgammon Studio and Galaxy write it) is
a turn that could not be played; ``33: ???`` (``????``) is a roll whose play was never
made because the game ended by a resignation (eXtreme Gammon, BGBlitz, Studio). Cube
actions: ``Doubles => N``, ``Takes`` (``Accepts``), ``Drops`` (``Passes``, ``Rejects``).
``Wins N point(s)`` with ``and the match`` when it ends the match; ``Losses N point(s)``
(Galaxy) on the loser's side. Every convention and the program that writes it:
docs/game-record.md, "Backgammon records from other programs".

Which player acted is read from the column: a line holding two actions has one per
column; a lone action is the right-hand player's when it starts nearer the right-hand
column (found from this file's two-action lines) than the left.

Clock lines (the site's own, decided): a clocked match's record carries both players'
remaining times after a row on a whole-line comment of its own right below it::

      2) 62: 24/18 13/11             55: 13/8 13/8 6/1* 6/1
    ; [%clk 0h32m06s 0h23m38s]

the left-hand player's first, each as hours, minutes and seconds (tenths ``0h01m52.3s``
read too); after a ``Wins`` line when the game's last turn (a resignation) left other
times than the row above it. Why a line of its own: a row holds both players' moves in two
fixed columns, so a move has no room for a comment of its own (bräde's record puts PGN's
``[%clk]`` in the turn line's comment). Why ``0h32m06s`` and not PGN's ``0:32:06``: the
programs that read ``.mat`` read no comment inside a game. eXtreme Gammon reads its extra
``; [...]`` elements only at the top of the file; gnubg (``import.c``, ``ImportGame``)
hands every line between two `` Game `` lines to its move parser (only XG's ``; Set
Pos=`` line is its own), and first splits a line with two colons into the two columns two
characters before the second colon — so ``; [%clk 0:12:34 0:05:00]`` gives the right-hand
column ``12:34 …``, read as a roll of 1-2 for the right-hand player, which turns gnubg's
board round: with such lines gnubg 1.07 imports the match wrong (invalid moves from the
next double on). A line with no colon (and no ``)``, double space or `` Game ``) is one
left-hand column that gnubg reports once per file as an unrecognised move and skips: the
match imports with the same moves (checked with gnubg 1.07.001, ``import mat``).

The reader puts a clock line's times on every action of the row above it
(:attr:`Action.clock`); a ``; [%clk`` line that does not read so, or follows no row, is a
warning on its line (``bg.read.clock``) and is otherwise ignored: the times never make a
record unreadable, and they are no part of its value (nor of the replay's report).

A left-hand player's ``Drops`` and the right-hand player's ``Wins`` share one row, as gnubg
writes them (``export match mat``): `` 16)  Drops                       Wins 1 point``.
gnubg 1.07 reads a ``Wins`` line of its own below a left-hand ``Drops`` as a beaver
(``Beavers => 4``) and the rest of the match wrong. The reader reads both (records the
site wrote before write the ``Wins`` on a line of its own, at the right-hand column).

:func:`read_mat` returns a :class:`MatRecord`; :func:`write_mat` writes one back in gnubg's
layout. ``read_mat(write_mat(read_mat(text))) == read_mat(text)`` (line numbers and clock
times are not compared).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from backgammon.errors import MatchError, RecordSyntaxError
from backgammon.messages import bg_msg
from engine.messages import Msg

__all__ = [
    "MAX_MAT_BYTES",
    "MAX_RECORD_LENGTH",
    "Action",
    "MatGame",
    "MatRecord",
    "MatSeen",
    "check_record_length",
    "clock_line",
    "decode_mat",
    "mat_action_lines",
    "read_mat",
    "whole_number",
    "write_mat",
]

# The largest record read, as bräde's (engine.record.MAX_RECORD_BYTES): a 25-point match
# takes at most 49 games, a few kilobytes each.
MAX_MAT_BYTES = 1_000_000

# The longest match a record may hold, in points. Decision: the site's matches are 1 to 25
# points (backgammon.match.check_match_length), but a file read on its own (``manage.py
# replay``) may be an export of a longer match or of a money session (``0 point match``);
# a length up to 99 is read, a longer one is refused at its line (no match is that long:
# it is a broken or hostile file). A record uploaded to a match must have the match's own
# length anyway (matches.record_mat).
MAX_RECORD_LENGTH = 99
# Digits a count in a record may have (match length, game number, score, cube, points):
# more is no count any match holds, and ``int()`` of thousands of digits raises.
_MAX_DIGITS = 9

ROLL = "roll"
DOUBLE = "double"
TAKE = "take"
DROP = "drop"
WIN = "win"
LOSS = "loss"


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a move line. ``player`` 0 = left column (first name), 1 = right.

    ``roll``: ``dice`` and ``moves`` (the move tokens as written, normalised: ``bar``,
    ``off``, lower case); ``double``: ``value`` the new cube value; ``take``/``drop``;
    ``win``: ``value`` points and ``match`` when it says ``and the match``; ``loss``: the
    loser's ``Losses N points``. ``unplayed``: a roll written ``???`` (never played: the
    game ended by a resignation before the play). ``clock``: both players' remaining
    times (ms, the left-hand player's first) after the action — as read, after its row
    (the clock line below it); None: no clock."""

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    moves: tuple[str, ...] = ()
    value: int | None = None
    match: bool = False
    unplayed: bool = False
    line: int = field(default=0, compare=False)
    turn: int = field(default=0, compare=False)
    clock: tuple[int, int] | None = field(default=None, compare=False)

    def text(self) -> str:
        if self.kind == ROLL:
            assert self.dice is not None
            moves = "???" if self.unplayed else " ".join(self.moves)
            return f"{self.dice[0]}{self.dice[1]}: {moves}".rstrip()
        if self.kind == DOUBLE:
            return f" Doubles => {self.value}"
        if self.kind == TAKE:
            return " Takes"
        if self.kind == DROP:
            return " Drops"
        if self.kind == LOSS:
            return f"Losses {self.value} {'point' if self.value == 1 else 'points'}"
        plural = "point" if self.value == 1 else "points"
        return f"Wins {self.value} {plural}{' and the match' if self.match else ''}"


@dataclass(frozen=True, slots=True)
class MatGame:
    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    line: int = field(default=0, compare=False)
    score_line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A match read from any dialect. ``length`` 0 is a money session (``0 point match``);
    ``program`` the program that wrote it, as far as the file tells
    (:mod:`backgammon.dialects`), ``format`` the file format (``mat``, ``sgf``, ``text``,
    ``json``); ``jacoby`` the Jacoby rule of a money session; ``crawford`` whether the
    Crawford rule is played (``; [Crawford "Off"]`` turns it off); ``notes`` what the
    reader read one way of two, as ``(message, game, line)``: the replay reports each as a
    warning on its line (a Galaxy row written on the line of the row before it)."""

    length: int
    players: tuple[str, str]
    games: tuple[MatGame, ...]
    headers: tuple[tuple[str, str], ...] = ()
    program: str = field(default="", compare=False)
    format: str = field(default="mat", compare=False)
    jacoby: bool = field(default=False, compare=False)
    crawford: bool | None = field(default=None, compare=False)
    notes: tuple[tuple[Msg, int, int], ...] = field(default=(), compare=False)

    def header(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.headers:
            if k.lower() == key.lower():
                return v
        return default


_HEADER_RE = re.compile(r'^\s*;\s*\[\s*(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\s*\]\s*$')
_LENGTH_RE = re.compile(r"^\s*(?P<n>\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(?P<n>\d+)\s*$", re.IGNORECASE)
# A name may be empty (`` lasse : 0                 : 0``: Galaxy, a guest's name)
_SCORE_RE = re.compile(r"^\s*(?P<a>.*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>.*?)\s*:\s*(?P<sb>\d+)\s*$")
_NUM_RE = re.compile(r"^\s*(?P<n>\d+)\)")
# One entry, after any white space (not captured: ``m.lastgroup`` names the entry's kind)
_ACTION_RE = re.compile(
    r"\s*(?:(?P<roll>(?P<d1>[1-6])(?P<d2>[1-6]):(?:\s*(?P<unplayed>\?{3,4})(?!\S)|\s+(?P<cannot>Cannot\s+Move)"
    r"|(?P<moves>(?:\s+(?:[0-9a-z]+(?:/[0-9a-z]+\*?)+(?:\(\d\))?))*)))"
    r"|(?P<double>Doubles\s*=>\s*(?P<cube>\d+))"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects)"
    r"|(?P<win>Wins\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?)"
    r"|(?P<loss>Losses\s+(?P<lost>\d+)\s+points?))",
    re.IGNORECASE,
)
# A clock line (module doc): ``; [%clk 0h01m52s 0h01m40s]``; a comment that starts so is
# meant as one, and is read or warned of
_CLOCK_START_RE = re.compile(r"^\s*;\s*\[\s*%clk\b", re.IGNORECASE)
_CLOCK_TIME = r"(\d{1,3})h([0-5]\d)m([0-5]\d)(?:\.(\d))?s"
_CLOCK_RE = re.compile(
    rf"^\s*;\s*\[\s*%clk\s+{_CLOCK_TIME}\s+{_CLOCK_TIME}\s*\]\s*$", re.IGNORECASE
)
MOVE_TOKEN_RE = re.compile(r"^(?:bar|off|\d+)(?:/(?:bar|off|\d+)\*?)+(?:\(\d\))?$")
# every token of a roll's moves at once (lower case), the common case checked in one match
_MOVES_RE = re.compile(r"(?:\s+(?:bar|off|\d+)(?:/(?:bar|off|\d+)\*?)+(?:\(\d\))?)*\s*")


def _normalise_move(token: str) -> str:
    return token.lower()


def whole_number(digits: str) -> int:
    """A count as a record writes it; more than nine digits read as ``10**9`` (larger than
    any count a match holds, so the check that follows refuses it; ``int()`` itself would
    raise on thousands of digits)."""
    return int(digits) if len(digits) <= _MAX_DIGITS else 10**_MAX_DIGITS


def _written(digits: str) -> str:
    """A number as written, for a message: at most 24 digits, then ``…``."""
    return digits if len(digits) <= 24 else digits[:24] + "…"


def check_record_length(digits: str, line: int | None) -> int:
    """The match length a record writes (``digits``), or :class:`MatchError` at ``line``
    when it is over :data:`MAX_RECORD_LENGTH` (see its decision)."""
    length = whole_number(digits)
    if length > MAX_RECORD_LENGTH:
        raise MatchError(
            bg_msg("bg.mat.length", length=_written(digits), limit=MAX_RECORD_LENGTH), line=line
        )
    return length


def _parse_actions(text: str, offset: int, line_no: int) -> list[tuple[int, Action]]:
    """The actions on one line, each with the column it starts at."""
    found: list[tuple[int, Action]] = []
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        m = _ACTION_RE.match(text, pos)
        kind = m.lastgroup if m is not None else None
        if m is None or kind is None:
            raise RecordSyntaxError(
                bg_msg("bg.mat.entry", text=repr(text[pos:].split()[0])), line=line_no
            )
        col = offset + m.start(kind)
        if kind == "roll":
            written = (m.group("moves") or "").lower()
            moves = tuple(written.split())
            if not _MOVES_RE.fullmatch(written):  # then name the first token that is not
                for token in moves:
                    if not MOVE_TOKEN_RE.match(token):
                        raise RecordSyntaxError(
                            bg_msg("bg.mat.move", move=repr(token)), line=line_no
                        )
            action = Action(
                -1,
                ROLL,
                dice=(int(m.group("d1")), int(m.group("d2"))),
                moves=moves,
                unplayed=m.group("unplayed") is not None,
                line=line_no,
            )
        elif kind == "double":
            action = Action(-1, DOUBLE, value=whole_number(m.group("cube")), line=line_no)
        elif kind == "take":
            action = Action(-1, TAKE, line=line_no)
        elif kind == "drop":
            action = Action(-1, DROP, line=line_no)
        elif kind == "loss":
            action = Action(-1, LOSS, value=whole_number(m.group("lost")), line=line_no)
        else:
            action = Action(
                -1,
                WIN,
                value=whole_number(m.group("points")),
                match=bool(m.group("match")),
                line=line_no,
            )
        found.append((col, action))
        pos = m.end()
    return found


def decode_mat(data: bytes) -> str:
    """The text of a ``.mat`` file: UTF-8 (a byte-order mark dropped), else Windows-1252 —
    older programs (Snowie, FIBS clients) wrote player names in it. Decision: a replay
    should not refuse a real record for its encoding; every byte reads in one of the two.
    Raises :class:`RecordSyntaxError` for a file over :data:`MAX_MAT_BYTES`."""
    if len(data) > MAX_MAT_BYTES:
        line = data[: MAX_MAT_BYTES + 1].count(b"\n") + 1
        raise RecordSyntaxError(bg_msg("bg.mat.too_big", limit=f"{MAX_MAT_BYTES:,}"), line=line)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


@dataclass(slots=True)
class MatSeen:
    """What a reader had read when it stopped at a syntax error: the match length and the
    players' names, for the report (which names what the file says, not "Player 1")."""

    length: int | None = None
    players: tuple[str, str] | None = None
    program: str = ""
    format: str = "mat"


def read_mat(text: str, *, seen: MatSeen | None = None) -> MatRecord:
    """Parse a ``.mat`` text of any dialect (docs/game-record.md). Raises
    :class:`RecordSyntaxError` with the line number; ``seen`` is filled as the file is
    read, so that a caller can name the length and players read before the error."""
    from backgammon.dialects import program_of

    seen = seen if seen is not None else MatSeen()
    lines = text.splitlines()  # \n, \r\n and the old Mac's \r alone
    headers: list[tuple[str, str]] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    raw_games: list[tuple[int, int, tuple[int, int], int, list[tuple[int, int, Action, bool]]]] = []
    current: list[tuple[int, int, Action, bool]] | None = None
    expect_score = False
    right_cols: list[int] = []
    notes: list[tuple[Msg, int, int]] = []
    clock_row: int | None = None  # the row (line) a clock line below it gives its times to
    for idx, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            hm = _HEADER_RE.match(line)
            if hm and current is None:
                headers.append((hm.group("key").strip(), hm.group("value")))
            elif current is not None and _CLOCK_START_RE.match(line):
                clock = _clock_of(line)
                if clock is None or clock_row is None:
                    shown = line.strip()
                    shown = shown if len(shown) <= 60 else shown[:60] + "…"
                    notes.append((bg_msg("bg.read.clock", text=repr(shown)), raw_games[-1][0], idx))
                else:
                    _give_clock(current, clock_row, clock)
                clock_row = None
            continue
        if (lm := _LENGTH_RE.match(line)) is not None:
            if length is not None:
                raise RecordSyntaxError(bg_msg("bg.mat.second_length"), line=idx)
            length = check_record_length(lm.group("n"), idx)
            seen.length = length
            continue
        if (gm := _GAME_RE.match(line)) is not None:
            if current is None:
                seen.program = program_of(tuple(headers), text)
            if length is None:
                raise RecordSyntaxError(bg_msg("bg.mat.game_first"), line=idx)
            number = whole_number(gm.group("n"))
            if raw_games and number != raw_games[-1][0] + 1:
                raise RecordSyntaxError(
                    bg_msg(
                        "bg.mat.game_number",
                        expected=raw_games[-1][0] + 1,
                        found=_written(gm.group("n")),
                    ),
                    line=idx,
                )
            current = []
            raw_games.append((number, idx, (0, 0), 0, current))
            expect_score = True
            clock_row = None
            continue
        if current is None:
            raise RecordSyntaxError(bg_msg("bg.mat.line", text=repr(line.strip())), line=idx)
        if expect_score:
            sm = _SCORE_RE.match(line)
            if sm is None:
                raise RecordSyntaxError(bg_msg("bg.mat.score_line"), line=idx)
            names = (_name(sm.group("a")), _name(sm.group("b")))
            if players is None:
                players = names
                seen.players = _named(names, headers)
            elif names != players:
                raise RecordSyntaxError(
                    bg_msg(
                        "bg.mat.players",
                        first=repr(names[0]),
                        second=repr(names[1]),
                        one=repr(players[0]),
                        two=repr(players[1]),
                    ),
                    line=idx,
                )
            number, gline, _, _, acts = raw_games[-1]
            score = (whole_number(sm.group("sa")), whole_number(sm.group("sb")))
            raw_games[-1] = (number, gline, score, idx, acts)
            expect_score = False
            continue
        try:
            rows = [_row(line, idx)]
        except RecordSyntaxError:
            parts = _rows(line)
            if len(parts) == 1:
                raise
            rows = [_row(part, idx) for part in parts]
            row = rows[0][0]
            notes.append((bg_msg("bg.read.split_row", row=row), raw_games[-1][0], idx))
        clock_row = idx
        for turn, found in rows:
            if len(found) == 2:
                right_cols.append(found[1][0])
                current.append((idx, turn, replace_player(found[0][1], 0, turn), True))
                current.append((idx, turn, replace_player(found[1][1], 1, turn), True))
            elif found:
                col, action = found[0]
                current.append((idx, turn, replace_player(action, -1 - col, turn), False))
    if length is None:
        raise RecordSyntaxError(bg_msg("bg.mat.no_length"), line=1 if lines else None)
    # lone entries: the column decides (nearer the usual right-hand start, or not)
    right = sorted(right_cols)[len(right_cols) // 2] if right_cols else 34
    games: list[MatGame] = []
    for number, gline, score, sline, acts in raw_games:
        actions: list[Action] = []
        lone_losses: list[int] = []
        for _idx, turn, action, _paired in acts:
            if action.player < 0:
                col = -1 - action.player
                player = 1 if col >= (right + 6) // 2 else 0
                action = replace_player(action, player, turn)
                if action.kind == LOSS and not turn and col <= 1:
                    lone_losses.append(len(actions))
            actions.append(action)
        _place_lone_losses(actions, lone_losses)
        games.append(MatGame(number, score, tuple(actions), gline, sline))
    tags = tuple(headers)
    crawford = (_tag(tags, "Crawford") or "").lower()
    return MatRecord(
        length,
        _named(players or ("", ""), headers),
        tuple(games),
        tags,
        program=seen.program or program_of(tags, text),
        format="mat",
        jacoby=(_tag(tags, "Jacoby") or "").lower() == "on",
        crawford=None if not crawford else crawford != "off",
        notes=tuple(notes),
    )


def _clock_of(line: str) -> tuple[int, int] | None:
    """The two remaining times (ms) a clock line gives, or None when it does not read."""
    m = _CLOCK_RE.match(line)
    if m is None:
        return None
    parts = m.groups()
    return (_clock_ms(parts[:4]), _clock_ms(parts[4:]))


def _clock_ms(parts: tuple[str | None, ...]) -> int:
    hours, minutes, seconds, tenths = parts
    assert hours is not None and minutes is not None and seconds is not None
    whole = (int(hours) * 60 + int(minutes)) * 60 + int(seconds)
    return whole * 1000 + int(tenths or 0) * 100


def clock_line(clock: tuple[int, int]) -> str:
    """The clock line of both remaining times (module doc): ``; [%clk 0h01m52s 0h01m40s]``
    (whole seconds, rounded down, as a clock shows them)."""

    def shown(ms: int) -> str:
        minutes, seconds = divmod(max(0, ms) // 1000, 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}h{minutes:02d}m{seconds:02d}s"

    return f"; [%clk {shown(clock[0])} {shown(clock[1])}]"


def _give_clock(
    entries: list[tuple[int, int, Action, bool]], row: int, clock: tuple[int, int]
) -> None:
    """The times of a clock line onto every action of the row (line) above it."""
    for k, (idx, turn, action, paired) in enumerate(entries):
        if idx == row:
            entries[k] = (idx, turn, replace(action, clock=clock), paired)


# A row number repeated inside its row (`` 14) 22: 13/11 …      14)  Losses 1 point …``)
_REPEATED_NUM_RE = re.compile(r"\s(?P<n>\d+)\)(?=\s)")


def _row(line: str, line_no: int) -> tuple[int, list[tuple[int, Action]]]:
    """A move row's number (0: none) and its entries, each with its column."""
    nm = _NUM_RE.match(line)
    turn = 0
    offset = 0
    body = line
    if nm is not None:
        turn = whole_number(nm.group("n"))
        offset = nm.end()
        body = line[offset:]
    found = _parse_actions(body, offset, line_no)
    if len(found) > 2:
        raise RecordSyntaxError(bg_msg("bg.mat.two_entries"), line=line_no)
    return turn, found


def _rows(line: str) -> list[str]:
    """One written line that did not read as a row, as the rows it holds (tried only
    then, so that other files pay nothing for it). Backgammon Galaxy sometimes writes the row
    that ends a game (``Losses``/``Wins``) on the line of the last roll, its row number
    repeated: `` 14) 22: 13/11 13/11 4/2 5/3      14)  Losses 1 point      Wins 1 point
    and the match``. Decision: the repeated number starts a second row of the same number,
    whose columns count from it, so its entries sit in the players' columns as in any
    other row (the replay then checks them like any ``Losses``/``Wins`` lines)."""
    nm = _NUM_RE.match(line)
    if nm is None:
        return [line]
    rm = _REPEATED_NUM_RE.search(line, nm.end())
    if rm is None or rm.group("n") != nm.group("n"):
        return [line]
    return [line[: rm.start()], " " + line[rm.start() :].lstrip()]


def _place_lone_losses(actions: list[Action], lone_losses: list[int]) -> None:
    """Backgammon Galaxy writes a game's ``Losses N point(s)`` on a line of its own, at the
    line's start, whoever lost; the ``Wins`` line that follows stands in the winner's
    column. Decision: such a ``Losses`` line (unnumbered, at column 0 or 1) whose column
    names the player the ``Wins`` line names is the other player's. Any other ``Losses``
    line keeps its column, so one written in the winner's column is still refused."""
    for index in lone_losses:
        loss = actions[index]
        win = next((a for a in actions[index + 1 :] if a.kind == WIN), None)
        if win is not None and win.player == loss.player:
            actions[index] = replace_player(loss, 1 - loss.player, loss.turn)


# A FIBS client's rating after the name (``BlueNote,1780 : 1``): FIBS names hold no comma
_RATING_RE = re.compile(r",\s*\d+(?:\.\d+)?$")


def _name(written: str) -> str:
    """A player's name as a score line writes it, without the rating some FIBS clients
    append (``BlueNote,1780`` is BlueNote, as gnubg's importer reads it too)."""
    return _RATING_RE.sub("", written.strip())


def _tag(headers: tuple[tuple[str, str], ...], key: str) -> str | None:
    for k, v in headers:
        if k.lower() == key.lower():
            return v
    return None


def _named(names: tuple[str, str], headers: list[tuple[str, str]]) -> tuple[str, str]:
    """The players' names; an empty one (a guest's, as Galaxy writes it) is the header's
    ``Player 1``/``Player 2`` or, without one, ``Player 1``/``Player 2``. Decision: the
    report needs a name for every score; the file's own header is the best source."""
    tags = tuple(headers)
    return (
        names[0] or _tag(tags, "Player 1") or "Player 1",
        names[1] or _tag(tags, "Player 2") or "Player 2",
    )


def replace_player(action: Action, player: int, turn: int) -> Action:
    return Action(
        player,
        action.kind,
        dice=action.dice,
        moves=action.moves,
        value=action.value,
        match=action.match,
        unplayed=action.unplayed,
        line=action.line,
        turn=turn,
        clock=action.clock,
    )


_LEFT = 28
# A dropped double as a row's entry (``Action.text``)
_DROPS = Action(0, DROP).text()


def write_mat(record: MatRecord) -> str:
    """The record in gnubg's ``.mat`` layout."""
    return "\n".join(_layout(record)[0]) + "\n"


def mat_action_lines(record: MatRecord) -> tuple[tuple[int, ...], ...]:
    """The line (from 1) each action of each game is written on by :func:`write_mat`: the
    line a reader gives the action (``Action.line``) and a replay names in its warnings
    and errors. Both columns of a row share its line."""
    return _layout(record)[1]


def _layout(record: MatRecord) -> tuple[list[str], tuple[tuple[int, ...], ...]]:
    """The lines of :func:`write_mat` and each game's actions' lines (from 1)."""
    out: list[str] = [f'; [{key} "{value}"]' for key, value in record.headers]
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    name0, name1 = record.players
    where: list[tuple[int, ...]] = []
    for game in record.games:
        out.append(f" Game {game.number}")
        out.append(f" {name0} : {game.score[0]:<{_LEFT - len(name0)}} {name1} : {game.score[1]}")
        lines, rows = _game_lines(game)
        where.append(tuple(len(out) + 1 + row for row in rows))
        out.extend(lines)
        out.append("")
    return out, tuple(where)


def _game_lines(game: MatGame) -> tuple[list[str], list[int]]:
    """The numbered two-column lines of one game (a row is one turn of each player), and
    the index among them of each action's line; below a row whose actions carry times,
    its clock line (module doc: the times after the row's last action)."""
    lines: list[str] = []
    rows: list[int] = []
    row: list[str | None] = [None, None]
    turn = 0
    timed: tuple[int, int] | None = None  # the times after the row's last timed action
    written: tuple[int, int] | None = None  # the last clock line's

    def clocked(clock: tuple[int, int] | None) -> None:
        nonlocal written
        if clock is not None:
            lines.append(clock_line(clock))
            written = clock

    def flush() -> None:
        nonlocal turn, timed
        if row[0] is None and row[1] is None:
            return
        turn += 1
        left = row[0] or ""
        right = row[1] or ""
        lines.append(f"{turn:3d}) {left:<{_LEFT}} {right}".rstrip())
        row[0] = row[1] = None
        clocked(timed)
        timed = None

    for action in game.actions:
        if action.kind == WIN and action.player == 1 and row[0] == _DROPS and row[1] is None:
            # the left-hand player dropped: gnubg's row ``  4)  Drops     Wins 1 point``
            row[1] = action.text()
            timed = action.clock or timed
            rows.append(len(lines))
            flush()
            continue
        if action.kind == WIN:
            flush()
            pad = " " * (5 if action.player == 0 else 5 + _LEFT + 1)
            rows.append(len(lines))
            lines.append(f"{pad}{action.text()}")
            # a resignation's time: the game's last turn wrote no row
            clocked(action.clock if action.clock != written else None)
            continue
        if row[action.player] is not None or (action.player == 0 and row[1] is not None):
            flush()
        row[action.player] = action.text()
        timed = action.clock or timed
        rows.append(len(lines))  # the row being filled is written next
        if action.player == 1:
            flush()
    flush()
    return lines, rows
