"""The S4 worked examples as record files, replayed by the engine with the scoring hook
and through ``python manage.py replay`` (game-record.md, the ``match`` section)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.replay import replay_text
from engine.types import Outcome
from scoring.match import match_state
from scoring.report import match_scorer

DATA = Path(__file__).resolve().parents[1] / "data" / "scoring"

EXAMPLE_1_GAMES = ["W jan", "W hemspel", "W hemspel", "B vackert trappspel munk"]

# file, games' outcomes, the match section S4 prescribes
EXAMPLES = [
    (
        "s4_helmfrid_best_of_5_ww.txt",
        EXAMPLE_1_GAMES,
        {
            "length": 5,
            "scale": "ww",
            "points": {"W": 4, "B": 2},
            "tiebreak": {"W": 2, "B": 0},
            "winner": "W",
            "decided_after_game": 4,
        },
    ),
    (
        "s4_talisman_best_of_5_ny2.txt",
        EXAMPLE_1_GAMES,
        {
            "length": 5,
            "scale": "ny2",
            "points": {"W": 13, "B": 5},
            "tiebreak": {"W": 0, "B": 0},
            "winner": "W",
            "decided_after_game": 4,
        },
    ),
    (
        "s4_helmfrid_best_of_3_ww.txt",
        ["W hemspel", "W vackert trappspel", "B jan"],
        {
            "length": 3,
            "scale": "ww",
            "points": {"W": 2, "B": 2},
            "tiebreak": {"W": 0, "B": 1},
            "winner": "B",
            "decided_after_game": 3,
        },
    ),
]


@pytest.mark.parametrize(("name", "games", "match"), EXAMPLES)
def test_worked_example_replayed(name: str, games: list[str], match: dict[str, object]) -> None:
    report = replay_text((DATA / name).read_text(encoding="utf-8"), match_scorer=match_scorer)
    assert report.error is None and report.valid
    outcomes = [g.outcome for g in report.games if g.outcome is not None]
    assert len(outcomes) == len(report.games)
    assert outcomes == [Outcome.from_text(t) for t in games]
    assert report.match == match
    # the same as the state computed in code
    state = match_state(
        length=int(report.tags["Length"]), scale=report.tags["Scale"], outcomes=outcomes
    )
    assert state.to_report() == match


def test_ny2_example_open_after_three_games() -> None:
    text = (DATA / "s4_talisman_best_of_5_ny2.txt").read_text(encoding="utf-8")
    three = text[: text.index("Game 4")]
    report = replay_text(three, match_scorer=match_scorer)
    assert report.valid
    assert report.match is not None
    assert report.match["points"] == {"W": 13, "B": 0}
    assert report.match["winner"] is None and report.match["decided_after_game"] is None


def test_game_after_decided_is_a_match_error() -> None:
    text = (DATA / "s4_played_after_decided.txt").read_text(encoding="utf-8")
    report = replay_text(text, match_scorer=match_scorer)
    assert not report.valid
    assert report.error is not None
    error = report.error.to_dict()
    assert error["kind"] == "match" and error["game"] == 5
    assert "S4" in str(error["message"])
    assert [g.number for g in report.games] == [1, 2, 3, 4]


def run_command(path: Path) -> tuple[dict[str, object], int]:
    out = StringIO()
    code = 0
    try:
        call_command("replay", str(path), "--json", stdout=out, stderr=StringIO())
    except CommandError as exc:
        code = exc.returncode
    return json.loads(out.getvalue()), code


@pytest.mark.parametrize(("name", "games", "match"), EXAMPLES)
def test_worked_example_through_the_command(
    name: str, games: list[str], match: dict[str, object]
) -> None:
    report, code = run_command(DATA / name)
    assert code == 0 and report["valid"] is True
    assert report["match"] == match


def test_game_after_decided_through_the_command() -> None:
    report, code = run_command(DATA / "s4_played_after_decided.txt")
    assert code == 1 and report["valid"] is False
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] == "match" and error["game"] == 5


def test_game_after_decided_reported_even_if_its_play_is_illegal() -> None:
    """The breach comes first: game 5 should not exist, whatever its moves (S4)."""
    text = (DATA / "s4_played_after_decided.txt").read_text(encoding="utf-8")
    last = text.rindex("W 2-1: 24/off")
    text = text[:last] + "W 2-1: 24/23" + text[last + len("W 2-1: 24/off") :]
    report = replay_text(text, match_scorer=match_scorer)
    assert report.error is not None
    assert (report.error.kind, report.error.game) == ("match", 5)


RESIGNS = "Game 1\nStarter: W\nW resigns\nResult: Black uppgivet\n"


def test_resignation_forbidden_in_a_record() -> None:
    text = '[Length "1"]\n[Resignations "forbidden"]\n' + RESIGNS
    report = replay_text(text, match_scorer=match_scorer)
    assert report.error is not None
    assert (report.error.kind, report.error.game) == ("match", 1)
    assert "S1" in report.error.message


def test_resignation_over_the_cap_in_a_record() -> None:
    text = '[Length "1"]\n' + RESIGNS + "\nGame 2\nW resigns\nResult: Black uppgivet\n"
    report = replay_text(text, match_scorer=match_scorer)
    assert report.error is not None
    assert (report.error.kind, report.error.game) == ("match", 2)
    assert [g.number for g in report.games] == [1]
    # one resignation is within the cap: the match goes on (game 2 will be completed)
    report = replay_text('[Length "1"]\n' + RESIGNS, match_scorer=match_scorer)
    assert report.valid and report.match is not None
    assert report.match["points"] == {"W": 0, "B": 1} and report.match["winner"] is None
