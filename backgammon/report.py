"""The text report of a ``.mat`` replay (``manage.py replay FILE`` without ``--json``).

Written like the bräde report (``engine.replay.report_lines``): the verdict with the
number of games replayed, the error (where and what), every illegal move that stands (a
warning, seed 002 "Ugyldige slag og ulovlige ryk"), one line per game — winner, how, cube,
points, the score after it, the Crawford game marked — and, for a valid record, one line
for the match: each player's score, the winner and the Crawford game's number. Counts
have real plurals; the JSON report is :meth:`backgammon.replay.MatchReport.to_dict`.
"""

from __future__ import annotations

from backgammon.replay import UNNAMED_PLAYERS, GameReport, MatchReport

__all__ = ["report_lines"]

# What went wrong, by error kind (backgammon.errors), for the error line.
ERROR_KIND_WORDS: dict[str, str] = {
    "syntax": "syntax error",
    "illegal": "impossible move",
    "cube": "cube action",
    "result_mismatch": "the result does not match the play",
    "score_mismatch": "the score line does not match the games",
    "incomplete": "incomplete game",
    "match": "match rules",
    "format": "a format the site does not read",
}

_CONCEDED = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else noun + 's'}"


def _match_words(length: int) -> str:
    """``7-point match``; ``money session`` (length 0); ``no match length read`` (the
    reader stopped before the ``N point match`` line)."""
    if length > 0:
        return f"{length}-point match"
    return "money session" if length == 0 else "no match length read"


def _read_as(report: MatchReport) -> str:
    """``eXtreme Gammon .mat``, ``GNU Backgammon .sgf``: the dialect read."""
    parts = [report.program, f".{report.format}" if report.format else ""]
    return " ".join(p for p in parts if p)


def _how(game: GameReport) -> str:
    """``wins a gammon``, ``wins by a drop``, ``wins by resignation (a gammon)``."""
    if game.how == "drop":
        return "wins by a drop"
    if game.how == "forfeit":
        return "wins by forfeit (the match awarded)"
    if game.how == "resign":
        conceded = _CONCEDED.get(game.points // game.cube if game.cube else 0, "")
        return f"wins by resignation ({conceded})" if conceded else "wins by resignation"
    return f"wins {_CONCEDED.get({'single': 1, 'gammon': 2, 'backgammon': 3}[game.how], '')}"


def _where(game: int | None, line: int | None) -> str:
    parts = [f"game {game}" if game is not None else "", f"line {line}" if line is not None else ""]
    where = ", ".join(part for part in parts if part)
    return f" in {where}" if where else ""


def report_lines(report: MatchReport) -> list[str]:
    """The text report, one string per line."""
    played = _plural(len(report.games), "game") if report.games else "no games"
    what = f"backgammon, {_match_words(report.length)}"
    if report.jacoby:
        what += ", Jacoby rule"
    if _read_as(report):
        what += f"; read as {_read_as(report)}"
    if report.players != UNNAMED_PLAYERS:
        what += f"; {report.players[0]} – {report.players[1]}"
    if report.valid:
        lines = [f"Record valid: {played} replayed ({what})."]
    else:
        lines = [f"Record NOT valid: {played} replayed before the error ({what})."]
        if report.errors and report.errors[0].kind == "format":
            lines = [f"Record NOT read ({what})."]
    for err in report.errors:
        kind = ERROR_KIND_WORDS.get(err.kind, err.kind)
        lines.append(f"Error{_where(err.game, err.line)} ({kind}): {err.message}")
    for warning in report.warnings:
        lines.append(f"Warning{_where(warning.game, warning.line)}: {warning.message}")
    names = report.players
    for game in report.games:
        crawford = " (Crawford game)" if game.crawford else ""
        winner = "no one" if game.winner is None else names[game.winner]
        after = game.score_after
        lines.append(
            f"Game {game.number}{crawford}: {winner} {_how(game)}, cube {game.cube}: "
            f"{_plural(game.points, 'point')}; score {after[0]}–{after[1]}."
        )
    if report.valid and report.length > 0:
        score = report.score
        text = (
            f"Match to {_plural(report.length, 'point')}: {names[0]} "
            f"{_plural(score[0], 'point')}, {names[1]} {_plural(score[1], 'point')}. "
        )
        text += (
            "Not decided yet."
            if report.winner is None
            else f"{names[report.winner]} wins the match."
        )
        if report.crawford_game is not None:
            text += f" Crawford game: game {report.crawford_game}."
        else:
            text += " No Crawford game." if report.winner is not None else " No Crawford game yet."
        lines.append(text)
    return lines
