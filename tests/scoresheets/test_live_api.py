"""The digital scoresheet through its API: a game recorded turn by turn, its result
entered as a verified record, and the next game's starter."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from matches.models import Game, GameRecordSubmission, RecordState, ResultSource
from scoresheets.models import LiveGame, LiveTurn
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.scoresheets.helpers import Table, play_game
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> Any:
    s = drawn(2, lengths=[3])
    return s, match_of(s.tournament, 1, 0)


def test_a_brade_game_recorded_to_its_end_is_entered_verified(
    setup: Any, django_capture_on_commit_callbacks: Any
) -> None:
    s, match = setup
    table = Table(client_for(s.referee), match.pk)
    started = table.start()
    assert started.status_code == 201, started.content
    assert table.state["phase"] == "start" and table.state["seq"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        play_game(table, random.Random(3))
    game = Game.objects.get(match=match, number=1)
    assert game.source == ResultSource.RECORD and game.verified
    sub = GameRecordSubmission.objects.get(match=match)
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    live = LiveGame.objects.get(match=match, number=1)
    assert live.outcome is not None
    assert live.outcome["result"]["winner"] == (0 if game.winner == "W" else 1)
    # the next game: started by the loser (R2, S5), its turns numbered on
    state = table.state
    assert state["game_number"] == 2 and state["phase"] == "roll"
    assert state["starter"] == (1 if game.winner == "W" else 0)
    assert state["seq"] == LiveTurn.objects.filter(match=match).count()


@pytest.fixture
def table(setup: Any) -> Table:
    s, match = setup
    table = Table(client_for(s.referee), match.pk)
    assert table.start().status_code == 201
    return table


def test_start_twice_resumes_the_same_game(setup: Any, table: Table) -> None:
    again = table.start()
    assert again.status_code == 200
    assert again.json()["version"] == table.state["version"]
    assert LiveGame.objects.filter(match_id=table.match).count() == 1


def test_the_same_turn_sent_twice_is_stored_once(table: Table) -> None:
    first = table.post("start", dice=[2, 5])
    assert first.status_code == 201
    assert table.state["to_move"] == 0 and table.state["turns"][-1]["text"] == "Tek: 2-5"
    again = table.post("start", dice=[2, 5], seq=1)
    assert again.status_code == 200
    assert again.json()["seq"] == 1
    assert LiveTurn.objects.filter(match_id=table.match).count() == 1


def test_another_device_with_other_content_is_a_conflict(table: Table) -> None:
    table.post("start", dice=[2, 5])
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    other = Table(table.client, table.match, state={"seq": 1}, device=str(uuid.uuid4()))
    response = other.post("play", dice=[3, 1], steps=[[1, 4], [1, 2]], seq=2)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "live_conflict"
    assert error["fields"]["state"]["seq"] == 2
    assert error["fields"]["state"]["turns"][-1]["text"] == "W 6-4: 1/7 1/5"


def test_a_gap_names_the_expected_turn(table: Table) -> None:
    response = table.post("start", dice=[2, 5], seq=3)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "live_gap" and error["fields"]["expected"] == 1


def test_an_illegal_play_is_refused_with_the_engines_rule(table: Table) -> None:
    table.post("start", dice=[2, 5])
    # R5.3: no band on points 2–11
    response = table.post("play", dice=[3, 3], steps=[[1, 4], [1, 4], [4, 7], [4, 7]])
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "illegal_play" and "R5.3" in error["message"]
    assert LiveTurn.objects.filter(match_id=table.match).count() == 1
    # the turn is free again: a legal play with the same number is stored
    legal = table.state["legal"]["3-3"][0]
    assert table.post("play", dice=[3, 3], steps=legal).status_code == 201


def test_a_roll_the_state_does_not_ask_for_is_refused(table: Table) -> None:
    response = table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    assert response.status_code == 400
    assert "tek" in response.json()["error"]["message"]
    equal = table.post("start", dice=[4, 4])
    assert equal.status_code == 400 and "R2" in equal.json()["error"]["message"]
    cube = table.post("start", dice=[5, 2])
    assert cube.status_code == 201 and table.state["to_move"] == 1  # the lower die starts
    assert table.post("double").json()["error"]["code"] == "illegal_play"


def test_only_players_and_staff_record(setup: Any) -> None:
    _, match = setup
    stranger = Table(client_for(UserFactory.create()), match.pk)
    assert stranger.start().status_code == 403
    anonymous = Table(client_for(None), match.pk)
    assert anonymous.start().status_code == 401
    player = match.player1
    player.user = UserFactory.create()
    player.save()
    mine = Table(client_for(player.user), match.pk)
    assert mine.start().status_code == 201
    stranger.state = mine.state
    assert stranger.post("start", dice=[1, 2]).status_code == 403


def test_the_live_state_is_public_and_conditional(table: Table) -> None:
    table.post("start", dice=[2, 5])
    public = client_for(None)
    url = f"/api/matches/{table.match}/live/"
    first = public.get(url)
    assert first.status_code == 200 and first.json()["seq"] == 1
    tag = first["ETag"]
    assert public.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    changed = public.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["seq"] == 2


def test_nothing_recorded_is_404(setup: Any) -> None:
    _, match = setup
    assert client_for(None).get(f"/api/matches/{match.pk}/live/").status_code == 404


def test_kungabrade_cannot_be_recorded() -> None:
    s = drawn(2, lengths=[3], game="kungabrade")
    match = match_of(s.tournament, 1, 0)
    response = Table(client_for(s.referee), match.pk).start()
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "no_live"


def test_rolled_dice_come_from_the_site(setup: Any) -> None:
    s, match = setup
    table = Table(client_for(s.referee), match.pk)
    assert table.start("rolled").status_code == 201
    assert table.post("start").status_code == 201
    tek = table.state["turns"][0]["dice"]
    assert tek[0] != tek[1] and table.state["to_move"] == (0 if tek[0] < tek[1] else 1)
    assert table.post("roll").status_code == 201
    assert table.state["phase"] == "move" and len(table.state["dice"]) == 2
    ((key, plays),) = table.state["legal"].items()
    assert key == f"{max(table.state['dice'])}-{min(table.state['dice'])}"
    assert table.post("play", steps=plays[0]).status_code == 201
    assert table.state["phase"] == "roll"


def test_a_resignation_ends_the_game_uppgivet(setup: Any, table: Table) -> None:
    _, match = setup
    table.post("start", dice=[2, 5])
    assert table.state["rules"]["can_resign"] is True
    assert table.post("resign").status_code == 201
    game = Game.objects.get(match=match, number=1)
    assert (game.winner, game.outcome) == ("B", "uppgivet")
    assert table.state["game_number"] == 2 and table.state["starter"] == 0  # the loser
    assert table.state["previous"]["outcome"]["words"] == "Black uppgivet"
