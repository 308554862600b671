"""Bräde behind the seam: ``engine/`` (rules, records, replay) and ``scoring/`` (match
scoring), unchanged, wrapped as the ``brade`` family.

- Records: the text and JSON forms of game-record.md (``engine.record``).
- Replay: ``engine.replay.replay_text`` with the record's own match tags
  (``scoring.report.match_scorer``, ``max_games_from_tags``): the report ``manage.py
  replay`` printed before the seam, byte for byte.
- Outcomes: hemspel, vackert spel, jan, sprängjan, uppgivet; qualifiers: the four R12
  patterns of vackert spel and munk (R11). The game's words stay Swedish in every
  language (``translate`` False).
- Match scoring: ``scoring.match.MatchState`` (S1–S5): best of an odd number of completed
  games on the W&W, Ny 1 or Ny 2 scale, decided early (S4).
- Board: the picture ``web/board.py`` draws — both sides the same way round, each point
  in the viewer's numbering (R1), highlights of the turn just played.

Player 0 is White, player 1 Black (the record's ``W``/``B``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import MatchError
from engine.messages import Msg
from engine.position import Position
from engine.record import (
    MAX_RECORD_BYTES,
    TurnRecord,
    read_json,
    read_text,
    write_json,
    write_text,
)
from engine.replay import replay_text, report_lines
from engine.types import BAR, OFF, Outcome, OutcomeKind, Pattern, Side, to_other_numbering
from games.board import BRADE, BoardPicture, Stack
from games.family import QualifiedOutcome, RecordFormat, ReplayOutcome, Term, Vocabulary
from games.registry import register
from games.results import (
    MatchSettings,
    MatchStanding,
    ResultValue,
    ScoredGame,
    ScoringError,
)
from games.seats import SEATS, seat_of, side_of
from scoring.explain import explain
from scoring.match import MatchState
from scoring.report import match_line, match_scorer, max_games_from_tags
from scoring.scales import GameScore, Scale, format_marks, format_tiebreak, score_game

__all__ = ["BRADE_FAMILY", "BradeBoardState", "BradeFamily", "outcome_of", "result_of"]

SIDES = tuple(side_of(seat) for seat in SEATS)  # White, Black


def _allowed(kind: OutcomeKind, pattern: Pattern | None, munk: bool) -> bool:
    """Whether the engine takes this outcome (R11: munk with hemspel and vackert spel
    only; R12: vackert spel has a pattern, nothing else has one)."""
    try:
        Outcome(Side.WHITE, kind, pattern, munk)
    except ValueError:
        return False
    return True


# The engine's words (``OutcomeKind.word``, ``Pattern.word``), the only source of them,
# and the qualified outcomes its rules allow, in its order.
VOCABULARY = Vocabulary(
    outcomes=tuple(Term(kind.value, kind.word, translate=False) for kind in OutcomeKind),
    qualifiers=(
        *(Term(pattern.value, pattern.word, translate=False) for pattern in Pattern),
        Term("munk", "munk", translate=False),
    ),
    qualified=tuple(
        QualifiedOutcome(kind.value, pattern.value if pattern else "", munk)
        for kind in OutcomeKind
        for pattern in (None, *Pattern)
        for munk in (False, True)
        if _allowed(kind, pattern, munk)
    ),
)

RECORDS: tuple[RecordFormat[Any], ...] = (
    RecordFormat("text", ".txt", read_text, write_text),
    RecordFormat("json", ".json", read_json, write_json),
)


# --- detection -------------------------------------------------------------------------

# Lines only a bräde text record has: a turn line (``W 6-4:``, ``12. Black resigns``), an
# opening or result keyword, a bräde match tag.
_TURN_RE = re.compile(
    r"^[ \t]*(?:\d+[ \t]*\.[ \t]*)?(?:white|black|w|b)[ \t]+(?:resigns?\b|\d(?:-?\d)?[ \t]*:)",
    re.IGNORECASE | re.MULTILINE,
)
_KEYWORD_RE = re.compile(r"^[ \t]*(?:tek|starter|position|result)[ \t]*:", re.I | re.M)
_TAG_RE = re.compile(
    r'^[ \t]*\[[ \t]*(?:rules|scale|resignations|addons|length)[ \t]+"', re.I | re.M
)


# A line a bräde text record is made of even when nothing else in it reads: a tag line
# (``[Key "Value"]``) or a game's header (``Game N``)
_SHAPE_RE = re.compile(
    r'^[ \t]*(?:\[[ \t]*\w[^"\]]*"[^"]*"[ \t]*\]|Game[ \t]+\d+[ \t]*$)', re.I | re.M
)


def detect(text: str) -> float:
    """0.9 for a JSON record (an object with ``games`` or ``tags``, or text opening with
    ``{`` that is not JSON at all: a broken JSON record, whose reader says where) or a text
    record with a bräde turn, keyword or tag line; 0.5 for a text with a tag line or a
    ``Game N`` line (bräde's shape: its reader says what is wrong with the rest); 0 for
    anything else. Decision: a file no game recognises (empty, binary, JSON of something
    else, any other text) is no record, and says so naming the formats the site reads
    (``games.unread``), instead of going to bräde's reader."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        try:
            data = json.loads(head)
        except (ValueError, RecursionError):  # a broken JSON record: its reader says where
            return 0.9
        return 0.9 if isinstance(data, dict) and ("games" in data or "tags" in data) else 0.0
    if _TURN_RE.search(text) or _KEYWORD_RE.search(text) or _TAG_RE.search(text):
        return 0.9
    if _SHAPE_RE.search(text):
        return 0.5
    return 0.0


# --- replay ----------------------------------------------------------------------------


class BradeReplayer:
    """``engine.replay`` with the record's own match tags (game-record.md's report)."""

    max_bytes = MAX_RECORD_BYTES

    def decode(self, data: bytes) -> str:
        """UTF-8, a byte-order mark dropped (game-record.md): the only encoding of bräde's
        records, so other bytes raise ``UnicodeDecodeError``."""
        return data.decode("utf-8-sig")

    def run(self, data: bytes) -> ReplayOutcome:
        # S1: a record may hold no more games than its Length tag's match can take
        report = replay_text(data, match_scorer=match_scorer, max_games=max_games_from_tags)
        return ReplayOutcome(
            family="brade",
            valid=report.valid,
            report=report.to_dict(),
            lines=tuple(report_lines(report, match_line=match_line)),
        )


# --- match scoring ---------------------------------------------------------------------


def outcome_of(result: ResultValue, number: int | None = None) -> Outcome:
    """The engine's :class:`Outcome` of a neutral result; :class:`ScoringError` (kind
    ``result``, with ``game`` = ``number``) for one bräde cannot have."""
    if result.cube != 1 or result.conceded or result.game_type:
        raise ScoringError(
            "a bräde game has no cube, no conceded level and no game type", game=number
        )
    if result.winner not in SEATS:
        raise ScoringError(f"the winner is player 0 or 1, not {result.winner!r}", game=number)
    try:
        kind = OutcomeKind(result.outcome)
        pattern = Pattern(result.pattern) if result.pattern else None
        return Outcome(side_of(result.winner), kind, pattern, result.munk)
    except ValueError as exc:  # an unknown code, or R11/R12 (pattern, munk) broken
        raise ScoringError(str(exc), game=number, cause=exc) from None


def result_of(outcome: Outcome) -> ResultValue:
    """The neutral result of the engine's :class:`Outcome` (the inverse of ``outcome_of``;
    White is seat 0)."""
    return ResultValue(
        winner=seat_of(outcome.winner),
        outcome=outcome.kind.value,
        pattern=outcome.pattern.value if outcome.pattern else "",
        munk=outcome.munk,
    )


class BradeScoring:
    """Bräde match scoring (scoring.md) for one match's length, scale and resignations."""

    def __init__(self, settings: MatchSettings) -> None:
        self._settings = settings
        try:
            self._start = MatchState.start(
                length=settings.length, scale=settings.scale, policy=settings.resignations
            )
        except MatchError as exc:
            raise ScoringError(exc.message, kind="match", cause=exc) from None

    @property
    def settings(self) -> MatchSettings:
        return self._settings

    def standing(self, results: Sequence[ResultValue]) -> MatchStanding:
        state = self._start
        games: list[ScoredGame] = []
        for number, result in enumerate(results, start=1):
            outcome = outcome_of(result, number)
            try:
                state = state.after(outcome)
            except MatchError as exc:  # S1 resignation cap, S4 a game after the decision
                raise ScoringError(
                    exc.message, kind="match", game=exc.game or number, cause=exc
                ) from None
            score = score_game(state.scale, outcome)
            games.append(
                ScoredGame(
                    number,
                    result.winner,
                    score.points,
                    mark=score.mark,
                    tiebreak_to=_skiljepoang_to(score),
                )
            )
        winner = None if state.winner is None else seat_of(state.winner)
        tiebreak = (
            (state.tiebreak[Side.WHITE], state.tiebreak[Side.BLACK])
            if state.scale.has_tiebreak
            else None
        )
        return MatchStanding(
            length=state.length,
            length_unit="games",
            score=(state.points[Side.WHITE], state.points[Side.BLACK]),
            winner=winner,
            decided_after_game=state.decided_after_game,
            games=tuple(games),
            tiebreak=tiebreak,
            decided_early=state.decided_early,
            scale=state.scale.value,
            marks=(
                format_marks(state.scale, state.plus[Side.WHITE], state.minus[Side.WHITE]),
                format_marks(state.scale, state.plus[Side.BLACK], state.minus[Side.BLACK]),
            ),
            tiebreak_text=None
            if tiebreak is None
            else (
                format_tiebreak(state.scale, tiebreak[0]),
                format_tiebreak(state.scale, tiebreak[1]),
            ),
        )


def _skiljepoang_to(score: GameScore) -> int | None:
    """The seat a game's skiljepoäng went to (S2, W&W only: Ny 1's tiebreak is the game's
    mark, Ny 2 has none)."""
    if score.scale is not Scale.WW:
        return None
    if score.tiebreak_winner:
        return seat_of(score.winner)
    if score.tiebreak_loser:
        return seat_of(score.winner.other)
    return None


# --- board -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BradeBoardState:
    """A position of a replayed game and the turn that led to it (None: the opening)."""

    position: Position
    turn: TurnRecord | None = None


def _view_point(side: Side, point: int, view: Side) -> int:
    """``side``'s point 1–24 in ``view``'s numbering (R1), as ``web/board.py`` places it."""
    return point if side is view else to_other_numbering(point)


class BradeBoard:
    """The picture ``web/board.py`` draws, as data."""

    layout = BRADE

    def picture(self, state: BradeBoardState, *, view: int = 0) -> BoardPicture:
        position, turn = state.position, state.turn
        seat = side_of(view)
        stacks = tuple(
            Stack(index, _view_point(side, point, seat), count)
            for index, side in enumerate(SIDES)
            for point in range(1, 25)
            if (count := position.count(side, point))
        )
        sources: set[int] = set()
        targets: set[int] = set()
        if turn is not None:
            for step in turn.steps:
                if step.src not in (BAR, OFF):
                    sources.add(_view_point(turn.side, step.src, seat))
                if step.dst not in (BAR, OFF):
                    targets.add(_view_point(turn.side, step.dst, seat))
        return BoardPicture(
            layout=BRADE,
            view=view,
            stacks=stacks,
            bar=(position.bar(Side.WHITE), position.bar(Side.BLACK)),
            off=(position.borne_off(Side.WHITE), position.borne_off(Side.BLACK)),
            dice=() if turn is None else turn.dice,
            mover=None if turn is None else seat_of(turn.side),
            sources=tuple(sorted(sources - targets)),
            targets=tuple(sorted(targets)),
        )


# --- the family ------------------------------------------------------------------------


class BradeFamily:
    """The ``brade`` family (see the module docstring)."""

    key = "brade"
    name = "Bräde"
    vocabulary = VOCABULARY
    records = RECORDS

    def __init__(self) -> None:
        self._replay = BradeReplayer()
        self._board = BradeBoard()

    @property
    def replay(self) -> BradeReplayer:
        return self._replay

    @property
    def board(self) -> BradeBoard:
        return self._board

    def detect(self, text: str) -> float:
        return detect(text)

    def match_scoring(self, settings: MatchSettings) -> BradeScoring:
        return BradeScoring(settings)

    length_unit = "games"
    loser_starts = True  # R2, S5
    options = ("rules", "addons", "scale", "resignation_policy")
    result_fields = ("pattern", "munk")
    tiebreak_scales = tuple(scale.value for scale in Scale if scale.has_tiebreak)  # S2

    def cube_limit(self, settings: MatchSettings, score: tuple[int, int]) -> None:
        return None  # bräde has no cube

    def record_format(self, text: str) -> RecordFormat[Any]:
        """JSON when the record opens with ``{`` (game-record.md), else the text form."""
        json_form = text.lstrip("\ufeff \t\r\n").startswith("{")
        return RECORDS[1] if json_form else RECORDS[0]

    def describe(self, result: ResultValue) -> str:
        """The record's ``Result:`` body: ``White vackert trappspel munk``."""
        return outcome_of(result).text()

    def explain(
        self,
        settings: MatchSettings,
        results: Sequence[ResultValue],
        *,
        names: tuple[str, str],
    ) -> tuple[Msg, ...]:
        """``scoring.explain``: the standing, why it was decided (S3/S4) or what each
        player needs."""
        state = MatchState.start(
            length=settings.length, scale=settings.scale, policy=settings.resignations
        )
        for number, result in enumerate(results, start=1):
            state = state.after(outcome_of(result, number))
        return tuple(explain(state, names=dict(zip(SIDES, names, strict=True))))


BRADE_FAMILY = BradeFamily()
register(BRADE_FAMILY)
