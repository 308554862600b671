"""Game records (game-record.md): the data model, and reading/writing both forms.

A *record* holds a match (or a single game): tags, then games; each game opens with a
*tek* (the two single dice of R2 that decide who starts: the lower die starts), a
``Starter`` or a set-up ``Position``, and lists its turns and the claimed result.

- :func:`read_record` reads either form, chosen by content (JSON starts with ``{``).
- :func:`read_text` / :func:`read_json` read one form; both accept the liberal forms
  the doc allows (any die order, chains ``1/7/11``, ``(n)`` repeats, optional ``*``).
- :func:`write_text` / :func:`write_json` write the one canonical form of each; text →
  JSON → text loses nothing (line numbers are not part of a record's value).

Every problem with the input raises :class:`~engine.errors.RecordSyntaxError` naming the
line (text form) or the game and turn (JSON form); nothing else escapes the readers.

Decisions where game-record.md is silent (a careful club organiser's reading):

- Size limits: a record over ``MAX_RECORD_BYTES`` (1 MB = 1,000,000 bytes of UTF-8) or
  a game over ``MAX_TURNS_PER_GAME`` (10,000 turn lines) is a syntax error.
- Text is UTF-8 (a leading BOM is ignored); lines end with ``\\n`` or ``\\r\\n``.
- A record must hold at least one game, and game 1 must open with ``Tek``, ``Starter``
  or ``Position``. Nothing but tags, comments and blank lines may come before ``Game 1``.
- The optional turn number ``N.`` is accepted and not checked (people number turns
  either per turn or per pair of turns, as in chess).
- ``(n)`` repeats the whole token (a step or a chain) n times, 1 ≤ n ≤ 6; a ``*`` inside
  a repeated token claims a hit on its first repetition only (``13/19*(2)``: the first
  checker hits, the second lands on it).
- Dice are kept higher die first (the order a roll is written in means nothing).
- Sides must alternate inside a game (a resignation is that side's turn); a turn after
  a resignation or after ``Result`` is a syntax error.
- Tag values may contain ``\\"`` and ``\\\\`` escapes, but no control characters; tag
  keys are letters, digits and ``_``. A key given twice is an error.
- In the JSON form unknown keys are errors (a misspelt ``"resign"`` must not vanish);
  ``"number"`` in a game is optional and, if present, must be the game's position.
- The ``Position`` text is checked and stored in the engine's canonical spelling
  (``Position.from_text(...).text()``).
- A clocked game's remaining time (the mover's, after the turn) is written as PGN writes
  it, ``[%clk H:MM:SS]``, in the turn line's comment: ``W 6-4: 1/7 1/5 ; [%clk 0:01:52]``.
  The format's comment is ``;`` to the end of the line (PGN's ``{}`` is not part of it),
  so a reader that knows nothing of clocks ignores it, as every comment; this reader keeps
  it (``TurnRecord.clock``, ms; tenths as ``0:01:52.3`` accepted, a malformed one is an
  ordinary comment). It is an annotation, not part of a record's value: it takes no part
  in equality. The JSON form keeps it as a turn's ``"clock"``, in ms (a whole number
  ≥ 0; anything else is an error there, as every malformed key is).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import RecordSyntaxError
from engine.messages import Msg, detail, msg
from engine.types import BAR, OFF, Outcome, OutcomeKind, Pattern, Side

MAX_RECORD_BYTES = 1_000_000
MAX_TURNS_PER_GAME = 10_000
MAX_REPEAT = 6

GameLimit = Callable[[Mapping[str, str]], int | None]
"""The most games a record may hold, from its tags (None: no limit); see :func:`read_record`."""

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_TURNS_PER_GAME",
    "GameLimit",
    "GameRecord",
    "MatchRecord",
    "RecordStep",
    "TurnRecord",
    "clock_text",
    "read_json",
    "read_record",
    "read_text",
    "write_json",
    "write_text",
]


# ---------------------------------------------------------------------------- data model


@dataclass(frozen=True, slots=True)
class RecordStep:
    """One step as recorded: ``src``/``dst`` in the mover's numbering (0 bar, 25 off)."""

    src: int
    dst: int
    hit_claim: bool = False  # a ``*`` was written after the step

    def text(self) -> str:
        return f"{_point_text(self.src)}/{_point_text(self.dst)}{'*' if self.hit_claim else ''}"


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn line: a roll and its steps, or a resignation (``resigns``, no dice)."""

    side: Side
    dice: tuple[int, ...] = ()
    steps: tuple[RecordStep, ...] = ()
    resigns: bool = False
    line: int | None = field(default=None, compare=False)
    # the mover's remaining time after the turn, in ms (``[%clk]``; None: no clock)
    clock: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game. At most one of ``tek``/``starter``/``position`` is set.

    ``line`` is the ``Game N`` line; ``opening_line``, ``result_line`` and ``end_line``
    (the game's last line) locate errors. None of the lines take part in equality.
    """

    number: int
    tek: tuple[int, int] | None = None
    starter: Side | None = None
    position: str | None = None
    turns: tuple[TurnRecord, ...] = ()
    result: Outcome | None = None
    line: int | None = field(default=None, compare=False)
    opening_line: int | None = field(default=None, compare=False)
    result_line: int | None = field(default=None, compare=False)
    end_line: int | None = field(default=None, compare=False)

    @property
    def tek_starter(self) -> Side | None:
        """R2: the side whose tek die is lower starts (White's die is written first)."""
        if self.tek is None:
            return None
        return Side.WHITE if self.tek[0] < self.tek[1] else Side.BLACK


