"""Match analysis: every checker play's and cube decision's equity loss at the match score,
each player's error rate (PR) and luck, the worst mistakes with the better play.

The evaluations are GNU Backgammon 1.07's at 0-ply, by the optional package ``gnubg-nn``
(``requirements-analysis.txt``; GPL-3.0-or-later, which the project's AGPL-3.0-or-later
may use: README, "Licence"). It is imported when an analysis runs, never at import time,
so the site works without it; :class:`AnalysisUnavailable` says so when it is missing. Three
things make its evaluations gnubg 1.07's own (each measured against Debian's gnubg 1.07):

- it evaluates with gnubg 1.07's nets (``backgammon.gnubg_nets``), not the older contact and
  crashed nets it ships;
- a contact or crashed position whose inputs it computes otherwise (one pip-loss
  heuristic) is evaluated as gnubg 1.07 does, here (``backgammon.gnubg_contact``);
- in a bear-off of the two-sided database the cube efficiency is gnubg's, one for each cube
  position, from the database's exact money equities (``backgammon.gnubg_bearoff``).

The match-equity arithmetic is :mod:`backgammon.equity`.

What is measured, as gnubg's own ``analyse match`` at 0-ply does (its manual, "Analysis"):

- a **checker play**'s error is the cubeful equity of the best play minus the played one's,
  in EMG of the current cube (the position after each play valued with the opponent on
  roll, free to double); a play is *unforced* when the roll leaves more than one position;
- a **cube decision** is analysed when the side on roll has a double to give (not on the
  opening roll): no double, double/take and double/pass valued at 0-ply; a missed double,
  a wrong double, a wrong take and a wrong pass each lose the difference to the best;
- the **error rate** is the error total over the unforced plays and the *close or actual*
  cube decisions (a double, take or pass; or not doubling where doubling was not a very bad
  error, i.e. within 0.16); **PR** (the community's "performance rating", as eXtreme
  Gammon and the BMAB use it) is that mean × 500;
- the marks: *doubtful* from 0.04 EMG, *bad* from 0.08, *very bad* from 0.16 (gnubg's
  defaults); an *error* here is any marked decision;
- **luck** of a roll: the equity after the best play of the roll thrown minus the mean
  over all 36 rolls, summed per player in EMG.

BMAB levels by PR (Backgammon Masters Awarding Body): ≤ 2.5 super grandmaster, ≤ 4
grandmaster, ≤ 6.5 master, ≤ 10 advanced, ≤ 16 intermediate; above that no level.

A roll written with no play although it had a choice of plays is, as gnubg's ``import
mat`` reads it, a roll and then a resignation: its play and the cube decision before it are
not analysed (its luck is).

Decisions where the sources are silent: an illegal play that stood (a record may hold one)
and a roll never played (``???``) are not analysed; a money session is not analysed (no
match score); the opening roll's luck is measured like any other roll's.
"""

from __future__ import annotations

import importlib
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from backgammon.cube import MatchScore
from backgammon.equity import (
    BEAROFF_X,
    CONTACT_X,
    CubeInfo,
    Efficiency,
    Probs,
    cube_decision,
    emg,
    opponent_cubeful_mwc,
    race_efficiency,
)
from backgammon.gnubg_bearoff import TwoSidedBearoff, cube_efficiency
from backgammon.gnubg_contact import ContactEvaluator, differs_from_gnubg_nn
from backgammon.gnubg_nets import gnubg_107_nets, weights_text
from backgammon.mat import DOUBLE, DROP, ROLL, TAKE, MatRecord
from backgammon.position import START, Position
from backgammon.replay import apply_move_text, replay_record

__all__ = [
    "BMAB_LEVELS",
    "DOUBTFUL",
    "ENGINE",
    "AnalysisUnavailable",
    "Decision",
    "MatchAnalysis",
    "PlayerAnalysis",
    "analyse_record",
    "bmab_level",
    "error_rate",
    "skill_mark",
]

