"""Replay a game record (game-record.md, "What a replay reports") against the rules.

A replay checks, game by game: who starts (the *tek* of R2 — the lower die starts — or
the loser of the previous game), every roll (R3, and the one-die rule R13), every step
and the amount of the roll played (R4–R12; rolls and steps are checked by the rules
core, :meth:`engine.game.Game.advance`, the
history-free form of :meth:`~engine.game.Game.play_turn`), every claimed hit
(``*``), resignations (R14) and the claimed result. It stops at the first error and
reports it with its kind, game, line and a message citing the rule. It also yields the
position after every turn, for display.

:func:`replay` and :func:`replay_text` never raise on bad input: the error goes in the
report. The ``match`` section of the report comes from a *match scorer* hook (the
scoring app): see :class:`MatchScorer`.

Decisions where game-record.md is silent:

- A game after game 1 may open with ``Tek`` or ``Starter`` only when it names the loser
  of the previous game (R2); otherwise the error is kind ``match``, "wrong starter".
  The same holds when such a game has no opening line and its first turn is played by
  the previous game's winner.
- When the first turn of a game is played by the side its own ``Tek`` or ``Starter`` line
  does not name, the error is kind ``match``, "wrong starter" (game-record.md lists it
  among the match-level breaches), at the turn's line. When it contradicts the game's
  ``Position`` line (which only says whose move it is), the error is kind ``illegal``.
- A turn recorded after the game has ended is kind ``illegal``, citing the rule that
  ended the game.
- A ``*`` claims a hit; it is accepted on a step that hits a blot or blasts a band (R9).
- ``Result: … uppgivet`` needs the ``SIDE resigns`` line; without it the result does
  not match the play (``result_mismatch``). A result claimed for a game whose play has
  not ended it is also ``result_mismatch``; a game with neither is ``incomplete``.
- ``turns`` in the report counts the rolls played (forfeited rolls included, the
  resignation not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Protocol

from engine.errors import (
    EngineError,
    IllegalPlayError,
    IncompleteGameError,
    MatchError,
    RecordSyntaxError,
    ResultMismatchError,
)
from engine.game import Game
from engine.messages import Param, detail, msg
from engine.position import Position
from engine.record import (
    MAX_RECORD_BYTES,
    GameLimit,
    GameRecord,
    MatchRecord,
    RecordStep,
    TurnRecord,
    game_limit,
    read_record,
    rules_names,
)
from engine.rules import RuleSet
from engine.types import Outcome, OutcomeKind, Side

__all__ = ["GameReport", "MatchScorer", "ReplayReport", "replay", "replay_text"]


class MatchScorer(Protocol):
    """The hook that adds the report's ``match`` section (scoring.md).

    Called once after the games are replayed, with the outcomes of the games replayed
    without error (in order) and the number of games the record holds (counted up to one
    past the game limit, when one applies). Returns the ``match`` dict, or ``None`` when
    the record is not a match (no ``Length`` tag). Raises
    :class:`~engine.errors.MatchError` (with ``game`` set to the first game that breaks a
    match rule: even length, resignation over the cap, a game played after the match was
    decided); the replay then reports that error if it comes no later than the replay's
    own first error, and lists only the games before it. On a ``match`` error with a game
    the replay calls the hook once more, with the outcomes of the games before it (and
    that many games in the record), for the report's ``match`` section: the state after
    the last game that counted.
    """

    def __call__(
        self,
        *,
        tags: Mapping[str, str],
        rules: str,
        outcomes: Sequence[Outcome],
        games_in_record: int,
    ) -> dict[str, Any] | None: ...


@dataclass
class GameReport:
    """One replayed game; ``positions`` starts with the opening position."""

    number: int
    starter: Side
    outcome: Outcome | None
    turns: int
    positions: list[Position] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "number": self.number,
            "starter": self.starter.value,
            "winner": None if outcome is None else outcome.winner.value,
            "outcome": None if outcome is None else outcome.kind.value,
            "pattern": None
            if outcome is None or outcome.pattern is None
            else outcome.pattern.value,
            "munk": None if outcome is None else outcome.munk,
            "turns": self.turns,
        }


@dataclass
class ReplayReport:
    """What a replay found: valid or the first error, and the games before it."""

    valid: bool
    error: EngineError | None
    rules: str
    tags: dict[str, str]
    games: list[GameReport]
    match: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON report of game-record.md (``match`` only when there is one)."""
        data: dict[str, Any] = {
            "valid": self.valid,
            "error": None if self.error is None else self.error.to_dict(),
            "rules": self.rules,
            "games": [game.to_dict() for game in self.games],
        }
        if self.match is not None:
            data["match"] = self.match
        return data