@dataclass(frozen=True)
class MatchRecord:
    """A whole record: tags (in their written order) and games.

    ``more_games`` is set when the record was read with a game limit and holds more games
    than it allows: ``games`` then stops at the limit and ``more_games_line`` is the line
    of the first game over it (None in the JSON form).
    """

    tags: dict[str, str]
    games: tuple[GameRecord, ...]
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False)
    more_games: bool = field(default=False, compare=False)
    more_games_line: int | None = field(default=None, compare=False)


# ---------------------------------------------------------------------------- reading


def read_record(data: str | bytes, *, max_games: int | GameLimit | None = None) -> MatchRecord:
    """Read a record in either form; JSON is recognised by a leading ``{``.

    ``max_games``: the most games the record may hold (S1: a match's length plus the
    resignations its policy allows), or a function giving it from the tags (which may
    raise :class:`~engine.errors.MatchError` for bad match tags). Reading stops at the
    first game over it — the games beyond are neither read nor checked, so their size
    costs nothing — and the record says so (``more_games``); the replay reports them.
    """
    text = _decode(data)
    if text.lstrip().startswith("{"):
        return _read_json_text(text, max_games)
    return _read_text_checked(text, max_games)


def game_limit(max_games: int | GameLimit | None, tags: Mapping[str, str]) -> int | None:
    """The game limit of :func:`read_record` for a record with these tags."""
    if max_games is None or isinstance(max_games, int):
        return max_games
    return max_games(tags)


def read_text(text: str | bytes) -> MatchRecord:
    """Read the text form (game-record.md, "Text form")."""
    return _read_text_checked(_decode(text))


def read_json(text: str | bytes) -> MatchRecord:
    """Read the JSON form (game-record.md, "JSON form")."""
    return _read_json_text(_decode(text))