ENGINE = "gnubg 1.07 0-ply (gnubg-nn), Kazaross-XG2"
DOUBTFUL = 0.04
BAD = 0.08
VERY_BAD = 0.16
CLOSE_CUBE = 0.16
PR_SCALE = 500
# (highest PR, level code) — the codes are translated at the edge
BMAB_LEVELS: tuple[tuple[float, str], ...] = (
    (2.5, "super_grandmaster"),
    (4.0, "grandmaster"),
    (6.5, "master"),
    (10.0, "advanced"),
    (16.0, "intermediate"),
)
WORST = 5
# plays per roll valued cubeful for luck: the best few by cubeless equity
LUCK_CANDIDATES = 4
_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


class AnalysisUnavailable(RuntimeError):
    """The optional analysis engine (``gnubg-nn``) is not installed."""


def _engine() -> ModuleType:
    """gnubg-nn, evaluating with gnubg 1.07's nets (``backgammon.gnubg_nets``)."""
    try:
        gnubg_nn = importlib.import_module("gnubg_nn")  # optional: requirements-analysis.txt
    except ImportError as missing:
        raise AnalysisUnavailable(
            "match analysis needs the optional package gnubg-nn: "
            "pip install -r requirements-analysis.txt"
        ) from missing
    gnubg_nn.net_use(_nets_handle(gnubg_nn))
    return gnubg_nn


@cache
def _nets_handle(gnubg_nn: ModuleType) -> object:
    """gnubg 1.07's nets as a gnubg-nn net handle, loaded once a process: gnubg-nn loads
    nets only from a file of its text form, written for the purpose and removed."""
    with tempfile.TemporaryDirectory(prefix="gnubg-nets-") as folder:
        path = Path(folder) / "gnubg-1.07.weights"
        path.write_text(weights_text(gnubg_107_nets()), encoding="ascii")
        handle: object = gnubg_nn.net_load(str(path))
    return handle


@cache
def _contact_evaluator() -> ContactEvaluator:
    return ContactEvaluator(gnubg_107_nets())


@cache
def _two_sided_bearoff(gnubg_nn: ModuleType) -> TwoSidedBearoff:
    """gnubg's two-sided bear-off database as gnubg-nn carries it (its package data)."""
    package = gnubg_nn.__file__
    if package is None:
        raise AnalysisUnavailable("gnubg-nn is installed without its data files")
    return TwoSidedBearoff(Path(package).parent / "data" / "gnubg_ts0.bd")


def error_rate(error_total: float, decisions: int) -> float:
    """PR: the mean error (EMG) per unforced decision × 500; 0 with no decision."""
    return error_total / decisions * PR_SCALE if decisions else 0.0


def bmab_level(pr: float) -> str | None:
    """The BMAB level a PR reaches, or ``None`` above intermediate."""
    for highest, code in BMAB_LEVELS:
        if pr <= highest:
            return code
    return None


def skill_mark(error: float) -> str | None:
    """gnubg's mark for an error in EMG: ``doubtful``, ``bad``, ``very_bad`` or none."""
    if error >= VERY_BAD:
        return "very_bad"
    if error >= BAD:
        return "bad"
    if error >= DOUBTFUL:
        return "doubtful"
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision. ``turn`` counts the rolls before it in its game (0 for the
    opening roll); ``kind`` is ``move``, ``nodouble``, ``double``, ``take`` or ``drop``;
    ``played``/``best`` are plays as a record writes them (or the cube action); ``error``
    is in EMG; ``counted`` says whether it is in the error rate's denominator."""

    game: int
    turn: int
    player: int
    kind: str
    error: float
    played: str
    best: str
    counted: bool
    dice: tuple[int, int] | None = None
    position_id: str = ""

    @property
    def mark(self) -> str | None:
        return skill_mark(self.error)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "turn": self.turn,
            "player": self.player,
            "kind": self.kind,
            "dice": list(self.dice) if self.dice else None,
            "played": self.played,
            "best": self.best,
            "error": round(self.error, 4),
            "mark": self.mark,
            "counted": self.counted,
            "position_id": self.position_id,
        }


