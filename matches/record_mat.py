"""Backgammon's ``.mat`` records against a match (seed 002; ``backgammon.replay``).

The replay stops at the first error (a move that cannot be carried out, a cube action out
of turn, a double in the Crawford game, a wrong ``Wins`` or score line): the record is not
valid, with the error's game and line. An illegal move that the opponent let stand by
rolling or doubling is a warning with its line, and the replay goes on from the position
as played ("Ugyldige slag og ulovlige ryk"); the warnings are kept in the stored report and
shown on the record's page.

A valid record is compared with the match: its length (points), its two players (the
record's first player is White, the second Black, matched to the match's players by name
as bräde's tags are: ``record_verdicts.record_sides``), then every game's winner, ending,
cube and what a resignation conceded.
"""

from __future__ import annotations

from typing import Any

from backgammon.replay import GameReport, MatchReport, replay_text
from engine.messages import Msg
from engine.types import Side
from games.results import ResultValue
from games.seats import seat_of, side_of
from matches.common import active_games
from matches.engine_text import verdict
from matches.models import GameRecordSubmission, Match, RecordState
from matches.record_verdicts import PlayedGame, flag, invalid, record_settle, record_sides

__all__ = ["MatVerification", "mat_apply", "mat_replay"]

CONCEDED = {1: "single", 2: "gammon", 3: "backgammon"}


class MatVerification:
    """A backgammon replay as the verification stores it: ``valid``, the first ``error``
    (kind, game, line, message) and the report as JSON (with its warnings, the program and
    the format read: a ``.mat`` of any program's dialect or gnubg's ``.sgf``)."""

    def __init__(self, report: MatchReport) -> None:
        self.report = report
        self.valid = report.valid
        self.error = report.errors[0] if report.errors else None

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.report.to_dict(coded=True))
        data["format"] = self.report.format or "mat"  # mat, sgf, text, json: as read
        data["error"] = None if self.error is None else self.error.to_dict(coded=True)
        return data


def mat_replay(text: str, *, match: Match) -> MatVerification:
    return MatVerification(replay_text(text))


def _result(game: GameReport, sides: dict[Side, Side]) -> ResultValue | None:
    """The game as entered would give it, in the match's sides (None: no winner, or a
    match awarded by forfeit: that is a walkover, which the organiser gives on the site —
    a record cannot enter it)."""
    if game.winner is None or game.how == "forfeit":
        return None
    winner = seat_of(sides[side_of(game.winner)])
    conceded = CONCEDED.get(game.points // game.cube, "") if game.how == "resign" else ""
    return ResultValue(winner=winner, outcome=game.how, cube=game.cube, conceded=conceded)


def _words(match: Match, result: ResultValue) -> str:
    """``Anna, gammon, cube 2`` (a resignation: ``resign (gammon)``)."""
    name = str(match.player_for(side_of(result.winner)))
    how = f"{result.outcome} ({result.conceded})" if result.conceded else result.outcome
    return f"{name}, {how}, cube {result.cube}"


def mat_apply(
    sub: GameRecordSubmission, match: Match, verification: MatVerification
) -> tuple[str, list[Msg]]:
    report = verification.report
    if not report.valid:
        return RecordState.INVALID, [invalid(verification.error)]
    if report.length != match.length:
        return flag(
            match, sub, verdict("verdict.length_points", record=report.length, length=match.length)
        )
    first, second = report.players
    sides = record_sides(match, {"White": first, "Black": second})
    if sides is None:
        return flag(
            match,
            sub,
            verdict(
                "verdict.mat_players",
                first=first,
                second=second,
                one=str(match.player1),
                two=str(match.player2),
            ),
        )
    games = active_games(match)
    played = [PlayedGame(game.number, _result(game, sides)) for game in report.games]
    for entered, game in zip(games, played, strict=False):
        if game.result is not None and game.result != entered.result_value():
            return flag(
                match,
                sub,
                verdict(
                    "verdict.result",
                    game=entered.number,
                    claimed=_words(match, game.result),
                    entered=_words(match, entered.result_value()),
                ),
            )
    state, sentences = record_settle(sub, match, games, played)
    if report.warnings:
        sentences.append(verdict("verdict.warnings", count=len(report.warnings)))
    return state, sentences