def _decode(data: str | bytes) -> str:
    """Check the size limit and return text (UTF-8, BOM dropped)."""
    if isinstance(data, str):
        size = len(data)
        if size <= MAX_RECORD_BYTES // 4 or (
            size <= MAX_RECORD_BYTES
            and len(data.encode("utf-8", "surrogatepass")) <= MAX_RECORD_BYTES
        ):
            return data[1:] if data.startswith("\ufeff") else data
        raw = data.encode("utf-8", "surrogatepass")
        line = raw[: MAX_RECORD_BYTES + 1].count(b"\n") + 1
        raise _too_big(line)
    if not isinstance(data, bytes | bytearray | memoryview):
        raise RecordSyntaxError(msg("record.not_text", type=type(data).__name__))
    raw = bytes(data)
    if len(raw) > MAX_RECORD_BYTES:
        raise _too_big(raw[: MAX_RECORD_BYTES + 1].count(b"\n") + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RecordSyntaxError(msg("record.not_utf8", byte=exc.start + 1), line=line) from None
    return text[1:] if text.startswith("\ufeff") else text


def _too_big(line: int) -> RecordSyntaxError:
    return RecordSyntaxError(
        msg("record.too_big", limit=f"{MAX_RECORD_BYTES:,}", line=line), line=line
    )


_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:;.*)?$')
_GAME_RE = re.compile(r"game\s+(\d+)$", re.IGNORECASE)
_KEYWORD_RE = re.compile(r"(tek|starter|position|result)\s*:\s*(.*)$", re.IGNORECASE)
_TURN_RE = re.compile(
    r"(?:(\d+)\s*\.\s*)?(white|black|w|b)\s+(?:(resigns?)|(\d)(?:-?(\d))?\s*:(.*))$",
    re.IGNORECASE,
)
_DICE_RE = re.compile(r"(\d)(?:-?(\d))?$")
_CLK_RE = re.compile(r"\[%clk\s+(\d{1,3}):([0-5]\d):([0-5]\d)(?:\.(\d))?\]")
_SPLIT_RE = re.compile(r"[\s,]+")
_TOKEN_RE = re.compile(r"(bar|\d{1,2})((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d{1,2})\))?$")
_ESCAPE_RE = re.compile(r"\\(.)")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_SIDE_WORDS = {"w": Side.WHITE, "white": Side.WHITE, "b": Side.BLACK, "black": Side.BLACK}


class _GameBuilder:
    """Collects one game while reading; checks the order of its lines."""

    __slots__ = (
        "end_line",
        "line",
        "next_side",
        "number",
        "opened",
        "opening_line",
        "position",
        "result",
        "result_line",
        "starter",
        "tek",
        "turns",
    )

    def __init__(self, number: int, line: int | None) -> None:
        self.number = number
        self.line = line
        self.tek: tuple[int, int] | None = None
        self.starter: Side | None = None
        self.position: str | None = None
        self.opening_line: int | None = None
        self.opened = False
        self.turns: list[TurnRecord] = []
        self.result: Outcome | None = None
        self.result_line: int | None = None
        self.end_line = line
        self.next_side: Side | None = None

    def error(self, message: str | Msg, line: int | None) -> RecordSyntaxError:
        return RecordSyntaxError(message, game=self.number, line=line)

    def set_opening(self, kind: str, line: int | None) -> None:
        if self.opened:
            raise self.error(msg("record.one_opening", game=self.number), line)
        if self.turns or self.result is not None:
            raise self.error(msg("record.opening_late", kind=kind), line)
        self.opened = True
        self.opening_line = line

    def add_turn(self, turn: TurnRecord) -> None:
        if self.result is not None:
            raise self.error(msg("record.turn_after_result"), turn.line)
        if self.turns and self.turns[-1].resigns:
            raise self.error(
                msg("record.turn_after_resign", side=self.turns[-1].side.word), turn.line
            )
        if self.next_side is not None and turn.side is not self.next_side:
            raise self.error(
                msg("record.alternate", side=self.next_side.word, other=turn.side.word),
                turn.line,
            )
        if len(self.turns) >= MAX_TURNS_PER_GAME:
            raise self.error(
                msg("record.too_many_turns", game=self.number, limit=f"{MAX_TURNS_PER_GAME:,}"),
                turn.line,
            )
        self.turns.append(turn)
        self.next_side = turn.side.other
        self.end_line = turn.line

    def set_result(self, result: Outcome, line: int | None) -> None:
        if self.result is not None:
            raise self.error(msg("record.two_results", game=self.number), line)
        self.result = result
        self.result_line = line
        self.end_line = line

    def build(self) -> GameRecord:
        if self.number == 1 and not self.opened:
            raise self.error(msg("record.game1_opening"), self.line)
        return GameRecord(
            number=self.number,
            tek=self.tek,
            starter=self.starter,
            position=self.position,
            turns=tuple(self.turns),
            result=self.result,
            line=self.line,
            opening_line=self.opening_line,
            result_line=self.result_line,
            end_line=self.end_line,
        )