@dataclass(slots=True)
class PlayerAnalysis:
    name: str
    decisions: int = 0
    checker_error: float = 0.0
    cube_error: float = 0.0
    luck: float = 0.0
    errors: int = 0

    @property
    def error_total(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def pr(self) -> float:
        return error_rate(self.error_total, self.decisions)

    @property
    def level(self) -> str | None:
        return bmab_level(self.pr)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "pr": round(self.pr, 2),
            "level": self.level,
            "decisions": self.decisions,
            "errors": self.errors,
            "error_total": round(self.error_total, 4),
            "checker_error": round(self.checker_error, 4),
            "cube_error": round(self.cube_error, 4),
            "luck": round(self.luck, 4),
        }


@dataclass(slots=True)
class MatchAnalysis:
    length: int
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    decisions: list[Decision] = field(default_factory=list)
    engine: str = ENGINE

    def worst(self, player: int, n: int = WORST) -> list[Decision]:
        """The player's ``n`` largest errors, largest first."""
        own = [d for d in self.decisions if d.player == player and d.mark is not None]
        return sorted(own, key=lambda d: -d.error)[:n]

    def to_dict(self) -> dict[str, object]:
        return {
            "engine": self.engine,
            "length": self.length,
            "players": [p.to_dict() for p in self.players],
            "worst": [[d.to_dict() for d in self.worst(i)] for i in (0, 1)],
            "decisions": [d.to_dict() for d in self.decisions],
        }


def _board(pos: Position) -> list[list[int]]:
    """gnubg-nn's board: the opponent's 25 places (points 1–24, bar) then the mover's."""
    return [list(pos.opp[1:]), list(pos.me[1:])]


def _play_text(steps: tuple[int, ...]) -> str:
    def point(p: int) -> str:
        return "bar" if p == 25 else "off" if p <= 0 else str(p)

    pairs = [f"{point(steps[i])}/{point(steps[i + 1])}" for i in range(0, len(steps), 2)]
    return " ".join(pairs)


