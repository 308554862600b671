"""A record holds no more games than its match can take (scoring.md S1).

The most games of a match of length n is n plus, under ``capped``, n resignations by each
player (``scoring.report.max_games``). A replay given that limit reads the record only up
to the game after it, which is a ``match`` error: the games beyond are never read, so a
record padded with thousands of resigned games costs nothing to refuse. The tests show
"never read" by putting text after the limit that would be a syntax error if read.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.errors import MatchError
from engine.record import read_record
from engine.replay import replay_text
from scoring.report import match_scorer, max_games, max_games_from_tags

GARBAGE = "this line is not a record line\n"

# Length 1, capped: at most 3 games. White resigns game 1; White (the loser) starts game
# 2 and Black resigns; Black starts game 3, a completed game (hemspel from a Position).
THREE = (
    '[Length "1"]\n'
    "Game 1\nStarter: White\nW resigns\n"
    "\nGame 2\nW 2-1: 1/3 1/2\nB resigns\n"
    "\nGame 3\nPosition: W 1:15 | B 24 | B\nB 2-1: 24/off\n"
)


def resigned_games(count: int, first: int = 1) -> str:
    return "".join(f"\nGame {n}\nW resigns\n" for n in range(first, first + count))


def test_max_games() -> None:
    assert max_games(length=5, policy="capped") == 15
    assert max_games(length=5, policy="forbidden") == 5
    assert max_games_from_tags({"Length": "3"}) == 9
    assert max_games_from_tags({"Length": "3", "Resignations": "forbidden"}) == 3
    assert max_games_from_tags({"White": "Anna"}) is None
    with pytest.raises(MatchError):
        max_games_from_tags({"Length": "4"})


def test_the_bound_can_be_reached() -> None:
    report = replay_text(THREE, match_scorer=match_scorer, max_games=max_games_from_tags)
    assert report.valid, report.error
    assert report.match is not None and report.match["decided_after_game"] == 3


def test_reader_stops_at_the_first_game_over_the_limit() -> None:
    text = "Game 1\nStarter: White" + resigned_games(4)[len("\nGame 1") :] + GARBAGE
    record = read_record(text, max_games=3)
    assert [g.number for g in record.games] == [1, 2, 3]
    assert record.more_games and record.more_games_line == 11
    with pytest.raises(Exception, match="not a turn"):
        read_record(text)  # without the limit the garbage is read
    unlimited = read_record(text.replace(GARBAGE, ""))
    assert not unlimited.more_games and len(unlimited.games) == 4


def test_json_reader_stops_at_the_limit() -> None:
    games: list[Any] = [{"starter": "W", "turns": [{"side": "W", "resigns": True}]}]
    games += [{"turns": [{"side": "W", "resigns": True}]}] * 2
    games.append("not a game")  # never read
    record = read_record(json.dumps({"tags": {}, "games": games}), max_games=3)
    assert len(record.games) == 3 and record.more_games and record.more_games_line is None


def test_excess_game_is_a_match_error_without_a_scorer() -> None:
    text = "Game 1\nStarter: White" + resigned_games(4)[len("\nGame 1") :] + GARBAGE
    report = replay_text(text, max_games=3)
    assert report.error is not None
    assert (report.error.kind, report.error.game, report.error.line) == ("match", 4, 11)
    assert "at most 3 games" in report.error.message
    assert [g.number for g in report.games] == [1, 2, 3]


def test_game_after_the_bound_is_refused_unread() -> None:
    text = THREE + "\nGame 4\nStarter: White\n" + GARBAGE * 3
    report = replay_text(text, match_scorer=match_scorer, max_games=max_games_from_tags)
    assert report.error is not None
    # the scorer names the breach (S4: decided after game 3); the garbage is never read
    assert (report.error.kind, report.error.game, report.error.line) == ("match", 4, 14)
    assert "S4" in report.error.message
    assert report.match is not None and report.match["decided_after_game"] == 3


def test_padded_resignations_refused_at_the_cap() -> None:
    # 45,000 resigned games in a best of 1: White may resign one; game 2 breaks the cap,
    # and nothing after game 4 is read.
    text = '[Length "1"]\nGame 1\nStarter: White\nW resigns\n' + resigned_games(45_000, 2)
    text += GARBAGE
    report = replay_text(text, match_scorer=match_scorer, max_games=max_games_from_tags)
    assert report.error is not None
    assert (report.error.kind, report.error.game) == ("match", 2)
    assert [g.number for g in report.games] == [1]
    # the report shows the match after the last game that counted (game-record.md)
    assert report.to_dict()["match"]["points"] == {"W": 0, "B": 1}


def test_bad_match_tag_is_refused_before_the_games() -> None:
    text = '[Length "4"]\nGame 1\nStarter: White\nW resigns\n' + GARBAGE
    report = replay_text(text, match_scorer=match_scorer, max_games=max_games_from_tags)
    assert report.error is not None and report.error.kind == "match"
    assert "odd" in report.error.message and report.games == []


def test_command_applies_the_limit_of_the_length_tag(tmp_path: Path) -> None:
    path = tmp_path / "padded.txt"
    path.write_text(THREE + "\nGame 4\nStarter: White\n" + GARBAGE, encoding="utf-8")
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay", str(path), "--json", stdout=out, stderr=StringIO())
    report = json.loads(out.getvalue())
    assert (report["error"]["kind"], report["error"]["game"]) == ("match", 4)
    assert report["match"]["decided_after_game"] == 3


def test_verification_of_a_match_applies_its_limit() -> None:
    """``matches.records._real_replay`` (what the verification task runs) passes the
    match's own limit: length 1, capped, so game 4 is never read."""
    from matches.records import _real_replay

    match = SimpleNamespace(
        length=1,
        tournament=SimpleNamespace(game="brade", scale="ww", resignation_policy="capped"),
    )
    text = THREE.replace('[Length "1"]\n', "") + "\nGame 4\nStarter: White\n" + GARBAGE
    report = _real_replay(text, match=match)  # type: ignore[arg-type]
    assert report.error is not None
    assert (report.error.kind, report.error.game) == ("match", 4)
    assert [g["number"] for g in report.to_dict()["games"]] == [1, 2, 3]
