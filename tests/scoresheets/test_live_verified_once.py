"""A match recorded live is verified once, by its turns: each was checked by the engine as
it was played, so the record stored at the end of a game is verified already — never
queued and replayed again — and its report is the one the family's replay gives the
written record (the oracle here: that replay, run by the test)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from matches.models import Game, GameRecordSubmission, Match, MatchState, RecordState
from matches.records import _real_replay
from scoresheets.models import LiveTurn
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table, play_game, play_game_with_illegal
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import ResultsBy

pytestmark = pytest.mark.django_db


def _record_match(
    table: Table,
    match: Match,
    rng: random.Random,
    play: Callable[[Table, random.Random], None] = lambda t, r: play_game(t, r, limit=1200),
) -> None:
    """Play games until the match is decided (or a bounded number of games)."""
    for _ in range(25):
        play(table, rng)
        match.refresh_from_db()
        if match.state == MatchState.DECIDED:
            return
    raise AssertionError("the match was not decided in 25 games")


def _without_verdict(report: Any) -> dict[str, Any]:
    data = dict(report)
    data.pop("verdict")
    return data


@pytest.mark.parametrize(
    ("game", "length", "fields", "seed"),
    [
        ("brade", 3, {}, 1),
        ("brade", 5, {"rules": "board", "addons": ["easy-reentry", "one-die"]}, 1),
        ("brade", 3, {"scale": "ny1"}, 2),
        ("brade", 3, {"clock_per_point": 600, "clock_delay": 12}, 3),  # [%clk] on every turn
        ("backgammon", 5, {}, 1),
        ("backgammon", 7, {}, 2),  # the Crawford game after the record's last game
        # a clock line below every row
        ("backgammon", 3, {"clock_per_point": 600, "clock_delay": 12}, 3),
    ],
)
def test_the_recorded_matchs_report_is_the_replays_of_its_record(
    game: str, length: int, fields: dict[str, Any], seed: int
) -> None:
    s = drawn(2, lengths=[length], game=game, **fields)
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    assert table.start().status_code == 201
    _record_match(table, match, random.Random(seed))
    subs = list(GameRecordSubmission.objects.filter(match=match).order_by("pk"))
    games = list(Game.objects.filter(match=match, voided_at__isnull=True).order_by("number"))
    assert len(subs) == len(games)
    for sub, entered in zip(subs, games, strict=True):
        # entered from its own record, verified from the start, never queued
        assert sub.state == RecordState.ENTERED
        assert (sub.attempts, sub.started_at, sub.finished_at is not None) == (0, None, True)
        assert entered.verified and entered.verified_by_id == sub.pk
        assert _without_verdict(sub.report) == _real_replay(sub.text, match=match).to_dict()
        assert sub.report["verdict"][0]["code"] == "verdict.recorded_live"
        if fields.get("clock_per_point") and game == "brade":
            turns = [line for line in sub.text.splitlines() if line[:2] in ("W ", "B ")]
            assert turns
            assert all(" ; [%clk " in line for line in turns)
        if fields.get("clock_per_point") and game == "backgammon":
            lines = sub.text.splitlines()
            rows = [k for k, line in enumerate(lines) if line[:5].strip().endswith(")")]
            assert rows
            assert all(lines[k + 1].startswith("; [%clk ") for k in rows)


def test_a_players_recorded_game_is_verified_and_waits_for_the_confirmation() -> None:
    """Where the players report, the recorded game is the recorder's report, its record
    verified already (the opponent confirms the result, not the record)."""
    s = drawn(2, lengths=[3], results_by=ResultsBy.PLAYERS)
    match = match_of(s.tournament, 1, 0)
    player = s.players[0]
    from tests.factories import UserFactory

    user = UserFactory.create()
    player.user = user
    player.save()
    table = Table(client_for(user), match.pk, commits=True)
    assert table.start().status_code == 201
    play_game(table, random.Random(4), limit=1200)
    (sub,) = GameRecordSubmission.objects.filter(match=match)
    assert sub.state == RecordState.VERIFIED
    assert sub.attempts == 0
    assert _without_verdict(sub.report) == _real_replay(sub.text, match=match).to_dict()
    assert not Game.objects.filter(match=match).exists()  # waiting for the opponent


def test_the_scoresheet_enters_results_only_through_the_result_services() -> None:
    """The scoresheet's service asks the result services; it does not take the match's
    lock for a result or add a game itself."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "scoresheets" / "services.py").read_text()
    assert "locked_game_add" not in source
    assert "game_result_record(" in source
    assert "game_record_checked(" in source


@pytest.mark.parametrize(("length", "seed"), [(5, 3), (7, 4)])
def test_accepted_illegal_moves_are_the_replays_warnings(length: int, seed: int) -> None:
    """An illegal play the opponent accepted stands as played (seed 002, "Ugyldige slag og
    ulovlige ryk"): the record writes it as played, and the stored report of every
    record of the match warns of each such play on its line exactly as the replay of that
    record does; the verdict says how many the opponent accepted."""
    s = drawn(2, lengths=[length], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    assert table.start().status_code == 201
    _record_match(table, match, random.Random(seed), play_game_with_illegal)
    subs = list(GameRecordSubmission.objects.filter(match=match).order_by("pk"))
    assert len(subs) >= 2
    for sub in subs:
        assert _without_verdict(sub.report) == _real_replay(sub.text, match=match).to_dict()
    accepted = LiveTurn.objects.filter(match=match, illegal=True).count()
    assert accepted >= 2
    last = subs[-1].report
    assert len(last["warnings"]) == accepted
    assert {w["code"] for w in last["warnings"]} == {"bg.turn.illegal_stands"}
    assert len({w["game"] for w in last["warnings"]}) >= 2  # their lines in later games
    assert [v["code"] for v in last["verdict"]] == [
        "verdict.recorded_live",
        "verdict.accepted_live",
    ]
    assert last["verdict"][1]["params"] == {"count": accepted}
