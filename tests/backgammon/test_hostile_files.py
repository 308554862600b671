"""Backgammon files that were accepted although broken, and readings that were silent
(docs/game-record.md, "Backgammon records from other programs"): a match length past any
match, game numbers that do not run 1, 2, 3, …, counts of thousands of digits; and the
readings that stand but are now reported as a warning on their line — a match resumed,
a Galaxy forfeit, a Galaxy row written on the line of the row before it."""

from __future__ import annotations

import pytest

from backgammon.errors import MatchError, RecordSyntaxError
from backgammon.mat import read_mat
from backgammon.record import read_bg_text
from backgammon.replay import MatchReport, replay_text
from backgammon.report import report_lines
from backgammon.sgf import read_sgf
from tests.backgammon.test_dialects import (
    FORFEIT,
    GALAXY_HEAD,
    GALAXY_NAMES,
    line_of,
    resumed,
    text_of,
)
from tests.backgammon.test_mat import XG, replace_line

GNUBG_3 = text_of("gnubg_3pt_seed42.mat")


def codes(report: MatchReport) -> list[tuple[str, int]]:
    return [(w.msg.code, w.line) for w in report.warnings]


# ---- the match length -----------------------------------------------------------------------


@pytest.mark.parametrize("written", ["99999999999999999999999", "100", "9" * 5000])
def test_a_match_length_past_the_bound_is_refused_at_its_line(written: str) -> None:
    text = XG.replace(" 3 point match", f" {written} point match")
    report = replay_text(text)
    (error,) = report.errors
    assert isinstance(error, MatchError) and error.msg.code == "bg.mat.length"
    assert error.line == line_of(text, "point match")
    assert error.msg.params["limit"] == 99  # backgammon.mat.MAX_RECORD_LENGTH
    assert str(error.msg.params["length"]).rstrip("…") == written[:24]
    assert report.length == -1  # "no match length read", not the refused length
    assert "no match length read" in report_lines(report)[0]


def test_the_longest_match_read_is_99_points() -> None:
    from backgammon.mat import MAX_RECORD_LENGTH

    record = read_mat(XG.replace(" 3 point match", f" {MAX_RECORD_LENGTH} point match"))
    assert record.length == MAX_RECORD_LENGTH == 99
    assert read_mat(XG.replace(" 3 point match", " 0 point match")).length == 0  # money


def test_the_bound_holds_in_sgf_and_the_own_form_too() -> None:
    sgf = text_of("gnubg_3pt_seed42.sgf").replace("MI[length:3]", "MI[length:100]")
    with pytest.raises(MatchError) as info:
        read_sgf(sgf)
    assert info.value.msg.code == "bg.mat.length"
    own = text_of("own_form_3pt.txt").replace('[Length "3"]', '[Length "100"]')
    with pytest.raises(MatchError) as info:
        read_bg_text(own)
    assert info.value.msg.code == "bg.mat.length"


# ---- game numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "found"),
    [(" Game 1", "1"), (" Game 7", "7"), (" Game " + "9" * 5000, "9" * 24 + "…")],
    ids=["1-1-3", "1-7", "thousands-of-digits"],
)
def test_game_numbers_run_one_two_three(header: str, found: str) -> None:
    text = replace_line(XG, " Game 2\n", header + "\n")
    report = replay_text(text)
    (error,) = report.errors
    assert isinstance(error, RecordSyntaxError) and error.msg.code == "bg.mat.game_number"
    assert error.msg.params == {"expected": 2, "found": found}
    assert error.line == line_of(XG, " Game 2")  # the wrong header's line
    assert "expected 'Game 2'" in error.message


def test_a_first_game_other_than_game_1_at_0_0_is_a_warning() -> None:
    text = XG
    for number in (4, 3, 2, 1):  # renumber 1–4 as 2–5, from the last
        text = text.replace(f" Game {number}\n", f" Game {number + 1}\n")
    report = replay_text(text)
    assert report.valid, report.errors
    assert codes(report) == [("bg.read.resumed_number", line_of(text, " Game 2"))]
    assert report.warnings[0].message == (
        "the first game is game 2, not game 1: read as a match resumed"
    )


