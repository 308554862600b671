"""Backgammon behind the seam: the pure ``backgammon/`` package as the ``backgammon``
family (seed 002, the Danish federation's rules).

- Records: the ``.mat`` format gnubg, eXtreme Gammon and BGBlitz write
  (``backgammon.mat``), and the project's own text and JSON form (``backgammon.record``).
- Replay: ``backgammon.replay.replay_text`` (either form); the report adds per game ``points``,
  ``cube`` and ``crawford``, per match each player's score, the winner and the Crawford
  game's number (docs/game-record.md, "Backgammon records").
- Outcomes: a single game, a gammon, a backgammon (played out), a drop (a refused double),
  a resignation (conceding a single game, a gammon or a backgammon).
- Match scoring: ``backgammon.match.score_match``: to a number of points (1–25), the cube
  times 1, 2 or 3, the Crawford game, ended at once when a player reaches the length.
- Board: points, bar, trays, and the cube with its value and owner.

Player 0 is the first player (the ``.mat`` record's left column), player 1 the second.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from backgammon.cube import CubeState, Win, cube_limit
from backgammon.dialects import GENERIC_FORMATS, ReadOptions, unsupported_format
from backgammon.errors import BackgammonError, ResultEntryError
from backgammon.mat import MAX_MAT_BYTES, decode_mat, read_mat, write_mat
from backgammon.match import Ending, check_match_length, score_match
from backgammon.match import GameResult as BackgammonResult
from backgammon.messages import bg_msg
from backgammon.position import BAR, OFF, Position
from backgammon.record import is_bg_record, read_bg_json, read_bg_text, write_bg_json, write_bg_text
from backgammon.replay import replay_text
from backgammon.report import report_lines
from backgammon.sgf import read_sgf
from engine.messages import Msg
from games.board import BACKGAMMON, BoardPicture, CubePicture, Stack
from games.explain_messages import msg
from games.family import RecordFormat, ReplayOutcome, Term, Vocabulary
from games.registry import register
from games.results import (
    MatchSettings,
    MatchStanding,
    ResultValue,
    ScoredGame,
    ScoringError,
)

__all__ = [
    "BACKGAMMON_FAMILY",
    "BackgammonBoardState",
    "BackgammonFamily",
    "explain_standing",
    "result_of",
]

VOCABULARY = Vocabulary(
    outcomes=(
        Term(Ending.SINGLE.value, "single game"),
        Term(Ending.GAMMON.value, "gammon"),
        Term(Ending.BACKGAMMON.value, "backgammon"),
        Term(Ending.DROP.value, "dropped double"),
        Term(Ending.RESIGN.value, "resignation"),
    ),
)

RECORDS: tuple[RecordFormat[Any], ...] = (
    RecordFormat("mat", ".mat", read_mat, write_mat),
    RecordFormat("sgf", ".sgf", read_sgf, None),
    RecordFormat("text", ".txt", read_bg_text, write_bg_text),
    RecordFormat("json", ".json", read_bg_json, write_bg_json),
)

_CONCEDED = {"single": Win.SINGLE, "gammon": Win.GAMMON, "backgammon": Win.BACKGAMMON}


# --- detection -------------------------------------------------------------------------

_LENGTH_RE = re.compile(r"^[ \t]*\d+[ \t]+point[ \t]+match[ \t]*\r?$", re.I | re.M)
_GAME_RE = re.compile(r"^[ \t]*Game[ \t]+\d+[ \t]*\r?$", re.I | re.M)
# a player's name may be empty (Galaxy)
_SCORE_RE = re.compile(r"^[ \t]*[^:\n]*:[ \t]*\d+[ \t]+[^:\n]*:[ \t]*\d+[ \t]*\r?$", re.M)
_SGF_RE = re.compile(r"\A\ufeff?\s*\(\s*;[^()]{0,2000}?\bGM\[6\]")


def detect(text: str) -> float:
    """0.95 for a ``.mat`` record (its `` N point match`` line, whatever the line endings:
    the old Mac's carriage returns too) and for gnubg's ``.sgf`` (``(;`` … ``GM[6]``);
    0.6 for a ``.mat`` without that line that still has a ``Game N`` line followed by the
    two players' score line (a money-session export); 0.5 for a backgammon format the site
    recognises but does not read (``backgammon.dialects.unsupported_format``: eXtreme
    Gammon's ``.xg``, a gnubg text export with analysis), so that its replay names the
    format; 0.99 for the project's own record (its ``[Game "backgammon"]`` tag or JSON
    ``"game": "backgammon"``: above bräde's claim on tags and JSON); 0 otherwise."""
    if is_bg_record(text):
        return 0.99
    if _SGF_RE.match(text):
        return 0.95
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _LENGTH_RE.search(text):
        return 0.95
    game = _GAME_RE.search(text)
    if game is not None and _SCORE_RE.match(text, game.end() + 1):
        return 0.6
    unsupported = unsupported_format(text[:4096].encode("utf-8", "replace"))
    if unsupported is not None and unsupported not in GENERIC_FORMATS:
        return 0.5
    return 0.0


# --- replay ----------------------------------------------------------------------------


class BackgammonReplayer:
    """``backgammon.replay.replay_text`` and its text report. ``name`` is the file's name
    (its extension tells ``.xg`` and ``.bgf``), ``options`` what the file cannot say
    (``manage.py replay --program/--money/--jacoby``)."""

    max_bytes = MAX_MAT_BYTES

    def decode(self, data: bytes) -> str:
        """UTF-8, else Windows-1252, as older programs wrote player names
        (:func:`backgammon.mat.decode_mat`): every file reads in one of the two."""
        return decode_mat(data)

    def run(
        self, data: bytes, *, name: str = "", options: ReadOptions | None = None
    ) -> ReplayOutcome:
        report = replay_text(data, name=name, options=options)
        return ReplayOutcome(
            family="backgammon",
            valid=report.valid,
            report=report.to_dict(),
            lines=tuple(report_lines(report)),
        )


# --- match scoring ---------------------------------------------------------------------


def result_of(result: ResultValue, number: int | None = None) -> BackgammonResult:
    """The backgammon result of a neutral one; :class:`ScoringError` (kind ``result``)
    for one backgammon cannot have."""
    # Every refusal is a coded message (backgammon.messages), so the pages show it in the
    # reader's language (matches.standing renders the cause's Msg).
    try:
        if result.pattern or result.munk or result.game_type:
            raise ResultEntryError(bg_msg("bg.result.fields"))
        try:
            ending = Ending(result.outcome)
        except ValueError:
            known = ", ".join(VOCABULARY.outcome_codes)
            raise ResultEntryError(
                bg_msg("bg.result.outcome", outcome=repr(result.outcome), known=known)
            ) from None
        conceded: Win | None = None
        if result.conceded:
            if result.conceded not in _CONCEDED:
                raise ResultEntryError(
                    bg_msg("bg.result.conceded_level", conceded=repr(result.conceded))
                )
            conceded = _CONCEDED[result.conceded]
        return BackgammonResult(result.winner, ending, result.cube, conceded)
    except BackgammonError as exc:
        raise ScoringError(exc.message, kind=exc.kind, game=number, cause=exc) from None


class BackgammonScoring:
    """Backgammon match scoring to ``settings.length`` points (``backgammon.match``)."""

    def __init__(self, settings: MatchSettings) -> None:
        try:
            check_match_length(settings.length)
        except BackgammonError as exc:
            raise ScoringError(exc.message, kind=exc.kind, cause=exc) from None
        self._settings = settings

    @property
    def settings(self) -> MatchSettings:
        return self._settings

    def standing(self, results: Sequence[ResultValue]) -> MatchStanding:
        entered = [result_of(result, number) for number, result in enumerate(results, 1)]
        try:
            match = score_match(
                length=self._settings.length,
                results=entered,
                crawford_rule=self._settings.crawford,
            )
        except BackgammonError as exc:
            raise ScoringError(exc.message, kind=exc.kind, game=exc.game, cause=exc) from None
        return MatchStanding(
            length=match.length,
            length_unit="points",
            score=match.points,
            winner=match.winner,
            decided_after_game=match.decided_after_game,
            games=tuple(
                ScoredGame(g.number, g.result.winner, g.points, g.crawford) for g in match.games
            ),
            crawford_game=match.crawford_game,
            next_is_crawford=match.next_is_crawford,
        )


# --- board -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BackgammonBoardState:
    """Both players' checkers, each as 26 counts in the player's own numbering (0 off,
    1–24 the points, 25 the bar: :mod:`backgammon.position`), the cube (None: a game
    without one), the dice just played and by whom."""

    boards: tuple[tuple[int, ...], tuple[int, ...]]
    cube: CubeState | None = None
    dice: tuple[int, ...] = ()
    mover: int | None = None

    @classmethod
    def from_position(
        cls, position: Position, *, on_roll: int, cube: CubeState | None = None
    ) -> BackgammonBoardState:
        """From a :class:`Position` (seen from the player on roll, ``on_roll``)."""
        boards = (position.me, position.opp) if on_roll == 0 else (position.opp, position.me)
        return cls(boards, cube)


class BackgammonBoard:
    """Points, bar, trays and the cube, seen from ``view``'s seat (``games.board``)."""

    layout = BACKGAMMON

    def picture(self, state: BackgammonBoardState, *, view: int = 0) -> BoardPicture:
        stacks = tuple(
            Stack(side, point if side == view else 25 - point, count)
            for side in (0, 1)
            for point in range(1, 25)
            if (count := state.boards[side][point])
        )
        # the opponent's points count down from the viewer's 24: list each side in the
        # viewer's point order
        stacks = tuple(sorted(stacks, key=lambda s: (s.side, s.point)))
        cube = state.cube
        return BoardPicture(
            layout=BACKGAMMON,
            view=view,
            stacks=stacks,
            bar=(state.boards[0][BAR], state.boards[1][BAR]),
            off=(state.boards[0][OFF], state.boards[1][OFF]),
            dice=state.dice,
            mover=state.mover,
            cube=None if cube is None else CubePicture(cube.value, cube.owner, cube.offered_by),
        )


# --- the family ------------------------------------------------------------------------


class BackgammonFamily:
    """The ``backgammon`` family (see the module docstring)."""

    key = "backgammon"
    name = "Backgammon"
    vocabulary = VOCABULARY
    records = RECORDS

    def __init__(self) -> None:
        self._replay = BackgammonReplayer()
        self._board = BackgammonBoard()

    @property
    def replay(self) -> BackgammonReplayer:
        return self._replay

    @property
    def board(self) -> BackgammonBoard:
        return self._board

    def detect(self, text: str) -> float:
        return detect(text)

    def match_scoring(self, settings: MatchSettings) -> BackgammonScoring:
        return BackgammonScoring(settings)

    length_unit = "points"
    loser_starts = False  # every game opens with a roll of one die each (seed 002)
    options: tuple[str, ...] = ()  # the Crawford rule is always on in tournaments
    result_fields = ("cube", "conceded")
    tiebreak_scales: tuple[str, ...] = ()

    def cube_limit(self, settings: MatchSettings, score: tuple[int, int]) -> int:
        """``backgammon.cube.cube_limit``: what the player furthest from the length still
        needs, as a power of two."""
        return cube_limit(settings.length, score)

    def record_format(self, text: str) -> RecordFormat[Any]:
        """The project's own text or JSON record (its ``Game`` tag), gnubg's ``.sgf``, or
        else a ``.mat`` (of any dialect), as ``backgammon.replay.read_record`` reads it."""
        if is_bg_record(text):
            json_form = text.lstrip("\ufeff \t\r\n").startswith("{")
            return RECORDS[3] if json_form else RECORDS[2]
        return RECORDS[1] if _SGF_RE.match(text) else RECORDS[0]

    def describe(self, result: ResultValue) -> str:
        """``player 2 gammon, cube 2``; a resignation names what it conceded."""
        words = f"player {result.winner + 1} {result.outcome}"
        if result.conceded:
            words += f" ({result.conceded})"
        return f"{words}, cube {result.cube}"

    def explain(
        self,
        settings: MatchSettings,
        results: Sequence[ResultValue],
        *,
        names: tuple[str, str],
    ) -> tuple[Msg, ...]:
        """The score to the match length, who won or what each needs, and the Crawford
        game (played, or next)."""
        standing = self.match_scoring(settings).standing(results)
        return tuple(explain_standing(standing, names=names))


def explain_standing(standing: MatchStanding, *, names: tuple[str, str]) -> list[Msg]:
    """Sentences (coded, ``games.explain_messages``) on a backgammon match's standing."""
    one, two = standing.score
    length = standing.length
    lines = [
        msg(
            "bg.explain.score",
            one=names[0],
            one_points=one,
            two=names[1],
            two_points=two,
            length=length,
        )
    ]
    if standing.winner is not None:
        game = standing.decided_after_game
        assert game is not None  # a won match was decided in some game
        lines.append(msg("bg.explain.won", winner=names[standing.winner], length=length, game=game))
    else:
        for player in (0, 1):
            left = length - standing.score[player]
            lines.append(msg("bg.explain.needs", player=names[player], count=left))
    if standing.next_is_crawford:
        lines.append(msg("bg.explain.crawford_next"))
    elif standing.crawford_game is not None:
        lines.append(msg("bg.explain.crawford_was", game=standing.crawford_game))
    return lines


BACKGAMMON_FAMILY = BackgammonFamily()
register(BACKGAMMON_FAMILY)