class _Evaluator:
    """gnubg-nn's evaluations turned into cubeful equities at a game's score and cube.

    The probabilities are gnubg 1.07's: gnubg-nn's with gnubg 1.07's nets, but for the
    contact and crashed positions whose inputs gnubg-nn computes otherwise
    (``backgammon.gnubg_contact``), evaluated here as gnubg 1.07 does."""

    def __init__(self, nn: ModuleType) -> None:
        self.nn = nn
        self.race = nn.c_race
        self.crashed = nn.c_crashed
        self.contact = {nn.c_contact, nn.c_crashed}
        self.over = nn.c_over
        self.gnubg = _contact_evaluator()
        self.bearoff = _two_sided_bearoff(nn)
        # gnubg 1.07's probabilities of the positions evaluated here, by board
        self.cache: dict[str, Probs] = {}

    def efficiency(self, board: list[list[int]], kind: int | None = None) -> Efficiency:
        """The cube efficiency of the position (gnubg's ``EvalEfficiency``; ``kind``: its
        class, when known); in a bear-off of the two-sided database, one for each cube
        position, as gnubg 1.07 finds it."""
        if kind is None:
            kind = self.nn.classify(board)
        if kind in self.contact:
            return CONTACT_X
        if kind == self.race:
            return race_efficiency(sum((i + 1) * n for i, n in enumerate(board[1])))
        if kind == self.over:
            return 0.0
        if TwoSidedBearoff.holds(board):
            equities = self.bearoff.equities(board)

            def by_cube(ci: CubeInfo) -> float:
                owner = (
                    "centred" if ci.owner is None else "mine" if ci.owner == ci.mover else "theirs"
                )
                return cube_efficiency(equities, owner)

            return by_cube
        return BEAROFF_X

    def probs(
        self, board: list[list[int]], listed: Probs | None = None, kind: int | None = None
    ) -> Probs:
        """The side on roll's cubeless probabilities at 0-ply (``listed``: gnubg-nn's own,
        when its move list holds them; ``kind``: the position's class, when known)."""
        if kind is None:
            kind = self.nn.classify(board)
        if kind in self.contact and differs_from_gnubg_nn(board):
            found = self.cache.get(str(board))
            if found is None:
                found = self.gnubg.probabilities(board, crashed=kind == self.crashed)
                self.cache[str(board)] = found
            return found
        if listed is not None:
            return listed
        p = self.nn.probabilities(board, 0)
        return (p[0], p[1], p[2], p[3], p[4])

    def candidates(
        self, pos: Position, d1: int, d2: int, ci: CubeInfo, *, top: int = 0
    ) -> list[tuple[str, str, float]]:
        """Every play of the roll: (gnubg-nn position key after it, the play's text, the
        mover's cubeful equity in EMG), best first. Empty when no play is possible.
        ``top`` keeps only that many plays best by gnubg-nn's cubeless equity (luck needs
        only the best play of each roll, which is among them)."""
        listing = self.nn.best_move(_board(pos), d1, d2, list=1)[1]
        if top:
            listing = sorted(listing, key=lambda c: -c[3])[:top]
        opp = ci.flipped()
        out = []
        for key, steps, listed, _cubeless in listing:
            after = self.nn.board_from_position_key(key)
            board = [list(after[0]), list(after[1])]
            kind = self.nn.classify(board)
            x = self.efficiency(board, kind)
            # gnubg-nn does not evaluate a forced play: its list then holds no probabilities
            forced = len(listing) == 1 or not all(0.0 <= p <= 1.0 for p in listed)
            probs = self.probs(board, None if forced else tuple(listed), kind)
            value = 1.0 - opponent_cubeful_mwc(probs, opp, x)
            out.append((key, _play_text(steps), emg(value, ci)))
        out.sort(key=lambda c: -c[2])
        return out

    def after_key(self, after: Position) -> str:
        key: str = self.nn.key_of_board([list(after.me[1:]), list(after.opp[1:])])
        return key

    def standing(self, pos: Position, ci: CubeInfo) -> float:
        """The mover's equity (EMG) when its roll cannot be played: the opponent on roll."""
        swapped = pos.swapped()
        board = _board(swapped)
        value = 1.0 - opponent_cubeful_mwc(self.probs(board), ci.flipped(), self.efficiency(board))
        return emg(value, ci)

    def luck(self, pos: Position, ci: CubeInfo, thrown: tuple[int, int], best: float) -> float:
        total = 0.0
        for d1, d2 in _ROLLS:
            weight = 1 if d1 == d2 else 2
            found = self.candidates(pos, d1, d2, ci, top=LUCK_CANDIDATES)
            total += weight * (found[0][2] if found else self.standing(pos, ci))
        return best - total / 36


def _turns(record: MatRecord) -> Iterator[tuple[int, MatchScore, bool, list[Any]]]:
    """Each game the replay accepts: its number, the score before it, whether it is the
    Crawford game, and its actions."""
    report = replay_record(record)
    for game, played in zip(record.games, report.games, strict=False):
        yield (
            game.number,
            MatchScore(record.length, game.score),
            played.crawford,
            list(game.actions),
        )


