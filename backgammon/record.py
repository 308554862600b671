"""The project's own backgammon record: text and JSON, with cube actions (game-record.md,
"Backgammon records: the project's own form").

Written by people (the text form) and programs (JSON), read into the same
:class:`backgammon.mat.MatRecord` a ``.mat`` file gives, so one replay
(``backgammon.replay.replay_record``) checks both. The differences from ``.mat``: one entry
per line with its player (``1`` or ``2``) in front instead of two columns, no score lines
and no ``and the match`` (both follow from the ``wins`` claims), and a resignation
written as such (``2 resigns 1``: player 2 gives up a single game, 1 × the cube, to
player 1). A record opens with ``[Game "backgammon"]``, which is how it is recognised.

Decisions where the issue was silent: player numbers rather than W/B (backgammon has no
colours in a ``.mat`` file either, only a first and a second player); a resignation
counts in multiples of the cube as seed 002 says (1, 2 or 3 times); ``wins`` is the claim
the replay checks, as ``Wins N points`` in a ``.mat`` file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from backgammon.errors import RecordSyntaxError
from backgammon.mat import (
    DOUBLE,
    DROP,
    MAX_MAT_BYTES,
    MOVE_TOKEN_RE,
    ROLL,
    TAKE,
    WIN,
    Action,
    MatGame,
    MatRecord,
    check_record_length,
    whole_number,
)
from backgammon.messages import bg_msg

__all__ = [
    "GAME_TAG",
    "is_bg_record",
    "read_bg_json",
    "read_bg_record",
    "read_bg_text",
    "write_bg_json",
    "write_bg_text",
]

GAME_TAG = "backgammon"
_TAG_RE = re.compile(r'^\[\s*(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\s*\]$')
_GAME_RE = re.compile(r"^Game\s+(?P<n>\d+)$", re.IGNORECASE)
_ENTRY_RE = re.compile(
    r"^(?P<player>\d+)\s+(?:"
    r"(?P<d1>[1-6])-?(?P<d2>[1-6]):(?P<moves>.*)"
    r"|doubles\s+(?P<double>\d+)"
    r"|(?P<take>takes)"
    r"|(?P<drop>drops)"
    r"|resigns\s+(?P<resign>\d+)"
    r"|wins\s+(?P<wins>\d+)"
    r")$",
    re.IGNORECASE,
)
_OPENING_RE = re.compile(r'\A\ufeff?\s*\[\s*Game\s+"backgammon"\s*\]', re.IGNORECASE)
_JSON_RE = re.compile(r'\A\ufeff?\s*\{.*"game"\s*:\s*"backgammon"', re.IGNORECASE | re.DOTALL)


def is_bg_record(text: str) -> bool:
    """Whether ``text`` is the project's own backgammon record (text or JSON)."""
    return bool(_OPENING_RE.match(text) or _JSON_RE.match(text[:4096]))


def read_bg_record(text: str) -> MatRecord:
    """The text or JSON form, whichever ``text`` is."""
    return (
        read_bg_json(text) if text.lstrip("\ufeff \t\r\n").startswith("{") else read_bg_text(text)
    )


class _Builder:
    """Turns entries into a :class:`MatRecord`: keeps the cube (for resignations) and the
    running score (for each game's score and the match's end)."""

    def __init__(self, headers: list[tuple[str, str]], line: int | None) -> None:
        self.headers = headers
        tags = {k.lower(): v for k, v in headers}
        if tags.get("game", "").lower() != GAME_TAG:
            raise RecordSyntaxError(bg_msg("bg.rec.game_tag"), line=line)
        raw = tags.get("length", "")
        if not (raw.isascii() and raw.isdigit()):
            raise RecordSyntaxError(bg_msg("bg.rec.length", text=repr(raw)), line=line)
        self.length = check_record_length(raw, line)
        self.players = (tags.get("player 1", "Player 1"), tags.get("player 2", "Player 2"))
        self.games: list[MatGame] = []
        self.score = [0, 0]
        self.actions: list[Action] = []
        self.number = 0
        self.game_line = 0
        self.cube = 1
        self.offered = 0
        self.ended = False

    def start(self, number: int, line: int | None) -> None:
        self.finish()
        if number != self.number + 1:
            raise RecordSyntaxError(
                bg_msg("bg.rec.game_number", expected=self.number + 1, found=number), line=line
            )
        self.number = number
        self.game_line = line or 0
        self.actions, self.cube, self.offered, self.ended = [], 1, 0, False

    def finish(self) -> None:
        if self.number and (not self.games or self.games[-1].number != self.number):
            before = (self.score[0], self.score[1])
            for action in self.actions:
                if action.kind == WIN and action.value is not None:
                    self.score[action.player] += action.value
            self.games.append(
                MatGame(self.number, before, tuple(self.actions), self.game_line, self.game_line)
            )

    def add(self, player: int, kind: str, line: int | None, turn: int, **fields: Any) -> None:
        if not self.number:
            raise RecordSyntaxError(bg_msg("bg.rec.no_game_yet"), line=line, turn=turn or None)
        if self.ended:
            raise RecordSyntaxError(bg_msg("bg.rec.after_end"), line=line, turn=turn or None)
        if player not in (1, 2):
            raise RecordSyntaxError(bg_msg("bg.rec.player", player=player), line=line)
        who = player - 1
        if kind == DOUBLE:
            self.offered = int(fields["value"])
        elif kind == TAKE and self.offered:
            self.cube, self.offered = self.offered, 0
        elif kind == "resign":
            level = int(fields.pop("level"))
            if not 1 <= level <= 3:
                raise RecordSyntaxError(bg_msg("bg.rec.resign", value=level), line=line)
            kind, who, fields = WIN, 1 - who, {"value": level * self.cube}
        if kind == WIN:
            self.ended = True
            value = int(fields["value"])
            fields["match"] = self.length > 0 and self.score[who] + value >= self.length
        self.actions.append(Action(who, kind, line=line or 0, turn=turn, **fields))

    def record(self, line: int | None, form: str) -> MatRecord:
        self.finish()
        if not self.games:
            raise RecordSyntaxError(bg_msg("bg.rec.no_game"), line=line)
        return MatRecord(
            self.length,
            self.players,
            tuple(self.games),
            tuple(self.headers),
            program="Bräde Arena",
            format=form,
        )


