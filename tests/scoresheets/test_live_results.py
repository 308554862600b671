"""The end of a recorded game: backgammon with the cube played to the match's end, and
a tournament whose players report (the result waits for the opponent)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from backgammon.replay import replay_text
from matches.models import Game, GameRecordSubmission, GameReport, MatchState, RecordState
from matches.results import match_reset
from scoresheets.models import LiveGame
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.scoresheets.helpers import Table, play_game, random_turn
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db


def test_a_backgammon_match_with_the_cube_is_recorded_to_its_end(
    django_capture_on_commit_callbacks: Any,
) -> None:
    s = drawn(2, lengths=[3], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    assert table.start().status_code == 201
    rng = random.Random(11)
    cubes: list[int] = []
    crawford_seen: list[int] = []
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(12):
            state = table.state
            if state["status"] == "finished":
                break
            if state["cube"]["crawford"]:  # the Crawford game: no doubling
                crawford_seen.append(state["game_number"])
                assert random_turn(table, rng).status_code == 201  # the opening roll
                assert random_turn(table, rng).status_code == 201  # its play
                assert table.state["phase"] == "roll"
                assert table.state["cube"]["may_double"] is False
                refused = table.post("double")
                assert (
                    refused.status_code == 400 and "Crawford" in refused.json()["error"]["message"]
                )
            play_game(table, rng)
            live = LiveGame.objects.get(match=match, number=state["game_number"])
            assert live.outcome is not None
            cubes.append(live.outcome["result"]["cube"])
    match.refresh_from_db()
    assert match.state == MatchState.DECIDED
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert len(games) == LiveGame.objects.filter(match=match).count()
    assert all(g.verified and g.source == "record" for g in games)
    assert [g.cube for g in games] == cubes
    match.refresh_from_db()
    assert crawford_seen == ([match.crawford_game] if match.crawford_game else [])
    last = GameRecordSubmission.objects.filter(match=match).order_by("-pk").first()
    assert last is not None
    assert last.state == RecordState.ENTERED, last.message  # its games entered from it
    report = replay_text(last.text)
    assert report.valid and report.winner == (0 if match.winner_id == match.player1_id else 1)
    # a decided match records no further game
    again = table.start()
    assert again.status_code == 409 and again.json()["error"]["code"] == "match_decided"


def test_a_double_is_answered_before_anything_else() -> None:
    s = drawn(2, lengths=[5], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    table.start()
    assert table.post("start", dice=[3, 1]).status_code == 201
    assert table.state["to_move"] == 0 and table.state["phase"] == "move"
    assert table.post("play", steps=[[8, 5], [6, 5]]).status_code == 201
    assert table.post("double").status_code == 201  # player 1 on roll doubles
    assert table.state["phase"] == "cube" and table.state["to_move"] == 0
    refused = table.post("play", dice=[6, 5], steps=[[24, 18], [18, 13]])
    assert refused.status_code == 400
    assert table.post("take").status_code == 201
    cube = table.state["cube"]
    assert (cube["value"], cube["owner"], table.state["to_move"]) == (2, 0, 1)
    # only the owner redoubles
    assert table.post("double").json()["error"]["code"] == "illegal_play"
    assert table.post("resign", resign_value=2).status_code == 201
    game = Game.objects.get(match=match, number=1)
    assert (game.winner, game.outcome, game.conceded, game.cube) == ("W", "resign", "gammon", 2)
    match.refresh_from_db()
    assert (match.points1, match.points2) == (4, 0)
    assert table.state["game_number"] == 2 and table.state["phase"] == "start"


def test_where_players_report_the_result_waits_for_the_opponent(
    django_capture_on_commit_callbacks: Any,
) -> None:
    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.user, two.user = UserFactory.create(), UserFactory.create()
    one.save()
    two.save()
    table = Table(client_for(one.user), match.pk, commits=True)
    assert table.start().status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        table.post("start", dice=[5, 2])  # Black starts
        assert table.post("resign").status_code == 201  # Black resigns: White uppgivet
    assert table.state["status"] == "finished" and table.state["phase"] == "over"
    assert not Game.objects.filter(match=match).exists()
    report = GameReport.objects.get(match=match)
    assert (report.state, report.winner, report.outcome) == ("pending", "W", "uppgivet")
    assert table.state["entered"]["report"] == report.pk
    waiting = table.start()
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "report_pending"
    confirmed = client_for(two.user).post(f"/api/reports/{report.pk}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    assert Game.objects.get(match=match, number=1).starter == "B"
    assert Game.objects.get(match=match, number=1).verified  # by its record, as the others
    assert table.start().status_code == 201
    assert table.state["game_number"] == 2 and table.state["starter"] == 1  # the loser
    assert table.state["seq"] == 2


def test_a_match_with_a_game_entered_by_hand_is_not_recorded_live() -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    referee = client_for(s.referee)
    entered = referee.post(
        f"/api/matches/{match.pk}/games/",
        {"number": 1, "winner": "W", "outcome": "jan", "starter": "W"},
        format="json",
    )
    assert entered.status_code == 201, entered.content
    response = Table(referee, match.pk).start()
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "live_not_from_start"


def test_followers_see_a_confirmation_and_a_reset_that_were_no_turn(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The opponent's confirmation changes the score the board shows without a turn: the
    board's ETag changes with it, so a follower is not told "not modified"; a reset
    removes the board, and a follower's old ETag gets 404, not 304."""
    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.user, two.user = UserFactory.create(), UserFactory.create()
    one.save()
    two.save()
    table = Table(client_for(one.user), match.pk, commits=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert table.start().status_code == 201
        table.post("start", dice=[5, 2])
        assert table.post("resign").status_code == 201
    follower = client_for(UserFactory.create())
    url = f"/api/matches/{match.pk}/live/"
    before = follower.get(url)
    assert before.status_code == 200 and before.json()["score"] == [0, 0]
    etag = before["ETag"]
    assert follower.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    report = GameReport.objects.get(match=match)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client_for(two.user).post(f"/api/reports/{report.pk}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    after = follower.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert after.json()["score"] != [0, 0]
    assert after.json()["entered"]["game"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        match_reset(match=match, by=s.organiser, reason="played with the wrong starter")
    assert follower.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 404


@pytest.mark.parametrize(
    ("length", "resigned", "decides"),
    [(1, False, True), (1, True, False), (3, False, False)],
    ids=["best-of-1", "best-of-1-resigned", "best-of-3"],
)
def test_the_state_says_whether_the_match_is_decided(
    django_capture_on_commit_callbacks: Any, length: int, resigned: bool, decides: bool
) -> None:
    """``decided``: the reported game decides the match once confirmed (a best-of-1's
    game played out; a resigned game is not a completed one, S1), and the match is
    decided after the confirmation; starting another game is refused with a code."""
    s = drawn(2, lengths=[length], rules="talisman", results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.user, two.user = UserFactory.create(), UserFactory.create()
    one.save()
    two.save()
    table = Table(client_for(one.user), match.pk, commits=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert table.start().status_code == 201
        assert table.state["decided"] is False
        assert table.post("start", dice=[2, 5]).status_code == 201
        if resigned:
            assert table.post("resign").status_code == 201
        else:
            play_game(table, random.Random(3), cube=False)
    assert table.state["phase"] == "over"
    assert table.state["decided"] is decides
    waiting = table.start()
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "report_pending"
    report = GameReport.objects.get(match=match)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client_for(two.user).post(f"/api/reports/{report.pk}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    state = table.get().json()
    assert state["decided"] is decides
    again = table.start()
    if decides:
        assert again.status_code == 409 and again.json()["error"]["code"] == "match_decided"
    else:
        assert again.status_code == 201 and table.state["decided"] is False
