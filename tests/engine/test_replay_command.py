"""``python manage.py replay FILE [--json]``: report, error kinds, exit codes 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.record import read_record, write_json

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
    assert out.splitlines()[0].startswith("Record valid")
    assert "Game 1: White starts; Black uppgivet; 2 turns" in out


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
    path.write_bytes(b"; padding\n" * 150_000)
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