def replay_text(
    data: str | bytes,
    *,
    match_scorer: MatchScorer | None = None,
    max_games: int | GameLimit | None = None,
) -> ReplayReport:
    """Read a record (either form) and replay it; errors go in the report.

    ``max_games``: the most games the match can take (S1: its length plus the
    resignations its policy allows), or a function giving it from the record's tags. The
    record is read only up to the game after it, and that game is a ``match`` error —
    unless the match scorer names an earlier breach — so the excess costs nothing.
    """
    try:
        record = read_record(data, max_games=max_games)
    except EngineError as exc:
        return ReplayReport(valid=False, error=exc, rules=_rules_word_of(data), tags={}, games=[])
    return replay(record, match_scorer=match_scorer, max_games=max_games)


_RULES_TAG_RE = re.compile(r'(?:\[\s*Rules\s+|"Rules"\s*:\s*)"([^"\\\n]{0,40})"', re.IGNORECASE)


def _rules_word_of(data: str | bytes) -> str:
    """Best effort: the rule set a record that failed to read names (for the report)."""
    if not isinstance(data, str | bytes):
        return "talisman"
    head = data[:MAX_RECORD_BYTES]
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    match = _RULES_TAG_RE.search(text)
    return "talisman" if match is None else match.group(1).strip().lower()


def replay(
    record: MatchRecord,
    *,
    match_scorer: MatchScorer | None = None,
    max_games: int | GameLimit | None = None,
) -> ReplayReport:
    """Replay a record that has been read; never raises on bad input. ``max_games`` as
    for :func:`replay_text` (a record read with the limit already stops at it)."""
    name, addons = rules_names(record.tags)
    reports: list[GameReport] = []
    error: EngineError | None = None
    try:
        rules = RuleSet.from_names(name=name, addons=addons)
    except ValueError as exc:
        error = RecordSyntaxError(
            msg("record.bad_rules", detail=detail(exc)), line=record.tag_lines.get("Rules")
        )
        return ReplayReport(False, error, name, dict(record.tags), [])
    try:
        limit = game_limit(max_games, record.tags)
    except MatchError as exc:
        return ReplayReport(False, exc, name, dict(record.tags), [])
    games = record.games
    more_games, more_line = record.more_games, record.more_games_line
    if limit is not None and len(games) > limit:
        more_games, more_line, games = True, games[limit].line, games[:limit]
    previous: Outcome | None = None
    for game_record in games:
        try:
            report = _replay_game(game_record, rules, previous)
        except EngineError as exc:
            error = exc
            break
        reports.append(report)
        previous = report.outcome
    match: dict[str, Any] | None = None
    games_in_record = len(games) + (1 if more_games else 0)
    if match_scorer is not None:
        try:
            match = match_scorer(
                tags=record.tags,
                rules=name,
                outcomes=[r.outcome for r in reports if r.outcome is not None],
                games_in_record=games_in_record,
            )
        except MatchError as exc:
            failed = error.game if error is not None and error.game is not None else None
            if failed is None or exc.game is None or exc.game <= failed:
                line = None
                if exc.game is not None and 1 <= exc.game <= len(games):
                    line = games[exc.game - 1].line
                elif exc.game == len(games) + 1 and more_games:
                    line = more_line
                error = exc.located(line=line)
                if exc.game is not None:
                    reports = [r for r in reports if r.number < exc.game]
    if more_games and error is None:
        # S1: every game a match can take has been played; the next one cannot be
        error = MatchError(
            msg("match.too_long", count=len(games), game=len(games) + 1),
            game=len(games) + 1,
            line=more_line,
        )
    if (
        match_scorer is not None
        and isinstance(error, MatchError)
        and error.game is not None
        and match is None
    ):
        # game-record.md: a ``match`` error shows the state after the last game that counted
        counted = [r.outcome for r in reports if r.number < error.game and r.outcome is not None]
        try:
            match = match_scorer(
                tags=record.tags, rules=name, outcomes=counted, games_in_record=len(counted)
            )
        except MatchError:
            match = None
    return ReplayReport(
        valid=error is None,
        error=error,
        rules=name,
        tags=dict(record.tags),
        games=reports,
        match=match,
    )