def _read_text_checked(text: str, max_games: int | GameLimit | None = None) -> MatchRecord:
    record = _read_text(text, max_games)
    _check_rules_tags(record.tags, record.tag_lines)
    return record


def _read_text(text: str, max_games: int | GameLimit | None = None) -> MatchRecord:
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    games: list[GameRecord] = []
    game: _GameBuilder | None = None
    limit: int | None = None
    more_line: int | None = None
    for index, raw in enumerate(text.split("\n")):
        lineno = index + 1
        line = raw.strip()
        if not line or line[0] == ";":
            continue
        if line[0] == "[":
            match = _TAG_RE.match(line)
            if match is None:
                raise RecordSyntaxError(msg("record.tag_line", text=_show(line)), line=lineno)
            if game is not None or games:
                raise RecordSyntaxError(msg("record.tags_first"), line=lineno)
            key, value = match.group(1), _ESCAPE_RE.sub(r"\1", match.group(2))
            _check_tag(key, value, tags, lineno)
            tags[key] = value
            tag_lines[key] = lineno
            continue
        semi = line.find(";")
        comment = ""
        if semi >= 0:
            line, comment = line[:semi].rstrip(), line[semi + 1 :]
        first = line[0].lower()
        if first == "g" and (match := _GAME_RE.match(line)) is not None:
            digits = match.group(1)
            number = int(digits) if len(digits) <= 9 else 10**9
            expected = len(games) + (2 if game is not None else 1)
            if number != expected:
                raise RecordSyntaxError(
                    msg("record.game_number", expected=expected, found=_show(digits, 12)),
                    game=number if number < 10**9 else None,
                    line=lineno,
                )
            if number == 1 and max_games is not None:
                # the tags are complete (they come before the first game)
                _check_rules_tags(tags, tag_lines)
                limit = game_limit(max_games, tags)
            if game is not None:
                games.append(game.build())
            if limit is not None and number > limit:
                game = None
                more_line = lineno  # S1: the games from here on cannot be played
                break
            game = _GameBuilder(number, lineno)
            continue
        if game is None:
            raise RecordSyntaxError(msg("record.expected_game", text=_show(line)), line=lineno)
        if first in "tspr" and (match := _KEYWORD_RE.match(line)) is not None:
            _read_keyword(game, match.group(1).lower(), match.group(2).strip(), lineno)
            continue
        match = _TURN_RE.match(line)
        if match is None:
            raise game.error(msg("record.not_a_line", text=_show(line)), lineno)
        turn = _read_turn(match, lineno, game)
        if comment and (clk := _CLK_RE.search(comment)) is not None:
            turn = replace(turn, clock=_clock_ms(clk))
        game.add_turn(turn)
    if game is not None:
        games.append(game.build())
    if not games and more_line is None:
        raise RecordSyntaxError(msg("record.no_game"), line=None)
    return MatchRecord(
        tags=tags,
        games=tuple(games),
        tag_lines=tag_lines,
        more_games=more_line is not None,
        more_games_line=more_line,
    )


