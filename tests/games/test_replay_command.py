"""``manage.py replay`` through the registry: a ``.mat`` file is replayed by the backgammon
family (text and ``--json``), bräde records give exactly the engine's report."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.replay import replay_text, report_lines
from scoring.report import match_line, match_scorer, max_games_from_tags
from tests.backgammon.test_mat import XG, replace_line

DATA = Path(__file__).resolve().parent.parent / "data"
BRADE_FILES = sorted((DATA / "corpus").glob("*.txt")) + sorted((DATA / "scoring").glob("*.txt"))


def run(path: Path | str, *options: str) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("replay", str(path), *options, stdout=out, stderr=StringIO())
    except CommandError as exc:
        return out.getvalue(), exc.returncode
    return out.getvalue(), 0


@pytest.fixture
def xg(tmp_path: Path) -> Path:
    path = tmp_path / "match.txt"  # found by content, not by the name
    path.write_text(XG, encoding="utf-8")
    return path


class TestBackgammon:
    def test_text_report(self, xg: Path) -> None:
        out, code = run(xg)
        assert code == 0
        assert out.splitlines() == [
            "Record valid: 4 games replayed (backgammon, 3-point match; read as eXtreme Gammon "
            ".mat; Alice – Bob).",
            "Game 1: Alice wins by a drop, cube 2: 2 points; score 2–0.",
            "Game 2 (Crawford game): Bob wins by resignation (a single game), cube 1: "
            "1 point; score 2–1.",
            "Game 3: Bob wins by a drop, cube 1: 1 point; score 2–2.",
            "Game 4: Alice wins by resignation (a single game), cube 1: 1 point; score 3–2.",
            "Match to 3 points: Alice 3 points, Bob 2 points. Alice wins the match. "
            "Crawford game: game 2.",
        ]

    def test_json_report(self, xg: Path) -> None:
        out, code = run(xg, "--json")
        assert code == 0
        report = json.loads(out)
        assert report["valid"] is True and report["length"] == 3
        assert report["score"] == {"Alice": 3, "Bob": 2}
        assert report["winner"] == "Alice" and report["crawford_game"] == 2
        assert [
            (g["game"], g["winner"], g["points"], g["cube"], g["crawford"]) for g in report["games"]
        ] == [
            (1, "Alice", 2, 2, False),
            (2, "Bob", 1, 1, True),
            (3, "Bob", 1, 1, False),
            (4, "Alice", 1, 1, False),
        ]
        assert report["warnings"] == [] and report["errors"] == []

    @pytest.mark.parametrize(
        "path", sorted((DATA / "backgammon").glob("*.mat")), ids=lambda p: p.name
    )
    def test_real_mat_files(self, path: Path) -> None:
        out, code = run(path, "--json")
        report = json.loads(out)
        assert code == 0 and report["winner"] in report["players"]
        assert report["score"][report["winner"]] >= report["length"]
        text, code = run(path)
        last = text.splitlines()[-1]
        assert code == 0
        assert last.startswith(f"Match to {report['length']} point")
        assert f"{report['winner']} wins the match." in last
        if path.name.startswith("fibs_"):  # both FIBS matches: bgnori won to 9
            assert last.startswith("Match to 9 points: bgnori ")

    def test_double_in_the_crawford_game_exits_1(self, tmp_path: Path) -> None:
        bad = replace_line(
            XG, "  2) 31: 8/5 6/5\n", "  2) 31: 8/5 6/5                     Doubles => 2\n"
        )
        line = bad.splitlines().index("  2) 31: 8/5 6/5                     Doubles => 2") + 1
        path = tmp_path / "bad.mat"
        path.write_text(bad, encoding="utf-8")
        out, code = run(path)
        assert code == 1
        lines = out.splitlines()
        assert (
            lines[0]
            == "Record NOT valid: 1 game replayed before the error (backgammon, 3-point match; "
            "read as eXtreme Gammon .mat; Alice – Bob)."
        )
        assert lines[1].startswith(f"Error in game 2, line {line} (cube action): ")
        assert "Crawford" in lines[1]
        assert not any(line.startswith("Match to") for line in lines)  # no standing when invalid
        report, code = run(path, "--json")
        assert code == 1
        (error,) = json.loads(report)["errors"]
        assert (error["kind"], error["game"], error["line"]) == ("cube", 2, line)

    def test_an_illegal_move_that_stands_is_a_warning(self, tmp_path: Path) -> None:
        bad = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles",
            "  1) 31: 8/4 6/5                      Doubles",
        )
        path = tmp_path / "warn.mat"
        path.write_text(bad, encoding="utf-8")
        out, code = run(path)
        assert code == 0
        assert out.splitlines()[1].startswith("Warning in game 1, line 12: illegal play 31: ")

    def test_windows_1252_names(self, tmp_path: Path) -> None:
        path = tmp_path / "latin.mat"
        path.write_bytes(XG.replace("Alice", "J\u00f6rgen").encode("cp1252"))
        out, code = run(path, "--json")
        assert code == 0 and json.loads(out)["winner"] == "J\u00f6rgen"


@pytest.mark.parametrize("path", BRADE_FILES, ids=[p.name for p in BRADE_FILES])
def test_brade_reports_are_the_engines_byte_for_byte(path: Path) -> None:
    """What the command printed before the seam: engine.replay with the record's tags."""
    report = replay_text(
        path.read_bytes(), match_scorer=match_scorer, max_games=max_games_from_tags
    )
    text, code = run(path)
    assert text == "".join(line + "\n" for line in report_lines(report, match_line=match_line))
    assert code == (0 if report.valid else 1)
    out, _ = run(path, "--json")
    assert out == json.dumps(report.to_dict(), ensure_ascii=False) + "\n"


class TestBackgammonDialects:
    """``--program``, ``--money`` and ``--jacoby``; gnubg's ``.sgf``; a format the site does
    not read (docs/game-record.md, "Backgammon records from other programs")."""

    DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"

    def test_sgf_is_read_and_named(self) -> None:
        out, code = run(self.DATA / "gnubg_7pt_seed11.sgf", "--json")
        report = json.loads(out)
        assert code == 0 and report["valid"]
        assert (report["program"], report["format"]) == ("GNU Backgammon", "sgf")

    def test_program_and_money_options(self, tmp_path: Path) -> None:
        text = (self.DATA / "gnubg_5pt_seed2026.mat").read_text()
        path = tmp_path / "galaxy.txt"
        path.write_text(text.replace(" 5 point match", "16 point match"))
        out, code = run(path, "--json", "--program", "galaxy", "--money")
        report = json.loads(out)
        assert code == 0 and report["program"] == "BackgammonGalaxy"
        assert (report["length"], report["money"], report["winner"]) == (0, True, None)

    def test_an_xg_file_is_named_not_called_broken(self, tmp_path: Path) -> None:
        path = tmp_path / "match.xg"
        path.write_bytes(b"RGMH\x00\x00\x01\x00binary")
        out, code = run(path)
        assert code == 1
        assert "eXtreme Gammon's own match file (.xg), which the site does not read" in out