_ENDING_RULE = {
    OutcomeKind.HEMSPEL: "R11",
    OutcomeKind.VACKERT_SPEL: "R12",
    OutcomeKind.JAN: "R10",
    OutcomeKind.SPRANGJAN: "R10",
    OutcomeKind.UPPGIVET: "R14",
}


_CLAIM = attrgetter("hit_claim")


def _replay_game(record: GameRecord, rules: RuleSet, previous: Outcome | None) -> GameReport:
    number = record.number
    loser = None if previous is None else previous.winner.other
    game, starter = _open_game(record, rules, loser)
    positions = [game.position]
    turns = 0
    for index, turn in enumerate(record.turns):
        if game.outcome is not None:
            where = _locator(number, turn, index)
            raise where(
                IllegalPlayError(
                    msg(
                        "turn.after_end",
                        rule=_ENDING_RULE[game.outcome.kind],
                        outcome=game.outcome.text(),
                    )
                )
            )
        if turn.side is not game.position.to_move:
            where = _locator(number, turn, index)
            raise where(_wrong_side(record, turn, game.position.to_move, index))
        try:
            if turn.resigns:
                game.resign()
                continue
            steps = turn.steps
            played = game.advance(turn.dice, steps)
        except ValueError as exc:
            where = _locator(number, turn, index)
            if isinstance(exc, EngineError):
                raise where(exc) from None
            raise where(IllegalPlayError(detail(exc))) from None
        if any(map(_CLAIM, steps)):  # a ``*`` is written: it must mark a hit (R5.2)
            for step, done in zip(steps, played, strict=False):
                if step.hit_claim and not (done.hit or done.blast):
                    raise _locator(number, turn, index)(_hit_claim_error(step))
        turns += 1
        positions.append(game.position)
    outcome = game.outcome
    if record.result is not None:
        if outcome is None:
            raise ResultMismatchError(
                msg("result.not_ended", claimed=record.result.text()),
                game=number,
                line=record.result_line,
            )
        if record.result != outcome:
            raise ResultMismatchError(
                msg("result.differs", claimed=record.result.text(), outcome=outcome.text()),
                game=number,
                line=record.result_line,
            )
    elif outcome is None:
        raise IncompleteGameError(
            msg("game.incomplete", game=number),
            game=number,
            line=record.end_line,
        )
    return GameReport(number, starter, outcome, turns, positions)


def _open_game(record: GameRecord, rules: RuleSet, loser: Side | None) -> tuple[Game, Side]:
    number = record.number
    if record.position is not None:
        try:
            position = Position.from_text(record.position)
            game = Game(rules, position=position)
        except ValueError as exc:
            raise RecordSyntaxError(
                msg("record.bad_position", detail=detail(exc)),
                game=number,
                line=record.opening_line,
            ) from None
        # A game set up from a Position starts with the side it names (no R2 check).
        return game, position.to_move
    named = record.tek_starter if record.tek is not None else record.starter
    if named is None:
        if loser is None:
            raise RecordSyntaxError(msg("game.no_opening"), game=number, line=record.line)
        starter = loser
    else:
        if loser is not None and named is not loser:
            facts: dict[str, Param] = {
                "side": named.word,
                "previous": number - 1,
                "loser": loser.word,
                "game": number,
            }
            raise MatchError(
                msg("starter.tek_loser", tek=f"{record.tek[0]}-{record.tek[1]}", **facts)
                if record.tek
                else msg("starter.named_loser", **facts),
                game=number,
                line=record.opening_line,
            )
        starter = named
    return Game(rules, starter=starter), starter


