"""``python manage.py replay FILE [--json]``: report, error kinds, exit codes 0/1/2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.record import read_record, write_json
from engine.replay import GameReport, ReplayReport, report_lines
from engine.types import Outcome, OutcomeKind, Pattern, Side
from scoring.report import match_line

ROOT = Path(__file__).resolve().parents[2]

VALID = "Game 1\nTek: 2-5\nW 6-4: 1/7 1/5\nB 3-1: 1/4 4/5\nW resigns\nResult: Black uppgivet\n"
ILLEGAL = "Game 1\nTek: 2-5\nW 6-6: 1/7 1/7 1/7 1/7\n"


def run(path: Path | str, *options: str) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("replay", str(path), *options, stdout=out, stderr=StringIO())
    except CommandError as exc:
        return out.getvalue(), exc.returncode
    return out.getvalue(), 0


@pytest.fixture
def valid_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(VALID, encoding="utf-8")
    return path


def test_valid_text_json_report(valid_file: Path) -> None:
    out, code = run(valid_file, "--json")
    assert code == 0
    assert json.loads(out) == {
        "valid": True,
        "error": None,
        "rules": "talisman",
        "games": [
            {
                "number": 1,
                "starter": "W",
                "winner": "B",
                "outcome": "uppgivet",
                "pattern": None,
                "munk": False,
                "turns": 2,
            }
        ],
    }


def test_reads_json_by_content(tmp_path: Path) -> None:
    path = tmp_path / "game.record"  # the name says nothing about the form
    path.write_text(write_json(read_record(VALID)), encoding="utf-8")
    out, code = run(path, "--json")
    assert code == 0 and json.loads(out)["valid"] is True


def test_human_report(valid_file: Path) -> None:
    out, code = run(valid_file)
    assert code == 0
    assert out.splitlines() == [
        "Record valid: 1 game replayed (rules talisman).",
        "Game 1: White starts; Black wins: White resigned (uppgivet); 2 turns.",
    ]


def test_text_report_has_a_match_line_in_words(tmp_path: Path) -> None:
    path = tmp_path / "match.txt"
    path.write_text('[Length "3"]\n' + VALID, encoding="utf-8")
    out, code = run(path)
    assert code == 0
    assert out.splitlines()[-1] == (
        "Match, best of 3, W&W: White 0 points, Black 1 point; skiljepoäng White 0, "
        "Black 1. Not decided yet."
    )
    for python in ("{", "}", "None", "(s)", "'W'"):
        assert python not in out


def test_invalid_record_has_no_match_line_in_text_but_keeps_it_in_json(tmp_path: Path) -> None:
    path = tmp_path / "bad-match.txt"
    path.write_text('[Length "3"]\n' + ILLEGAL, encoding="utf-8")
    out, code = run(path)
    assert code == 1
    assert out.splitlines() == [
        "Record NOT valid: no games replayed before the error (rules talisman).",
        "Error in game 1, line 4 (illegal play): R5.3: White may not make a band on point 7",
    ]
    report, code = run(path, "--json")
    assert code == 1 and json.loads(report)["match"]["winner"] is None  # game-record.md


def test_report_lines_plurals_and_swedish_letters() -> None:
    """Synthetic games (any outcome, any count) rendered as the text report writes them."""
    white, black = Side.WHITE, Side.BLACK
    games = [
        GameReport(1, white, Outcome(black, OutcomeKind.SPRANGJAN), 1),
        GameReport(
            2, white, Outcome(white, OutcomeKind.VACKERT_SPEL, Pattern.DUBBELT_KRONSPEL, True), 2
        ),
        GameReport(3, black, Outcome(white, OutcomeKind.HEMSPEL, munk=True), 0),
    ]
    match = {
        "length": 3,
        "scale": "ww",
        "points": {"W": 4, "B": 4},
        "tiebreak": {"W": 1, "B": 2},
        "winner": "B",
        "decided_after_game": 3,
    }
    report = ReplayReport(True, None, "helmfrid", {}, games, match)
    assert report_lines(report, match_line=match_line) == [
        "Record valid: 3 games replayed (rules helmfrid).",
        "Game 1: White starts; Black wins by sprängjan; 1 turn.",
        "Game 2: White starts; White wins by vackert spel (dubbelt kronspel) with munk; 2 turns.",
        "Game 3: Black starts; White wins by hemspel with munk; 0 turns.",
        "Match, best of 3, W&W: White 4 points, Black 4 points; skiljepoäng White 1, Black 2. "
        "Black wins the match, decided after game 3.",
    ]
    # The JSON report keeps game-record.md's ASCII names.
    assert report.to_dict()["games"][0]["outcome"] == "sprangjan"


def test_match_line_names_each_scales_tiebreak() -> None:
    base = {"length": 5, "points": {"W": 3, "B": 1}, "winner": None, "decided_after_game": None}
    ny1 = match_line({**base, "scale": "ny1", "tiebreak": {"W": 1, "B": -1}})
    assert ny1 == (
        "Match, best of 5, Ny 1: White 3 points, Black 1 point; plus and minus White +1, "
        "Black −1. Not decided yet."
    )
    ny2 = match_line({**base, "scale": "ny2", "tiebreak": {"W": 0, "B": 0}})
    assert ny2 == "Match, best of 5, Ny 2: White 3 points, Black 1 point. Not decided yet."


def test_invalid_record_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(ILLEGAL, encoding="utf-8")
    out, code = run(path, "--json")
    assert code == 1
    report = json.loads(out)
    assert report["valid"] is False and report["games"] == []
    error = report["error"]
    assert (error["kind"], error["game"], error["line"]) == ("illegal", 1, 3)
    assert error["message"].startswith("R5")
    human, code = run(path)
    assert code == 1 and "NOT valid" in human and "game 1, line 3" in human


def test_oversized_record_is_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    # a bräde record by its tag (a file no game claims is no record: games.unread)
    path.write_bytes(b'[Event "big"]\n' + b"; padding\n" * 150_000)
    out, code = run(path, "--json")
    assert code == 1 and json.loads(out)["error"]["kind"] == "syntax"


def test_missing_file_exits_2(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as info:
        call_command("replay", str(tmp_path / "nope.txt"))
    assert info.value.returncode == 2
    with pytest.raises(CommandError) as info:
        call_command("replay", str(tmp_path))  # a directory cannot be read
    assert info.value.returncode == 2


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "replay", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base"},
        check=False,
    )


def test_exit_codes_from_the_command_line(valid_file: Path, tmp_path: Path) -> None:
    done = manage(str(valid_file), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["valid"] is True  # exactly one JSON object on stdout
    bad = tmp_path / "bad.txt"
    bad.write_text(ILLEGAL, encoding="utf-8")
    done = manage(str(bad), "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["kind"] == "illegal"
    assert manage(str(tmp_path / "missing.txt")).returncode == 2
    assert manage(str(valid_file), "--frobnicate").returncode == 2
    assert manage().returncode == 2
