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
- When the first turn of a game contradicts the game's own ``Tek``/``Starter``/``Position``
  line, the error is kind ``illegal`` (R2) at the turn's line.
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
from engine.position import Position
from engine.record import (
    MAX_RECORD_BYTES,
    GameRecord,
    MatchRecord,
    RecordStep,
    TurnRecord,
    read_record,
    rules_names,
)
from engine.rules import RuleSet
from engine.types import Outcome, OutcomeKind, Side

__all__ = ["GameReport", "MatchScorer", "ReplayReport", "replay", "replay_text"]


class MatchScorer(Protocol):
    """The hook that adds the report's ``match`` section (scoring.md).

    Called once after the games are replayed, with the outcomes of the games replayed
    without error (in order) and the number of games the record holds. Returns the
    ``match`` dict, or ``None`` when the record is not a match (no ``Length`` tag).
    Raises :class:`~engine.errors.MatchError` (with ``game`` set to the first game
    that breaks a match rule: even length, resignation over the cap, a game played
    after the match was decided); the replay then reports that error if it comes no
    later than the replay's own first error, and lists only the games before it.
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


def replay_text(data: str | bytes, *, match_scorer: MatchScorer | None = None) -> ReplayReport:
    """Read a record (either form) and replay it; errors go in the report."""
    try:
        record = read_record(data)
    except EngineError as exc:
        return ReplayReport(valid=False, error=exc, rules=_rules_word_of(data), tags={}, games=[])
    return replay(record, match_scorer=match_scorer)


_RULES_TAG_RE = re.compile(r'(?:\[\s*Rules\s+|"Rules"\s*:\s*)"([^"\\\n]{0,40})"', re.IGNORECASE)


def _rules_word_of(data: str | bytes) -> str:
    """Best effort: the rule set a record that failed to read names (for the report)."""
    if not isinstance(data, str | bytes):
        return "talisman"
    head = data[:MAX_RECORD_BYTES]
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    match = _RULES_TAG_RE.search(text)
    return "talisman" if match is None else match.group(1).strip().lower()


def replay(record: MatchRecord, *, match_scorer: MatchScorer | None = None) -> ReplayReport:
    """Replay a record that has been read; never raises on bad input."""
    name, addons = rules_names(record.tags)
    reports: list[GameReport] = []
    error: EngineError | None = None
    try:
        rules = RuleSet.from_names(name=name, addons=addons)
    except ValueError as exc:
        error = RecordSyntaxError(
            f"bad Rules/Addons tag: {exc}", line=record.tag_lines.get("Rules")
        )
        return ReplayReport(False, error, name, dict(record.tags), [])
    previous: Outcome | None = None
    for game_record in record.games:
        try:
            report = _replay_game(game_record, rules, previous)
        except EngineError as exc:
            error = exc
            break
        reports.append(report)
        previous = report.outcome
    match: dict[str, Any] | None = None
    if match_scorer is not None:
        try:
            match = match_scorer(
                tags=record.tags,
                rules=name,
                outcomes=[r.outcome for r in reports if r.outcome is not None],
                games_in_record=len(record.games),
            )
        except MatchError as exc:
            failed = error.game if error is not None and error.game is not None else None
            if failed is None or exc.game is None or exc.game <= failed:
                line = None
                if exc.game is not None and 1 <= exc.game <= len(record.games):
                    line = record.games[exc.game - 1].line
                error = exc.located(line=line)
                if exc.game is not None:
                    reports = [r for r in reports if r.number < exc.game]
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
                    f"{_ENDING_RULE[game.outcome.kind]}: the game was already over"
                    f" ({game.outcome.text()}); no more turns may follow"
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
            raise where(IllegalPlayError(str(exc))) from None
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
                f"the record claims {record.result.text()}, but the play has not ended the game",
                game=number,
                line=record.result_line,
            )
        if record.result != outcome:
            raise ResultMismatchError(
                f"the record claims {record.result.text()}, but the play gives {outcome.text()}",
                game=number,
                line=record.result_line,
            )
    elif outcome is None:
        raise IncompleteGameError(
            f"game {number} is incomplete: the play does not end it and there is no Result",
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
                f"bad Position: {exc}", game=number, line=record.opening_line
            ) from None
        # A game set up from a Position starts with the side it names (no R2 check).
        return game, position.to_move
    named = record.tek_starter if record.tek is not None else record.starter
    if named is None:
        if loser is None:
            raise RecordSyntaxError(
                "game 1 must open with Tek, Starter or Position (R2)", game=number, line=record.line
            )
        starter = loser
    else:
        if loser is not None and named is not loser:
            how = f"Tek {record.tek[0]}-{record.tek[1]} gives" if record.tek else "Starter:"
            raise MatchError(
                f"wrong starter: {how} {named.word}, but the loser of game {number - 1},"
                f" {loser.word}, starts game {number} (R2, S5)",
                game=number,
                line=record.opening_line,
            )
        starter = named
    return Game(rules, starter=starter), starter


def _wrong_side(record: GameRecord, turn: TurnRecord, to_move: Side, index: int) -> EngineError:
    if index == 0 and record.position is None and record.tek is None and record.starter is None:
        return MatchError(
            f"wrong starter: {turn.side.word} plays first, but the loser of game"
            f" {record.number - 1}, {to_move.word}, starts game {record.number} (R2, S5)"
        )
    if index == 0 and record.position is not None:
        return IllegalPlayError(
            f"the Position gives {to_move.word} the move, but {turn.side.word} plays first"
        )
    if index == 0:
        return IllegalPlayError(f"R2: {to_move.word} starts this game, not {turn.side.word}")
    return IllegalPlayError(f"it is {to_move.word}'s turn, not {turn.side.word}'s (R3)")


def _hit_claim_error(step: RecordStep) -> IllegalPlayError:
    """A ``*`` must mark a step that hits (R5.2, R6) or blasts (R9)."""
    return IllegalPlayError(f"R5.2: step {step.text()} is marked * but hits nothing there")


def _locator(number: int, turn: TurnRecord, index: int) -> Callable[[EngineError], EngineError]:
    def locate(exc: EngineError) -> EngineError:
        if turn.line is None and exc.line is None:
            # JSON records have no lines: name the turn in the message instead.
            text = f"turn {index + 1} ({turn.side.value}): {exc.message}"
            return type(exc)(text, game=exc.game if exc.game is not None else number)
        return exc.located(game=number, line=turn.line)

    return locate


def report_lines(report: ReplayReport) -> list[str]:
    """A short human-readable report: verdict, the error, then one line per game."""
    verdict = "valid" if report.valid else "NOT valid"
    lines = [f"Record {verdict} (rules {report.rules}, {len(report.games)} game(s) replayed)"]
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
        lines.append(f"Error ({err.kind}{', ' + where if where else ''}): {err.message}")
    for game in report.games:
        result = "no result" if game.outcome is None else game.outcome.text()
        lines.append(
            f"Game {game.number}: {game.starter.word} starts; {result}; {game.turns} turns"
        )
    if report.match is not None:
        lines.append("Match: " + ", ".join(f"{k} {v}" for k, v in report.match.items()))
    return lines
