"""The digital scoresheet's pages: who may open the recording page, the match page's link
and live board, the tournament's boards in progress (conditional: 304 until a turn)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Match
from scoresheets.polling import FOLLOW_EVERY
from scoresheets.selectors import SMALL_BOARD_KEYS
from tests.factories import UserFactory
from tests.tournaments.helpers import Setup, drawn, match_of, players_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    client.cookies["django_language"] = "en"


def _setup(**fields: Any) -> tuple[Setup, Match, Any]:
    s = drawn(2, lengths=[3], **fields)
    match = match_of(s.tournament, 1, 0)
    user = UserFactory.create(username="white")
    player = players_of(match)[0]
    player.user = user
    player.save()
    return s, match, user


def _json(pattern: str, html: str) -> Any:
    found = re.search(pattern, html, re.S)
    assert found is not None, pattern
    return json.loads(found[1])


def _api(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_anonymous_readers_are_sent_to_sign_in(client: Client) -> None:
    _s, match, _user = _setup()
    response = client.get(f"/matches/{match.pk}/record/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_players_and_referees_may_record_others_may_not(client: Client) -> None:
    s, match, user = _setup()
    client.force_login(user)
    page = client.get(f"/matches/{match.pk}/record/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-api="/api/matches/{match.pk}/live/"' in html
    assert f'data-turns="/api/matches/{match.pk}/live/turns/"' in html
    words = _json(r'id="sheet-words"[^>]*>(.*?)</script>', html)
    assert words["confirm"] == "Confirm the turn" and "%(move)s" in words["play_forced"]
    client.force_login(s.referee)
    assert client.get(f"/matches/{match.pk}/record/").status_code == 200
    client.force_login(UserFactory.create())
    refused = client.get(f"/matches/{match.pk}/record/")
    assert refused.status_code == 403
    assert "may record its games" in refused.content.decode()


def test_a_private_tournaments_match_is_not_found_for_strangers(client: Client) -> None:
    _s, match, _user = _setup(is_public=False)
    client.force_login(UserFactory.create())
    assert client.get(f"/matches/{match.pk}/record/").status_code == 404


def test_kungabrade_cannot_be_recorded_move_by_move(client: Client) -> None:
    s, match, _user = _setup(game="kungabrade")
    client.force_login(s.referee)
    response = client.get(f"/matches/{match.pk}/record/")
    assert response.status_code == 403
    assert "no engine that checks its moves" in response.content.decode()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/record/" not in page
    assert 'id="live-board"' not in page


def test_the_match_page_links_the_recording_and_has_the_live_board(client: Client) -> None:
    _s, match, user = _setup()
    anonymous = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/record/" not in anonymous
    # The live board is there for everyone, hidden until something is being recorded.
    assert re.search(r'id="live-board"[^>]*data-live-follow="/api/matches/\d+/live/"', anonymous)
    # it polls at the interval bench/live_board_bench.py's viewers poll at
    assert re.search(rf'id="live-board"[^>]*data-every="{FOLLOW_EVERY}"', anonymous)
    client.force_login(user)
    signed_in = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/record/"' in signed_in


def test_the_tournaments_boards_in_progress_answer_304_until_a_turn(client: Client) -> None:
    s, match, user = _setup()
    url = f"/tournaments/{s.tournament.pk}/live/?part=section"
    empty = client.get(url)
    assert empty.status_code == 200 and "live-small" not in empty.content.decode()
    api = _api(user)
    assert (
        api.post(f"/api/matches/{match.pk}/live/", {"dice": "entered"}, format="json").status_code
        == 201
    )
    listed = client.get(url)
    html = listed.content.decode()
    assert html.count('class="live-small"') == 1
    assert f'href="/matches/{match.pk}/"' in html and "Games in progress" in html
    tag = listed["ETag"]
    assert tag != empty["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    body = {"seq": 1, "device": str(uuid.uuid4()), "action": "start", "dice": [2, 5]}
    assert api.post(f"/api/matches/{match.pk}/live/turns/", body, format="json").status_code == 201
    moved = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    state = _json(r'<script type="application/json">(.*?)</script>', moved.content.decode())
    # A small board carries what it shows, as the live API has it at that turn: not the
    # legal plays or the turns, which made the polled list ten times larger.
    whole = api.get(f"/api/matches/{match.pk}/live/").json()
    assert whole["seq"] == 1 and whole["phase"] == "roll"
    assert state == {key: whole[key] for key in SMALL_BOARD_KEYS}
    assert "legal" not in state and "turns" not in state
    # The whole page, and nothing for strangers to a private tournament.
    assert client.get(f"/tournaments/{s.tournament.pk}/live/").status_code == 200


def test_a_private_tournaments_boards_are_not_found(client: Client) -> None:
    s, _match, _user = _setup(is_public=False)
    assert client.get(f"/tournaments/{s.tournament.pk}/live/").status_code == 404
