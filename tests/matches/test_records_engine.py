"""The record pipeline with the real engine (``engine.replay.replay_text``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.models import Game, GameRecordSubmission, MatchState, RecordState, ResultSource
from matches.services import game_record_submit, game_result_enter
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of

pytestmark = pytest.mark.django_db

# White bears off the last checker: the play itself ends game 1 with hemspel.
ONE_GAME = (
    '[White "P001"]\n[Black "P002"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
)


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[3])


def _submit(setup: Setup, text: str, capture: Any) -> GameRecordSubmission:
    match = match_of(setup.tournament, 1, 0)
    with capture(execute=True):
        sub = game_record_submit(match=match, text=text, by=setup.referee)
    sub.refresh_from_db()
    return sub


def test_referee_record_enters_the_game(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submit(setup, ONE_GAME, django_capture_on_commit_callbacks)
    assert sub.state == RecordState.ENTERED, sub.message
    assert sub.report is not None and sub.report["valid"] is True
    game = Game.objects.get(match=sub.match)
    assert (game.winner, game.outcome, game.source, game.verified) == (
        "W",
        "hemspel",
        ResultSource.RECORD,
        True,
    )
    sub.match.refresh_from_db()
    assert sub.match.state == MatchState.PLAYING


def test_record_agreeing_with_entered_result_verifies_it(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    m = match_of(setup.tournament, 1, 0)
    game_result_enter(match=m, number=1, result=won("W", "hemspel"), by=setup.referee)
    sub = _submit(setup, ONE_GAME, django_capture_on_commit_callbacks)
    assert sub.state == RecordState.VERIFIED, sub.message
    assert Game.objects.get(match=m).verified


def test_record_disagreeing_flags_the_match(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    m = match_of(setup.tournament, 1, 0)
    game_result_enter(match=m, number=1, result=won("B", "jan"), by=setup.referee)
    sub = _submit(setup, ONE_GAME, django_capture_on_commit_callbacks)
    m.refresh_from_db()
    assert sub.state == RecordState.MISMATCH and "Game 1" in m.flag
    assert Game.objects.get(match=m).outcome == "jan"


def test_illegal_record_is_invalid_with_the_engines_message(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    text = ONE_GAME.replace("W 6-5: 24/off", "W 6-5: 24/off 20/off")
    sub = _submit(setup, text, django_capture_on_commit_callbacks)
    assert sub.state == RecordState.INVALID
    assert sub.message and sub.report is not None and sub.report["error"]["kind"]
    assert not Game.objects.filter(match=sub.match).exists()


def test_a_brade_shaped_record_that_does_not_read_is_a_syntax_error(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submit(setup, "Game 1\nthis is not a record\n", django_capture_on_commit_callbacks)
    assert sub.state == RecordState.INVALID
    assert sub.report is not None and sub.report["error"]["kind"] == "syntax"


def test_json_record_is_read_like_the_text_form(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    """game-record.md's JSON form of ONE_GAME: stored as submitted, entered the same way."""
    record = {
        "tags": {"White": "P001", "Black": "P002", "Rules": "talisman", "Length": "3"},
        "games": [
            {
                "position": "W 24 | B 1:15 | W",
                "turns": [{"side": "W", "dice": [6, 5], "steps": [[24, 25]]}],
                "result": {"winner": "W", "outcome": "hemspel", "pattern": None, "munk": False},
            }
        ],
    }
    text = json.dumps(record)
    sub = _submit(setup, text, django_capture_on_commit_callbacks)
    assert sub.text == text
    assert sub.state == RecordState.ENTERED, sub.message
    assert sub.report is not None and sub.report["match"]["length"] == 3
    game = Game.objects.get(match=sub.match)
    assert (game.winner, game.outcome, game.source) == ("W", "hemspel", ResultSource.RECORD)


def test_json_record_with_wrong_length_changes_nothing(
    setup: Setup, django_capture_on_commit_callbacks: Any
) -> None:
    record = {
        "tags": {"Rules": "talisman", "Length": "5"},
        "games": [
            {
                "position": "W 24 | B 1:15 | W",
                "turns": [{"side": "W", "dice": [6, 5], "steps": [[24, 25]]}],
            }
        ],
    }
    sub = _submit(setup, json.dumps(record), django_capture_on_commit_callbacks)
    assert sub.state == RecordState.MISMATCH
    assert "length is 5" in sub.message
    sub.match.refresh_from_db()
    assert sub.match.flag == sub.message
    assert not Game.objects.filter(match=sub.match).exists()
