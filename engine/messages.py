"""The engine's and scoring's messages: a stable code, parameters, and the English text.

Every error the engine or scoring reports on a record or a play carries a :class:`Msg`:
a code (``"step.own_band"``), its parameters (``{"side": "White", "point": 6}``) and,
made from the two, the English text of :data:`MESSAGES` (``"R5.3: White may not make a
band on point 6"``). The CLI (``manage.py replay``) and the stored verdict use the English
text; the pages and the API render the code and parameters in their reader's language
(``matches.engine_text``), so this package needs no Django and no translation.

Parameters are ``str``, ``int`` or a nested :class:`Msg` (a wrapped value error such as a
bad ``Position:``). A side is passed as its English word, ``White`` or ``Black``; the
edge translates it. A rule's number stays in the text in every language (``R5.3``).

An entry of :data:`MESSAGES` is a template for :meth:`str.format`, or a
:class:`Plural` whose form follows one integer parameter (English: 1 singular, else
plural; other languages have their own rules at the edge).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

Param = Union[str, int, "Msg"]


@dataclass(frozen=True, slots=True)
class Plural:
    """A message with a singular and a plural form chosen by the integer ``count``."""

    singular: str
    plural: str
    count: str


# Code → English template. Codes are stable: pages and stored reports refer to them.
MESSAGES: dict[str, str | Plural] = {
    # A message the engine has no code for (a value error from outside the catalogue).
    "text": "{text}",
    # ---- step legality (verify.py); R numbers from rules.md
    "step.no_checker": "R4: {side} has no checker on point {point} ({where})",
    "step.no_checker_bar": "R4: {side} has no checker on the bar ({where})",
    "step.bar_first": Plural(
        "R6: {side} has {count} checker on the bar and must enter before moving {where}",
        "R6: {side} has {count} checkers on the bar and must enter before moving {where}",
        "count",
    ),
    "step.own_band": "R5.3: {side} may not make a band on point {point}",
    "step.entry_own": "R6: {side} may not enter onto own checkers on point {point}",
    "step.blocked": (
        "R5.1: {side} may not land on point {point} ({where}): {other} has a band there "
        "that may not be blasted (R9)"
    ),
    "step.blast_14": (
        "R9(c): {side} has borne off 14 checkers and may not blast {other}'s band on "
        "point {point} ({where})"
    ),
    "step.not_all_home": (
        "R7: {side} may bear off only with every checker on points 19–24 and none on "
        "the bar ({where})"
    ),
    "step.not_rearmost": (
        "R7: a {die} bears {side}'s checker off from point {point} only if it is the "
        "rearmost (the rearmost is on point {rear})"
    ),
    "step.vasa_rearmost": (
        "R7 ({rules}): {side} may bear off only from the rearmost point ({rear}), not from {point}"
    ),
    "step.run": (
        "R5 ({rules}): {side} may not have more than five consecutive bands in {other}'s "
        "path ({where})"
    ),
    "step.illegal": "R4: illegal step {where}",
    "step.no_die": "R4: no die of {dice} left for {side}'s step {where} (dice left: {left})",
    "step.no_die_left": "R4: no die of {dice} left for {side}'s step {where} (dice left: none)",
    "step.backwards": "R4: {side}'s step {where} does not move forward on the board",
    "step.too_many": "R3: {side} plays {steps} steps, but {dice} gives at most {count}",
    "step.after_end": (
        "{rule}: the game ended with {what} at {side}'s step {where}; no further steps may "
        "be played"
    ),
    # R8 values: pips on the board variants, dice and their sum otherwise
    "value.points": Plural("{count} point", "{count} points", "count"),
    "value.dice": Plural("{count} die (sum {sum})", "{count} dice (sum {sum})", "count"),
    "play.r8": (
        "R8: {side} must play {best} with {dice} here, this play uses {value} (e.g. {example})"
    ),
    "play.r10": (
        "R10: under {rules} a jan must come from a play that satisfies R8; {side} must play "
        "{best} with {dice} here (e.g. {example}), and these steps cannot be continued that far"
    ),
    # the example of play.r8/play.r10 when the maximum is reached only past a step that ends
    # the game (rules.md R8: counted as if the game went on)
    "play.example_past_end": "{play}, counted as if the game went on after {end}, which ends it",
    # ---- turns and games (game.py, replay.py)
    "game.over": "the game is over ({outcome}); no more turns may be played",
    "game.over_resign": "the game is over ({outcome}); cannot resign",
    "roll.bad": "R3: a roll is one or two dice of 1–6, not {dice}",
    "roll.single_never": "R3: a single die is never allowed under {rules} (R13)",
    "roll.single_not_here": (
        "R13: {side} may not roll a single die here (no single step of one checker "
        "completes a pattern)"
    ),
    "roll.single_must": Plural(
        "R13: {side} must roll a single die this turn ({count} single-die turn left in the series)",
        "R13: {side} must roll a single die this turn ({count} single-die turns left in the "
        "series)",
        "count",
    ),
    "resign.band": "R14: {side} may not resign: {side} has had a band on points 13–24",
    "resign.janblotta": "R14: {side} may not resign: {side} has had the janblotta out",
    "turn.after_end": "{rule}: the game was already over ({outcome}); no more turns may follow",
    "turn.wrong_side": "it is {side}'s turn, not {other}'s (R3)",
    "turn.position_side": "the Position gives {side} the move, but {other} plays first",
    "turn.hit_claim": "R5.2: step {step} is marked * but hits nothing there",
    "turn.json": "turn {turn} ({letter}): {detail}",
    "starter.loser": (
        "wrong starter: {side} plays first, but the loser of game {previous}, {loser}, "
        "starts game {game} (R2, S5)"
    ),
    "starter.tek_loser": (
        "wrong starter: Tek {tek} gives {side}, but the loser of game {previous}, {loser}, "
        "starts game {game} (R2, S5)"
    ),
    "starter.named_loser": (
        "wrong starter: Starter: {side}, but the loser of game {previous}, {loser}, starts "
        "game {game} (R2, S5)"
    ),
    "starter.tek": (
        "wrong starter: Tek {tek} gives the first turn to {side}, but {other} plays first "
        "(R2: the lower tek die starts, S5)"
    ),
    "starter.named": "wrong starter: Starter: {side}, but {other} plays first (R2, S5)",
    "game.no_opening": "game 1 must open with Tek, Starter or Position (R2)",
    "result.not_ended": "the record claims {claimed}, but the play has not ended the game",
    "result.differs": "the record claims {claimed}, but the play gives {outcome}",
    "game.incomplete": (
        "game {game} is incomplete: the play does not end it and there is no Result"
    ),
    "record.bad_position": "bad Position: {detail}",
    "record.bad_rules": "bad Rules/Addons tag: {detail}",
    "record.bad_tag": "bad {key} tag: {detail}",
    "record.bad_result": "bad Result line: {detail}",
    # ---- positions, outcomes, rule sets (position.py, types.py, rules.py)
    "position.fields": (
        "a position has three fields separated by '|' (White, Black, side to move), "
        "got {count}: {text}"
    ),
    "position.field_start": "a board field starts with W or B: {text}",
    "position.side_twice": "{side} is given twice in the position",
    "position.item": "{side}: {text} is not 'point', 'point:count' or 'bar:count'",
    "position.point_range": "{side}: point {point} is out of range (1–24 or bar)",
    "position.point_twice": "{side}: point {point} is given twice",
    "position.too_many_on": "{side}: {count} checkers on {point}, more than 15",
    "position.too_many": "{side} has {count} checkers, more than 15",
    "position.band_2_11": "R5.3: {side} cannot have a band on point {point} (points 2–11)",
    "position.needs_both": "a position needs a White and a Black field",
    "position.both_sides": (
        "White's point {point} (Black's {other_point}) holds checkers of both sides"
    ),
    "position.over_jan": "the position is already over: {side} is jan (R10)",
    "position.over_off": "the position is already over: {side} has borne off every checker",
    "position.band_7": (
        "R5.3: {side} cannot have a band on point 7 (a double-six stack exists only under "
        "board + double-six)"
    ),
    "position.run": Plural(
        "R5 ({rules}): {side} cannot have more than {count} consecutive band in {other}'s path",
        "R5 ({rules}): {side} cannot have more than {count} consecutive bands in {other}'s path",
        "count",
    ),
    "side.bad": "not a side: {text} (expected W, B, White or Black)",
    "outcome.bad": "not an outcome: {text} (expected hemspel, vackert, jan, sprängjan or uppgivet)",
    "outcome.pattern": "a pattern goes with vackert spel, and vackert spel needs one",
    "outcome.munk": "munk applies only to hemspel and vackert spel (R11, R12)",
    "outcome.words": "a result needs a winner and an outcome: {text}",
    "outcome.word": "unexpected word {word} in result {text}",
    "rules.unknown": "unknown rule set {name} (expected one of {expected})",
    "rules.unknown_addon": "unknown add-on {name} (expected one of {expected})",
    "rules.addons_board": "add-ons ({addons}) exist only with rule set 'board', not {name} (R15)",
    # ---- record syntax (record.py)
    "record.not_text": "a record is text or bytes, not {type}",
    "record.not_utf8": "the record is not UTF-8 text (byte {byte})",
    "record.too_big": (
        "the record is larger than {limit} bytes (1 MB); it passes the limit on line {line}"
    ),
    "record.game1_opening": (
        "game 1 must open with Tek, Starter or Position (R2: the tek decides who starts the "
        "first game)"
    ),
    "record.one_opening": "game {game} may open with only one of Tek, Starter or Position",
    "record.opening_late": "{kind} must come before the first turn of the game",
    "record.turn_after_result": "a turn after the Result line",
    "record.turn_after_resign": "a turn after {side} resigned",
    "record.alternate": "sides must alternate: {side} is to play, not {other}",
    "record.too_many_turns": "game {game} has more than {limit} turns",
    "record.two_results": "game {game} has two Result lines",
    "record.tag_line": 'malformed tag line (expected [Key "Value"]): {text}',
    "record.tags_first": "tags must come before the first game",
    "record.game_number": (
        "expected 'Game {expected}', found 'Game {found}' (games count from 1 without gaps)"
    ),
    "record.expected_game": "expected a tag or 'Game 1', found {text}",
    "record.not_a_line": "not a turn, result or game line: {text}",
    "record.no_game": "the record holds no game (expected 'Game 1')",
    "record.tag_twice": "tag {key} is given twice",
    "record.tag_control": "tag {key} holds a control character",
    "record.bad_tek": "bad Tek (expected two dice like 2-5): {text}",
    "record.equal_tek": "Tek {tek}: equal tek dice are re-rolled and not recorded (R2)",
    "record.bad_starter": "bad Starter (expected White or Black): {text}",
    "record.die": "a die shows 1 to 6, not {die}",
    "record.bad_step": "bad step {text} (expected FROM/TO with points 1–24, bar, off)",
    "record.repeat": "a step can be repeated 1 to {limit} times, not {times}",
    "record.step_to_bar": "a step cannot end on the bar",
    "record.step_from_off": "a step cannot start from off",
    "record.point": "points are numbered 1–24, not {point}",
    # ---- match scoring (scoring.md; scoring/match.py, scoring/report.py, scoring/scales.py)
    "match.policy": "S1: unknown resignation policy {text} (expected capped or forbidden)",
    "match.length_whole": "S1: a match length must be a whole number, not {text}",
    "match.length_odd": (
        "S1: a match is played over an odd number of completed games (1, 3, 5, 7, …), not {length}"
    ),
    "match.length_max": "S1: a match is played over at most {limit} completed games, not {length}",
    "match.length_tag": "S1: the Length tag must be an odd whole number of games, not {text}",
    "match.scale": "S2: unknown scale {text} (expected ww, ny1 or ny2)",
    "match.decided": (
        "S4: the match was decided after game {decided} ({side} won); game {game} must not "
        "be played"
    ),
    "match.no_resign": (
        "S1: resigning is not allowed in this match (policy 'forbidden'), but {side} "
        "resigned game {game}"
    ),
    "match.resign_cap": Plural(
        "S1: each player may resign at most {count} game in a match of {length}; {side} has "
        "already resigned {resigned} and may not resign game {game}",
        "S1: each player may resign at most {count} games in a match of {length}; {side} has "
        "already resigned {resigned} and may not resign game {game}",
        "count",
    ),
    "match.too_long": Plural(
        "S1: this match can last at most {count} game (its length plus the resignations "
        "its policy allows); game {game} must not be played",
        "S1: this match can last at most {count} games (its length plus the resignations "
        "its policy allows); game {game} must not be played",
        "count",
    ),
}


# Catalogues of the pure packages above the engines (``stages.messages``: pairings and
# standings): one :class:`Msg` type renders their codes too, but they stay out of
# :data:`MESSAGES`, whose codes are the engines' (rendered at the edge by
# ``matches.engine_text``; the stages' by ``matches.stage_text``).
_APART: dict[str, str | Plural] = {}


def register_apart(catalogue: Mapping[str, str | Plural]) -> None:
    """Let :class:`Msg` render ``catalogue``'s codes without adding them to
    :data:`MESSAGES`. A code means one thing everywhere: it may not differ from an engine
    code of the same name, and may be registered once only."""
    for code, entry in catalogue.items():
        assert MESSAGES.get(code, entry) == entry, code
        assert _APART.get(code, entry) == entry, code
        if code not in MESSAGES:
            _APART[code] = entry


def _entry(code: str) -> str | Plural | None:
    found = MESSAGES.get(code)
    return found if found is not None else _APART.get(code)


def register(catalogue: Mapping[str, str | Plural]) -> None:
    """Add another pure engine's codes (``backgammon.messages``) to :data:`MESSAGES`, so
    one :class:`Msg` type and one rendering at the edge serve every game. A code may be
    registered once only (the same template again is harmless)."""
    for code, entry in catalogue.items():
        assert MESSAGES.get(code, entry) == entry, code
        MESSAGES[code] = entry


def template(code: str, params: Mapping[str, Param]) -> str:
    """The English template of ``code`` with its plural form chosen for ``params``."""
    entry = _entry(code)
    if entry is None:
        entry = MESSAGES["text"]
    if isinstance(entry, Plural):
        return entry.singular if params.get(entry.count) == 1 else entry.plural
    return entry


def param_names(code: str) -> set[str]:
    """The parameters the template(s) of ``code`` use."""
    entry = _entry(code)
    if entry is None:
        raise KeyError(code)
    texts = [entry.singular, entry.plural] if isinstance(entry, Plural) else [entry]
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


@dataclass(frozen=True, slots=True)
class Msg:
    """One message: its code and parameters; :meth:`text` is the English."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    @classmethod
    def plain(cls, text: str) -> Msg:
        """A message without a code of its own (shown as it is, in English)."""
        return cls("text", {"text": text})

    def text(self) -> str:
        values = {
            key: value.text() if isinstance(value, Msg) else value
            for key, value in self.params.items()
        }
        if _entry(self.code) is None:
            return str(values.get("text", self.code))
        return template(self.code, self.params).format(**values)

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``{"code": …, "params": {…}}``, nested messages likewise."""
        return {
            "code": self.code,
            "params": {
                key: value.to_dict() if isinstance(value, Msg) else value
                for key, value in self.params.items()
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Msg:
        raw = data.get("params")
        params: dict[str, Param] = {}
        if isinstance(raw, Mapping):
            for key, value in raw.items():
                if isinstance(value, Mapping):
                    params[str(key)] = cls.from_dict(value)
                elif isinstance(value, (str, int)):
                    params[str(key)] = value
                else:
                    params[str(key)] = str(value)
        return cls(str(data.get("code", "text")), params)


def msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)``; the code must be in :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)


def detail(exc: BaseException) -> Msg:
    """The message of a wrapped value error: its own when it has one, else its text."""
    own = getattr(exc, "msg", None)
    return own if isinstance(own, Msg) else Msg.plain(str(exc))