def _show(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _check_tag(key: str, value: str, tags: Mapping[str, str], line: int | None) -> None:
    if key in tags:
        raise RecordSyntaxError(msg("record.tag_twice", key=repr(key)), line=line)
    if _CONTROL_RE.search(value):
        raise RecordSyntaxError(msg("record.tag_control", key=repr(key)), line=line)


def _read_keyword(game: _GameBuilder, key: str, body: str, line: int | None) -> None:
    if key == "result":
        try:
            result = Outcome.from_text(body)
        except ValueError as exc:
            raise game.error(msg("record.bad_result", detail=detail(exc)), line) from None
        game.set_result(result, line)
        return
    game.set_opening(key.capitalize(), line)
    if key == "tek":
        match = _DICE_RE.match(body)
        if match is None or match.group(2) is None:
            raise game.error(msg("record.bad_tek", text=_show(body)), line)
        white, black = int(match.group(1)), int(match.group(2))
        _check_die(white, game, line)
        _check_die(black, game, line)
        if white == black:
            raise game.error(msg("record.equal_tek", tek=f"{white}-{black}"), line)
        game.tek = (white, black)
    elif key == "starter":
        side = _SIDE_WORDS.get(body.lower())
        if side is None:
            raise game.error(msg("record.bad_starter", text=_show(body)), line)
        game.starter = side
    else:
        game.position = _canonical_position(body, game, line)


def _canonical_position(body: str, game: _GameBuilder | None, line: int | None) -> str:
    from engine.position import Position  # the rules core; imported late to keep this light

    try:
        return Position.from_text(body).text()
    except ValueError as exc:
        number = game.number if game is not None else None
        raise RecordSyntaxError(
            msg("record.bad_position", detail=detail(exc)), game=number, line=line
        ) from None


def _clock_ms(match: re.Match[str]) -> int:
    hours, minutes, seconds, tenths = match.groups()
    whole = (int(hours) * 60 + int(minutes)) * 60 + int(seconds)
    return whole * 1000 + int(tenths or 0) * 100


def clock_text(ms: int) -> str:
    """A remaining time as PGN's ``[%clk]`` writes it: ``[%clk 0:01:52]`` (whole seconds,
    rounded down, as a clock shows them)."""
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"[%clk {hours}:{minutes:02d}:{seconds:02d}]"


def _check_die(die: int, game: _GameBuilder, line: int | None) -> None:
    if not 1 <= die <= 6:
        raise game.error(msg("record.die", die=die), line)


def _read_turn(match: re.Match[str], line: int, game: _GameBuilder) -> TurnRecord:
    side = _SIDE_WORDS[match.group(2).lower()]
    if match.group(3) is not None:
        return TurnRecord(side=side, resigns=True, line=line)
    first = int(match.group(4))
    _check_die(first, game, line)
    if match.group(5) is None:
        dice: tuple[int, ...] = (first,)
    else:
        second = int(match.group(5))
        _check_die(second, game, line)
        dice = (first, second) if first >= second else (second, first)
    body = match.group(6).strip()
    if not body or body == "-":
        return TurnRecord(side=side, dice=dice, line=line)
    steps: list[RecordStep] = []
    for token in _SPLIT_RE.split(body):
        known = _TOKEN_CACHE.get(token)
        if known is None:
            if not token:
                continue
            known = tuple(_read_token(token, game, line))
            if len(_TOKEN_CACHE) >= _TOKEN_CACHE_SIZE:
                _TOKEN_CACHE.clear()
            _TOKEN_CACHE[token] = known
        steps.extend(known)
    return TurnRecord(side=side, dice=dice, steps=tuple(steps), line=line)


# Step tokens repeat a lot (``1/7``, ``24/off``): keep what they read as (errors raise
# and are never kept).
_TOKEN_CACHE: dict[str, tuple[RecordStep, ...]] = {}
_TOKEN_CACHE_SIZE = 4096


def _read_token(token: str, game: _GameBuilder, line: int) -> list[RecordStep]:
    match = _TOKEN_RE.match(token.lower())
    if match is None:
        raise game.error(msg("record.bad_step", text=_show(token)), line)
    src = _read_point(match.group(1), game, line, to=False)
    chain: list[RecordStep] = []
    for part in match.group(2)[1:].split("/"):
        claim = part.endswith("*")
        dst = _read_point(part[:-1] if claim else part, game, line, to=True)
        chain.append(RecordStep(src, dst, claim))
        src = dst
    repeat = match.group(3)
    if repeat is None:
        return chain
    times = int(repeat)
    if not 1 <= times <= MAX_REPEAT:
        raise game.error(msg("record.repeat", limit=MAX_REPEAT, times=times), line)
    plain = [RecordStep(step.src, step.dst, False) for step in chain]
    return chain + plain * (times - 1)


def _read_point(text: str, game: _GameBuilder, line: int, *, to: bool) -> int:
    if text == "bar":
        if to:
            raise game.error(msg("record.step_to_bar"), line)
        return BAR
    if text == "off":
        if not to:
            raise game.error(msg("record.step_from_off"), line)
        return OFF
    point = int(text)
    if not 1 <= point <= 24:
        raise game.error(msg("record.point", point=point), line)
    return point


def _check_rules_tags(tags: Mapping[str, str], lines: Mapping[str, int]) -> None:
    """A ``Rules``/``Addons`` tag with an unknown value is a syntax error on its line."""
    try:
        rules_from_tags(tags)
    except ValueError as exc:
        key = "Addons" if "Addons" in tags and "add-on" in str(exc).lower() else "Rules"
        if key not in tags:
            key = "Addons" if "Addons" in tags else "Rules"
        raise RecordSyntaxError(
            msg("record.bad_tag", key=key, detail=detail(exc)), line=lines.get(key)
        ) from None


def rules_names(tags: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """The rule-set name and add-ons the tags ask for (default ``talisman``)."""
    name = tags.get("Rules", "talisman").strip().lower()
    addons = tuple(a for a in _SPLIT_RE.split(tags.get("Addons", "").strip().lower()) if a)
    return name, addons


def rules_from_tags(tags: Mapping[str, str]) -> Any:
    """The :class:`engine.rules.RuleSet` of a record's tags; ``ValueError`` if unknown."""
    from engine.rules import RuleSet  # the rules core; imported late to keep this light

    name, addons = rules_names(tags)
    return RuleSet.from_names(name=name, addons=addons)


# ---------------------------------------------------------------------------- JSON reading


def _read_json_text(text: str, max_games: int | GameLimit | None = None) -> MatchRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordSyntaxError(f"bad JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise RecordSyntaxError("bad JSON: nested too deeply", line=None) from None
    except ValueError as exc:  # e.g. a number with more digits than Python converts
        raise RecordSyntaxError(f"bad JSON: {exc}", line=None) from None
    return _from_json(data, max_games)


def _expect(value: object, kind: type | tuple[type, ...], what: str, game: int | None) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordSyntaxError(f"{what} has the wrong type ({_json_type(value)})", game=game)
    return value


def _json_type(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__


def _check_keys(
    obj: Mapping[str, Any], allowed: Iterable[str], what: str, game: int | None
) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise RecordSyntaxError(f"{what} has unknown key(s): {', '.join(unknown)}", game=game)


def _from_json(data: object, max_games: int | GameLimit | None = None) -> MatchRecord:
    obj = _expect(data, dict, "the record", None)
    _check_keys(obj, ("tags", "games"), "the record", None)
    raw_tags = _expect(obj.get("tags", {}), dict, '"tags"', None)
    tags: dict[str, str] = {}
    for key, value in raw_tags.items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", key):
            raise RecordSyntaxError(f"tag key {key!r} may hold only letters, digits and _")
        _check_tag(key, _expect(value, str, f"tag {key!r}", None), tags, None)
        tags[key] = value
    raw_games = _expect(obj.get("games"), list, '"games"', None)
    if not raw_games:
        raise RecordSyntaxError("the record holds no game")
    _check_rules_tags(tags, {})
    limit = game_limit(max_games, tags)
    more = False
    if limit is not None and len(raw_games) > limit:
        more = True
        raw_games = raw_games[:limit]  # S1: the games beyond are not read
    games = tuple(_game_from_json(raw, index + 1) for index, raw in enumerate(raw_games))
    return MatchRecord(tags=tags, games=games, more_games=more)


def _game_from_json(raw: object, number: int) -> GameRecord:
    obj = _expect(raw, dict, f"game {number}", number)
    _check_keys(
        obj, ("number", "tek", "starter", "position", "turns", "result"), f"game {number}", number
    )
    game = _GameBuilder(number, None)
    if "number" in obj and _expect(obj["number"], int, '"number"', number) != number:
        raise game.error(f'game {number} carries "number": {obj["number"]}', None)
    openings = [key for key in ("tek", "starter", "position") if obj.get(key) is not None]
    if len(openings) > 1:
        raise game.error(f"game {number} may carry only one of tek, starter or position", None)
    if "tek" in openings:
        tek = _expect(obj["tek"], list, '"tek"', number)
        if len(tek) != 2:
            raise game.error('"tek" holds two dice', None)
        dice = [_expect(die, int, "a tek die", number) for die in tek]
        _read_keyword(game, "tek", f"{dice[0]}-{dice[1]}", None)
    elif "starter" in openings:
        side = _json_side(obj["starter"], '"starter"', number)
        game.set_opening("Starter", None)
        game.starter = side
    elif "position" in openings:
        game.set_opening("Position", None)
        game.position = _canonical_position(
            _expect(obj["position"], str, '"position"', number), game, None
        )
    turns = _expect(obj.get("turns", []), list, '"turns"', number)
    for index, raw_turn in enumerate(turns):
        game.add_turn(_turn_from_json(raw_turn, number, index + 1))
    result = obj.get("result")
    if result is not None:
        game.set_result(_result_from_json(result, number), None)
    return game.build()


def _json_side(value: object, what: str, game: int) -> Side:
    side = _SIDE_WORDS.get(_expect(value, str, what, game).lower())
    if side is None:
        raise RecordSyntaxError(f"{what} must be W or B, not {value!r}", game=game)
    return side


def _turn_from_json(raw: object, game: int, index: int) -> TurnRecord:
    what = f"turn {index}"
    obj = _expect(raw, dict, what, game)
    side = _json_side(obj.get("side"), f'{what}: "side"', game)
    clock = _clock_from_json(obj.get("clock"), game, what)
    if obj.get("resigns") is not None:
        _check_keys(obj, ("side", "resigns", "clock"), what, game)
        if obj["resigns"] is not True:
            raise RecordSyntaxError(f'{what}: "resigns" must be true', game=game)
        return TurnRecord(side=side, resigns=True, clock=clock)
    _check_keys(obj, ("side", "dice", "steps", "clock"), what, game)
    dice = _expect(obj.get("dice"), list, f'{what}: "dice"', game)
    if len(dice) not in (1, 2):
        raise RecordSyntaxError(f"{what}: a roll is one or two dice, not {len(dice)}", game=game)
    values = [_expect(d, int, f"{what}: a die", game) for d in dice]
    for die in values:
        if not 1 <= die <= 6:
            raise RecordSyntaxError(f"{what}: a die shows 1 to 6, not {die}", game=game)
    steps_raw = _expect(obj.get("steps", []), list, f'{what}: "steps"', game)
    steps = tuple(_step_from_json(step, game, what) for step in steps_raw)
    return TurnRecord(side=side, dice=tuple(sorted(values, reverse=True)), steps=steps, clock=clock)


def _clock_from_json(raw: object, game: int, what: str) -> int | None:
    """A turn's ``"clock"``: the mover's remaining ms after it (None: no clock)."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise RecordSyntaxError(
            f'{what}: "clock" is the mover\'s remaining time in ms (a whole number ≥ 0), '
            f"not {raw!r}",
            game=game,
        )
    return raw


def _step_from_json(raw: object, game: int, what: str) -> RecordStep:
    step = _expect(raw, list, f"{what}: a step", game)
    if len(step) not in (2, 3) or (len(step) == 3 and step[2] != "*"):
        raise RecordSyntaxError(f'{what}: a step is [from, to] or [from, to, "*"]', game=game)
    src = _expect(step[0], int, f"{what}: a step's from", game)
    dst = _expect(step[1], int, f"{what}: a step's to", game)
    if not BAR <= src < OFF or not BAR < dst <= OFF:
        raise RecordSyntaxError(
            f"{what}: step [{src}, {dst}] (from is 0–24, to is 1–25; 0 bar, 25 off)", game=game
        )
    return RecordStep(src, dst, len(step) == 3)


def _result_from_json(raw: object, game: int) -> Outcome:
    obj = _expect(raw, dict, '"result"', game)
    _check_keys(obj, ("winner", "outcome", "pattern", "munk"), '"result"', game)
    winner = _json_side(obj.get("winner"), '"result": "winner"', game)
    try:
        kind = OutcomeKind.from_text(_expect(obj.get("outcome"), str, '"outcome"', game))
        pattern_text = obj.get("pattern")
        pattern = (
            None if pattern_text is None else Pattern(_expect(pattern_text, str, '"pattern"', game))
        )
        munk = _expect(obj.get("munk", False), bool, '"munk"', game)
        return Outcome(winner, kind, pattern, munk)
    except RecordSyntaxError:
        raise
    except ValueError as exc:
        raise RecordSyntaxError(f'bad "result": {exc}', game=game) from None


# ---------------------------------------------------------------------------- writing


def _point_text(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def _tag_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def steps_text(steps: Sequence[RecordStep]) -> str:
    """Canonical PLAY text: chains merged, identical plain steps/chains as ``(n)``."""
    if not steps:
        return "-"
    chains: list[list[RecordStep]] = []
    for step in steps:
        if chains and chains[-1][-1].dst == step.src:
            chains[-1].append(step)
        else:
            chains.append([step])
    words: list[str] = []
    index = 0
    while index < len(chains):
        chain = chains[index]
        count = 1
        if not any(step.hit_claim for step in chain):
            while index + count < len(chains) and chains[index + count] == chain:
                count += 1
        words.append(_chain_text(chain) + (f"({count})" if count > 1 else ""))
        index += count
    return " ".join(words)


def _chain_text(chain: Sequence[RecordStep]) -> str:
    parts = [_point_text(chain[0].src)]
    parts.extend(_point_text(s.dst) + ("*" if s.hit_claim else "") for s in chain)
    return "/".join(parts)


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def turn_text(turn: TurnRecord) -> str:
    """One canonical turn line, e.g. ``W 6-4: 1/7 1/5`` or ``B resigns``."""
    if turn.resigns:
        return f"{turn.side.value} resigns"
    return f"{turn.side.value} {_dice_text(turn.dice)}: {steps_text(turn.steps)}"


def _turn_line(turn: TurnRecord) -> str:
    """A turn line with its remaining time (``[%clk]``) in its comment, when it has one."""
    if turn.clock is None:
        return turn_text(turn)
    return f"{turn_text(turn)} ; {clock_text(turn.clock)}"


def write_text(record: MatchRecord) -> str:
    """The canonical text form: tags, then each game; turn lines without numbers."""
    out: list[str] = [f'[{key} "{_tag_value(value)}"]' for key, value in record.tags.items()]
    for game in record.games:
        if out:
            out.append("")
        out.append(f"Game {game.number}")
        if game.tek is not None:
            out.append(f"Tek: {game.tek[0]}-{game.tek[1]}")
        elif game.starter is not None:
            out.append(f"Starter: {game.starter.word}")
        elif game.position is not None:
            out.append(f"Position: {game.position}")
        out.extend(_turn_line(turn) for turn in game.turns)
        if game.result is not None:
            out.append(f"Result: {game.result.text()}")
    return "\n".join(out) + "\n"


def _turn_json(turn: TurnRecord) -> dict[str, Any]:
    out: dict[str, Any]
    if turn.resigns:
        out = {"side": turn.side.value, "resigns": True}
    else:
        steps = [[s.src, s.dst, "*"] if s.hit_claim else [s.src, s.dst] for s in turn.steps]
        out = {"side": turn.side.value, "dice": list(turn.dice), "steps": steps}
    if turn.clock is not None:
        out["clock"] = turn.clock
    return out


def result_json(result: Outcome) -> dict[str, Any]:
    """The JSON ``result`` object of a game (``vackert_spel``, ``sprangjan``)."""
    return {
        "winner": result.winner.value,
        "outcome": result.kind.value,
        "pattern": None if result.pattern is None else result.pattern.value,
        "munk": result.munk,
    }


def write_json(record: MatchRecord) -> str:
    """The canonical JSON form: one turn per line, keys in the doc's order."""

    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    games: list[str] = []
    for game in record.games:
        head: list[str] = []
        if game.tek is not None:
            head.append(f'"tek": {dump(list(game.tek))}')
        elif game.starter is not None:
            head.append(f'"starter": {dump(game.starter.value)}')
        elif game.position is not None:
            head.append(f'"position": {dump(game.position)}')
        turns = ",\n".join(f"      {dump(_turn_json(turn))}" for turn in game.turns)
        head.append(f'"turns": [\n{turns}\n     ]' if turns else '"turns": []')
        result = None if game.result is None else result_json(game.result)
        head.append(f'"result": {dump(result)}')
        games.append("    {" + ",\n     ".join(head) + "}")
    body = ",\n".join(games)
    return f'{{\n  "tags": {dump(record.tags)},\n  "games": [\n{body}\n  ]\n}}\n'