def _wrong_side(record: GameRecord, turn: TurnRecord, to_move: Side, index: int) -> EngineError:
    if index == 0 and record.position is None and record.tek is None and record.starter is None:
        return MatchError(
            msg(
                "starter.loser",
                side=turn.side.word,
                previous=record.number - 1,
                loser=to_move.word,
                game=record.number,
            )
        )
    if index == 0 and record.position is not None:
        return IllegalPlayError(msg("turn.position_side", side=to_move.word, other=turn.side.word))
    if index == 0:
        if record.tek is not None:
            return MatchError(
                msg(
                    "starter.tek",
                    tek=f"{record.tek[0]}-{record.tek[1]}",
                    side=to_move.word,
                    other=turn.side.word,
                )
            )
        return MatchError(msg("starter.named", side=to_move.word, other=turn.side.word))
    return IllegalPlayError(msg("turn.wrong_side", side=to_move.word, other=turn.side.word))


def _hit_claim_error(step: RecordStep) -> IllegalPlayError:
    """A ``*`` must mark a step that hits (R5.2, R6) or blasts (R9)."""
    return IllegalPlayError(msg("turn.hit_claim", step=step.text()))


def _locator(number: int, turn: TurnRecord, index: int) -> Callable[[EngineError], EngineError]:
    def locate(exc: EngineError) -> EngineError:
        if turn.line is None and exc.line is None:
            # JSON records have no lines: name the turn in the message instead.
            text = msg("turn.json", turn=index + 1, letter=turn.side.value, detail=exc.msg)
            return type(exc)(text, game=exc.game if exc.game is not None else number)
        return exc.located(game=number, line=turn.line)

    return locate


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 turn``, ``2 turns``, ``0 turns``: a count with its noun in the right number."""
    return f"{count} {singular if count == 1 else plural_form or singular + 's'}"


# What went wrong, by error kind (game-record.md), for the text report's error line.
ERROR_KIND_WORDS: Mapping[str, str] = {
    "syntax": "syntax error",
    "illegal": "illegal play",
    "result_mismatch": "the result does not match the play",
    "incomplete": "incomplete game",
    "match": "match rules",
}


def outcome_words(outcome: Outcome) -> str:
    """A game's result as a sentence part: ``Black wins by sprängjan``,
    ``White wins by vackert spel (dubbelt kronspel) with munk``,
    ``Black wins: White resigned (uppgivet)``."""
    if outcome.kind is OutcomeKind.UPPGIVET:
        return f"{outcome.winner.word} wins: {outcome.winner.other.word} resigned (uppgivet)"
    how = outcome.kind.word
    if outcome.pattern is not None:
        how += f" ({outcome.pattern.word})"
    if outcome.munk:
        how += " with munk"
    return f"{outcome.winner.word} wins by {how}"


MatchLine = Callable[[Mapping[str, Any]], str]


def report_lines(report: ReplayReport, *, match_line: MatchLine | None = None) -> list[str]:
    """The text report (``manage.py replay`` without ``--json``), in plain English.

    The verdict with the number of games replayed, the error (where and what), one
    line per game, then — for a valid record with a match (a ``Length`` tag) — one
    line from ``match_line`` (``scoring.report.match_line``: the engine knows no
    scales). An invalid record gets no match line: its standing would read as a
    result the record does not support (the JSON report still has its ``match``
    section as game-record.md specifies it). Counts have real plurals; outcomes
    are written with their Swedish letters (``OutcomeKind.word``; the JSON report keeps
    the ASCII codes of game-record.md).
    """
    played = plural(len(report.games), "game") if report.games else "no games"
    if report.valid:
        lines = [f"Record valid: {played} replayed (rules {report.rules})."]
    else:
        lines = [f"Record NOT valid: {played} replayed before the error (rules {report.rules})."]
    if report.error is not None:
        err = report.error
        where = ", ".join(
            part
            for part in (
                f"game {err.game}" if err.game is not None else "",
                f"line {err.line}" if err.line is not None else "",
            )
            if part
        )
        kind = ERROR_KIND_WORDS.get(err.kind, err.kind)
        lines.append(f"Error{' in ' + where if where else ''} ({kind}): {err.message}")
    for game in report.games:
        result = "no result" if game.outcome is None else outcome_words(game.outcome)
        lines.append(
            f"Game {game.number}: {game.starter.word} starts; {result}; "
            f"{plural(game.turns, 'turn')}."
        )
    if report.valid and report.match is not None and match_line is not None:
        lines.append(match_line(report.match))
    return lines