def analyse_record(
    record: MatRecord,
    *,
    luck: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Analyse a match record (:class:`backgammon.mat.MatRecord`, from any form the site
    reads). ``progress(done, total)`` is called after each game. Raises
    :class:`AnalysisUnavailable` without ``gnubg-nn``, :class:`ValueError` for a money
    session."""
    if record.length <= 0:
        raise ValueError("a money session has no match score to analyse")
    nn = _engine()
    ev = _Evaluator(nn)
    players = (PlayerAnalysis(record.players[0]), PlayerAnalysis(record.players[1]))
    result = MatchAnalysis(record.length, players)
    games = list(_turns(record))
    for done, (number, match, crawford, actions) in enumerate(games, start=1):
        _analyse_game(ev, result, number, match, crawford, actions, luck)
        if progress is not None:
            progress(done, len(games))
    for d in result.decisions:
        if d.mark is not None:
            players[d.player].errors += 1
    return result


def _analyse_game(
    ev: _Evaluator,
    result: MatchAnalysis,
    number: int,
    match: MatchScore,
    crawford: bool,
    actions: list[Any],
    luck: bool,
) -> None:
    boards = [START.me, START.opp]
    cube, owner = 1, None
    turn = 0
    pending: tuple[int, Any, str] | None = None  # (doubler, cube values, position id)
    players = result.players

    def info(mover: int) -> CubeInfo:
        return CubeInfo(match.length, match.score, cube, owner, mover, crawford)

    def add(d: Decision, cube_error: bool) -> None:
        result.decisions.append(d)
        if d.counted:
            players[d.player].decisions += 1
        if cube_error:
            players[d.player].cube_error += d.error
        else:
            players[d.player].checker_error += d.error

    for action in actions:
        player = action.player
        if action.kind == DOUBLE:
            pos = Position.trusted(boards[player], boards[1 - player])
            ci = info(player)
            values = cube_decision(ev.probs(_board(pos)), ci, ev.efficiency(_board(pos)))
            error = max(0.0, values.best - values.doubled)
            best = "no double" if values.no_double > values.doubled else "double"
            add(
                Decision(
                    number,
                    turn,
                    player,
                    "double",
                    error,
                    "double",
                    best,
                    True,
                    position_id=pos.position_id(),
                ),
                True,
            )
            pending = (player, values, pos.position_id())
        elif action.kind in (TAKE, DROP) and pending is not None:
            _doubler, values, pid = pending
            if action.kind == TAKE:
                error = max(0.0, values.take - values.drop)
                best = "drop" if error > 0 else "take"
                add(
                    Decision(
                        number, turn, player, "take", error, "take", best, True, position_id=pid
                    ),
                    True,
                )
                cube, owner = cube * 2, player
            else:
                error = max(0.0, values.drop - values.take)
                best = "take" if error > 0 else "drop"
                add(
                    Decision(
                        number, turn, player, "drop", error, "drop", best, True, position_id=pid
                    ),
                    True,
                )
            pending = None
        elif action.kind == ROLL:
            pos = Position.trusted(boards[player], boards[1 - player])
            ci = info(player)
            if action.unplayed:
                turn += 1
                continue
            assert action.dice is not None
            d1, d2 = action.dice
            found = ev.candidates(pos, d1, d2, ci)
            # no play written although the roll had a choice of plays: gnubg's import reads
            # a roll and then a resignation, with no cube decision before it
            resigned = not action.moves and len(found) > 1
            if pos != START and ci.may_double() and pending is None and not resigned:
                values = cube_decision(ev.probs(_board(pos)), ci, ev.efficiency(_board(pos)))
                error = max(0.0, values.best - values.no_double)
                close = values.best - min(values.take, 1.0) < CLOSE_CUBE
                best = "double" if error > 0 else "no double"
                if close or error > 0:
                    add(
                        Decision(
                            number,
                            turn,
                            player,
                            "nodouble",
                            error,
                            "no double",
                            best,
                            close,
                            position_id=pos.position_id(),
                        ),
                        True,
                    )
            after = apply_move_text(pos, action.moves)
            key = ev.after_key(after) if found else ""
            played = next((c for c in found if c[0] == key), None)
            if found and played is not None:
                error = found[0][2] - played[2]
                add(
                    Decision(
                        number,
                        turn,
                        player,
                        "move",
                        error,
                        " ".join(action.moves),
                        found[0][1],
                        len(found) > 1,
                        dice=(d1, d2),
                        position_id=pos.position_id(),
                    ),
                    False,
                )
            if luck:
                best_value = found[0][2] if found else ev.standing(pos, ci)
                players[player].luck += ev.luck(pos, ci, (d1, d2), best_value)
            boards[player], boards[1 - player] = after.me, after.opp
            pending = None
            turn += 1