# ---- silent readings, now warnings on their line -------------------------------------------


def test_a_first_score_other_than_0_0_is_read_as_resumed_with_a_warning() -> None:
    """gnubg's game 1 saying ``root : 1``: replayed as resumed at 0–1, and said so."""
    text = resumed(text_of("gnubg_15pt_seed99.mat"), 4)
    report = replay_text(text)
    assert report.valid, report.errors
    score_line = line_of(text, " Game 4") + 1
    first = report.warnings[0]
    assert (first.msg.code, first.game, first.line) == ("bg.read.resumed", 4, score_line)
    played = replay_text(text_of("gnubg_15pt_seed99.mat")).games[2].score_after
    assert first.msg.params == {"game": 4, "first": played[0], "second": played[1]}
    lines = report_lines(report)
    assert f"Warning in game 4, line {score_line}: game 4 starts at " in lines[1]


def test_game_1_at_0_1_in_a_gnubg_file() -> None:
    """The issue's case: a 3-point match whose game 1 says ``root : 1``."""
    score = next(line for line in GNUBG_3.splitlines() if line.strip().startswith("gnubg : 0"))
    text = GNUBG_3.replace(score, score[: score.rindex("0")] + "1", 1)
    report = replay_text(text)
    assert report.warnings and report.warnings[0].msg.code == "bg.read.resumed"
    assert report.warnings[0].message == "game 1 starts at 0–1: read as a match resumed"
    assert report.warnings[0].line == line_of(text, score.strip()[:10])


def test_a_galaxy_forfeit_is_a_warning_on_its_wins_line() -> None:
    report = replay_text(FORFEIT)
    assert report.valid and report.games[0].how == "forfeit"
    assert codes(report) == [("bg.read.forfeit", line_of(FORFEIT, "Wins 5"))]
    assert report.warnings[0].msg.params == {"points": 5}


def test_a_galaxy_row_read_as_two_rows_is_a_warning_on_its_line() -> None:
    text = (
        GALAXY_HEAD.format(length=1)
        + GALAXY_NAMES
        + "  1) 31: 8/5 6/5      1)  Losses 1 point"
        + " " * 47
        + "Wins 1 point and the match\n"
    )
    report = replay_text(text)
    assert report.valid, report.errors
    assert codes(report) == [("bg.read.split_row", line_of(text, "Losses"))]
    assert report.warnings[0].message == (
        "row 1 holds a second row 1 (its number repeated): read as two rows"
    )


def test_warnings_come_in_the_files_order() -> None:
    """An illegal play that stood (row 1) before the row read as two (row 2), although the
    reader notes the second before the replay finds the first."""
    text = (
        GALAXY_HEAD.format(length=1)
        + GALAXY_NAMES
        + "  1) 31: 8/4 6/5                  61: 13/7 8/7\n"
        + "  2) 31: 8/5 6/5      2)  Losses 1 point"
        + " " * 47
        + "Wins 1 point and the match\n"
    )
    report = replay_text(text)
    assert report.valid, report.errors
    assert codes(report) == [
        ("bg.turn.illegal_stands", line_of(text, "8/4 6/5")),
        ("bg.read.split_row", line_of(text, "Losses")),
    ]


# ---- counts of thousands of digits do not crash the reader ---------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (" Alice : 2 ", " Alice : " + "2" * 5000 + " "),  # a score
        ("Doubles => 4", "Doubles => " + "4" * 5000),  # a cube
        ("Wins 2 points", "Wins " + "2" * 5000 + " points"),  # a result
        ("8/5 6/5", "8/5 6/" + "5" * 5000),  # a point
    ],
)
def test_numbers_of_thousands_of_digits_are_errors_not_crashes(old: str, new: str) -> None:
    text = XG.replace(old, new, 1)
    report = replay_text(text)
    (error,) = report.errors
    assert error.line == line_of(text, new[:12])
