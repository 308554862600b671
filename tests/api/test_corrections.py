"""Correcting a game through the API names the version it corrects:
``ETag`` on the game's GET, ``If-Match`` (or ``version`` in the body) on the PUT, 409
with the current result when stale, 428 when no version is named."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import GameResult
from matches.services import game_result_correct, game_result_enter, match_reset
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db


def _setup() -> tuple[Any, Any, str]:
    s = drawn(2, lengths=[5])
    match = match_of(s.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), starter="W", by=s.referee)
    return s, match, f"/api/matches/{match.pk}/games/1/"


def test_get_gives_an_etag_and_the_version() -> None:
    _s, match, url = _setup()
    game = match.games.get()
    r = client_for(None).get(url)
    assert r.status_code == 200
    assert r["ETag"] == f'"game-{game.pk}-v1"'
    assert r.json()["version"] == 1 and r.json()["etag"] == r["ETag"]
    # The lists show each game's version and ETag too.
    listed = client_for(None).get(f"/api/matches/{match.pk}/games/").json()[0]
    assert (listed["version"], listed["etag"]) == (1, r["ETag"])
    detail = client_for(None).get(f"/api/matches/{match.pk}/").json()
    assert (detail["games"][0]["version"], detail["games"][0]["etag"]) == (1, r["ETag"])


def test_if_match_good_then_stale() -> None:
    s, match, url = _setup()
    api = client_for(s.referee)
    etag = api.get(url)["ETag"]
    r = api.put(url, {"winner": "W", "outcome": "sprangjan"}, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 200, r.json()
    new = r["ETag"]
    assert new != etag and new.endswith('-v2"') and r.json()["version"] == 2
    # A second referee still holding the first ETag: 409 with the current result.
    r = api.put(url, {"winner": "B", "outcome": "hemspel"}, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["code"] == "stale_version"
    assert error["game"]["version"] == 2 and error["game"]["outcome"] == "sprangjan"
    assert error["match"]["games"][0]["outcome"] == "sprangjan"
    assert "it is now P001 wins by sprängjan (version 2)" in error["message"]
    assert GameResult.objects.filter(game__match=match).count() == 2
    # With the new ETag it goes through.
    r = api.put(url, {"winner": "B", "outcome": "hemspel"}, format="json", HTTP_IF_MATCH=new)
    assert r.status_code == 200 and r["ETag"].endswith('-v3"')


def test_missing_version_is_428_and_changes_nothing() -> None:
    s, match, url = _setup()
    api = client_for(s.referee)
    r = api.put(url, {"winner": "B", "outcome": "jan"}, format="json")
    assert r.status_code == 428
    assert r.json()["error"]["code"] == "precondition_required"
    assert "If-Match" in r.json()["error"]["message"]
    # "*" matches any version, so it names none.
    r = api.put(url, {"winner": "B", "outcome": "jan"}, format="json", HTTP_IF_MATCH="*")
    assert r.status_code == 428
    assert GameResult.objects.filter(game__match=match).count() == 1


def test_a_stranger_gets_403_not_428() -> None:
    _s, _match, url = _setup()
    r = client_for(UserFactory.create()).put(url, {"winner": "B", "outcome": "jan"}, format="json")
    assert r.status_code == 403


def test_version_in_the_body_instead_of_the_header() -> None:
    s, match, url = _setup()
    api = client_for(s.referee)
    r = api.put(url, {"winner": "B", "outcome": "jan", "version": 1}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 2
    r = api.put(url, {"winner": "W", "outcome": "jan", "version": 1}, format="json")
    assert r.status_code == 409 and r.json()["error"]["game"]["version"] == 2
    # Header and body naming different versions: refused, nothing guessed.
    r = api.put(
        url,
        {"winner": "W", "outcome": "jan", "version": 1},
        format="json",
        HTTP_IF_MATCH=api.get(url)["ETag"],
    )
    assert r.status_code == 400
    assert GameResult.objects.filter(game__match=match).count() == 2


@pytest.mark.parametrize(
    "tag",
    [
        'W/"game-{pk}-v1"',  # weak: If-Match compares strongly
        '"v1"',  # not a tag of ours
        '"game-{other}-v1"',  # another game's
    ],
)
def test_tags_that_are_not_this_games_current_one_are_stale(tag: str) -> None:
    s, match, url = _setup()
    game = match.games.get()
    r = client_for(s.referee).put(
        url,
        {"winner": "B", "outcome": "jan"},
        format="json",
        HTTP_IF_MATCH=tag.format(pk=game.pk, other=game.pk + 1000),
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert GameResult.objects.filter(game__match=match).count() == 1


def test_the_etag_of_a_voided_game_does_not_match_the_game_entered_in_its_place() -> None:
    s, match, url = _setup()
    api = client_for(s.referee)
    old = api.get(url)["ETag"]
    match_reset(match=match, by=s.organiser, reason="wrong table")
    game_result_enter(match=match, number=1, result=won("B", "hemspel"), starter="W", by=s.referee)
    # Version 1 again, but of another game: the old tag must not correct it.
    r = api.put(url, {"winner": "W", "outcome": "jan"}, format="json", HTTP_IF_MATCH=old)
    assert r.status_code == 409
    assert r.json()["error"]["game"]["outcome"] == "hemspel"


def test_a_correction_by_a_record_or_a_service_changes_the_etag() -> None:
    s, match, url = _setup()
    api = client_for(s.referee)
    before = api.get(url)["ETag"]
    game_result_correct(
        game=match.games.get(), result=won("B", "jan"), by=s.referee, expected_version=1
    )
    assert api.get(url)["ETag"] != before


def test_schema_documents_the_headers() -> None:
    schema = client_for(None).get("/api/schema/?format=json").json()
    put = schema["paths"]["/api/matches/{id}/games/{number}/"]["put"]
    assert any(p["name"] == "If-Match" and p["in"] == "header" for p in put["parameters"])
    assert "ETag" in put["responses"]["200"]["headers"]
    get = schema["paths"]["/api/matches/{id}/games/{number}/"]["get"]
    assert "ETag" in get["responses"]["200"]["headers"]


def test_the_current_tag_without_its_quotes_corrects_the_game() -> None:
    s, match, url = _setup()
    game = match.games.get()
    r = client_for(s.referee).put(
        url,
        {"winner": "B", "outcome": "jan"},
        format="json",
        HTTP_IF_MATCH=f"game-{game.pk}-v1",
    )
    assert r.status_code == 200, r.json()
    assert r["ETag"] == f'"game-{game.pk}-v2"'
    # A bare tag of an older version is stale, as a quoted one is.
    r = client_for(s.referee).put(
        url, {"winner": "W", "outcome": "jan"}, format="json", HTTP_IF_MATCH=f"game-{game.pk}-v1"
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