def read_bg_text(text: str) -> MatRecord:
    """Parse the text form. Raises :class:`RecordSyntaxError` with the line number."""
    if len(text.encode("utf-8", "replace")) > MAX_MAT_BYTES:
        raise RecordSyntaxError(bg_msg("bg.mat.too_big", limit=f"{MAX_MAT_BYTES:,}"), line=1)
    headers: list[tuple[str, str]] = []
    builder: _Builder | None = None
    last = 1
    for idx, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        last = idx
        if line.startswith("["):
            m = _TAG_RE.match(line)
            if m is None:
                raise RecordSyntaxError(bg_msg("bg.rec.tag_line", text=repr(line)), line=idx)
            if builder is not None:
                raise RecordSyntaxError(bg_msg("bg.rec.tags_first"), line=idx)
            headers.append((m.group("key").strip(), m.group("value")))
            continue
        if builder is None:
            builder = _Builder(headers, idx)
        if (gm := _GAME_RE.match(line)) is not None:
            builder.start(whole_number(gm.group("n")), idx)
            continue
        em = _ENTRY_RE.match(line)
        if em is None:
            raise RecordSyntaxError(bg_msg("bg.rec.line", text=repr(line)), line=idx)
        _entry(builder, em, idx)
    if builder is None:
        builder = _Builder(headers, last)
    return builder.record(last, "text")


def _entry(builder: _Builder, m: re.Match[str], line: int) -> None:
    player = int(m.group("player"))
    if m.group("d1"):
        written = m.group("moves").split()
        moves = tuple(t.lower() for t in written if t != "-")
        for token in moves:
            if not MOVE_TOKEN_RE.match(token):
                raise RecordSyntaxError(bg_msg("bg.mat.move", move=repr(token)), line=line)
        dice = (int(m.group("d1")), int(m.group("d2")))
        builder.add(player, ROLL, line, 0, dice=dice, moves=moves)
    elif m.group("double"):
        builder.add(player, DOUBLE, line, 0, value=whole_number(m.group("double")))
    elif m.group("take"):
        builder.add(player, TAKE, line, 0)
    elif m.group("drop"):
        builder.add(player, DROP, line, 0)
    elif m.group("resign"):
        builder.add(player, "resign", line, 0, level=whole_number(m.group("resign")))
    else:
        builder.add(player, WIN, line, 0, value=whole_number(m.group("wins")))


def _bad(detail: str, *, game: int | None = None, turn: int | None = None) -> RecordSyntaxError:
    return RecordSyntaxError(bg_msg("bg.rec.json", detail=detail), game=game, turn=turn)


def _int(value: object, what: str, game: int, turn: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be a whole number, not {value!r}", game=game, turn=turn)
    return value


def read_bg_json(text: str) -> MatRecord:
    """Parse the JSON form; errors name the game and the turn (1-based) where they are."""
    if len(text.encode("utf-8", "replace")) > MAX_MAT_BYTES:
        raise RecordSyntaxError(bg_msg("bg.mat.too_big", limit=f"{MAX_MAT_BYTES:,}"), line=1)
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise RecordSyntaxError(bg_msg("bg.rec.json", detail=exc.msg), line=exc.lineno) from None
    if not isinstance(data, Mapping):
        raise _bad("the record is a JSON object")
    tags = data.get("tags", {})
    if not isinstance(tags, Mapping):
        raise _bad("'tags' is an object of strings")
    headers = [("Game", str(data.get("game", "")))]
    headers += [(str(k), str(v)) for k, v in tags.items() if str(k).lower() != "game"]
    builder = _Builder(headers, None)
    games = data.get("games")
    if not isinstance(games, list):
        raise _bad("'games' is a list")
    for number, game in enumerate(games, start=1):
        builder.start(number, None)
        turns = game.get("turns") if isinstance(game, Mapping) else None
        if not isinstance(turns, list):
            raise _bad("a game is an object with a list 'turns'", game=number)
        for turn_no, turn in enumerate(turns, start=1):
            if not isinstance(turn, Mapping):
                raise _bad("a turn is an object", game=number, turn=turn_no)
            player = _int(turn.get("player"), "'player'", number, turn_no)
            try:
                _json_turn(builder, turn, player, number, turn_no)
            except RecordSyntaxError as exc:
                raise exc.located(game=number, turn=turn_no) from None
    return builder.record(None, "json")


def _json_turn(
    builder: _Builder, turn: Mapping[str, Any], player: int, game: int, number: int
) -> None:
    if "dice" in turn:
        dice = turn["dice"]
        if not (
            isinstance(dice, list)
            and len(dice) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise _bad(f"'dice' is two dice of 1–6, not {dice!r}")
        moves = turn.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise _bad("'moves' is a list of moves like \"8/5\"")
        tokens = tuple(m.lower() for m in moves)
        for token in tokens:
            if not MOVE_TOKEN_RE.match(token):
                raise RecordSyntaxError(bg_msg("bg.mat.move", move=repr(token)))
        builder.add(player, ROLL, None, number, dice=(dice[0], dice[1]), moves=tokens)
    elif "double" in turn:
        builder.add(
            player, DOUBLE, None, number, value=_int(turn["double"], "'double'", game, number)
        )
    elif turn.get("take") is True:
        builder.add(player, TAKE, None, number)
    elif turn.get("drop") is True:
        builder.add(player, DROP, None, number)
    elif "resigns" in turn:
        level = _int(turn["resigns"], "'resigns'", game, number)
        builder.add(player, "resign", None, number, level=level)
    elif "wins" in turn:
        builder.add(player, WIN, None, number, value=_int(turn["wins"], "'wins'", game, number))
    else:
        raise _bad("a turn has dice, double, take, drop, resigns or wins")


def _headers(record: MatRecord) -> list[tuple[str, str]]:
    """The record's tags with the ones this form needs first (Game, Player 1/2, Length)."""
    needed = [
        ("Game", GAME_TAG),
        ("Player 1", record.players[0]),
        ("Player 2", record.players[1]),
        ("Length", str(record.length)),
    ]
    keys = {k.lower() for k, _ in needed}
    return needed + [(k, v) for k, v in record.headers if k.lower() not in keys]


def _entry_text(action: Action) -> str:
    player = action.player + 1
    if action.kind == ROLL:
        assert action.dice is not None
        moves = " ".join(action.moves) or "-"
        return f"{player} {action.dice[0]}{action.dice[1]}: {moves}"
    if action.kind == DOUBLE:
        return f"{player} doubles {action.value}"
    if action.kind == TAKE:
        return f"{player} takes"
    if action.kind == DROP:
        return f"{player} drops"
    return f"{player} wins {action.value}"


def write_bg_text(record: MatRecord) -> str:
    """The record in the project's own text form (a resignation is written as the
    ``wins`` it gives, which reads back the same)."""
    out = [f'[{key} "{value}"]' for key, value in _headers(record)]
    for game in record.games:
        out += ["", f"Game {game.number}"]
        out += [_entry_text(action) for action in game.actions]
    return "\n".join(out) + "\n"


def _entry_json(action: Action) -> dict[str, object]:
    out: dict[str, object] = {"player": action.player + 1}
    if action.kind == ROLL:
        assert action.dice is not None
        out.update(dice=list(action.dice), moves=list(action.moves))
    elif action.kind == DOUBLE:
        out["double"] = action.value
    elif action.kind in (TAKE, DROP):
        out[action.kind] = True
    else:
        out["wins"] = action.value
    return out


def write_bg_json(record: MatRecord) -> str:
    """The record in the project's own JSON form."""
    tags = {k: v for k, v in _headers(record) if k != "Game"}
    data = {
        "game": GAME_TAG,
        "tags": tags,
        "games": [{"turns": [_entry_json(a) for a in game.actions]} for game in record.games],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
