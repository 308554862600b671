"""The JSON reads that clients poll answer conditional requests (``core.conditional``): the
bracket, placings and standings by the tournament's version, a match and its games by the
match's own; ``If-None-Match`` with the current ETag is a 304 decided without building the
body; the ETag is bound to who asks; a private tournament gives an anonymous reader no
validators; the body an anonymous crowd shares from the cache is the body a signed-in
reader gets built."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import api_rounds, round_selectors
from matches.services import game_result_enter
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def _enter(setup: Any, round_number: int, slot: int) -> None:
    game_result_enter(
        match=match_of(setup.tournament, round_number, slot),
        number=1,
        result=won("W", "jan"),
        by=setup.referee,
        starter="W",
    )


@pytest.mark.parametrize("what", ["bracket", "placings"])
def test_the_bracket_and_placings_answer_if_none_match(what: str) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    url = f"/api/tournaments/{setup.tournament.pk}/{what}/"
    api = APIClient()
    first = api.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "Authorization" in first["Vary"]
    again = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    _enter(setup, 1, 0)
    changed = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_a_304_does_not_build_the_bracket(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    url = f"/api/tournaments/{setup.tournament.pk}/bracket/"
    api = APIClient()
    tag = api.get(url)["ETag"]

    def refuse(**kwargs: Any) -> Any:
        raise AssertionError("the body was built for a 304")

    monkeypatch.setattr(round_selectors, "tournament_bracket", refuse)
    assert api.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_standings_answer_if_none_match() -> None:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser, name="Grupper", start_date=datetime.date(2026, 11, 25),
        format="round_robin",
    )  # fmt: skip
    for i in range(4):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name=f"R{i}"))
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    url = f"/api/tournaments/{tournament.pk}/standings/"
    api = APIClient()
    first = api.get(url)
    assert first.status_code == 200
    assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


@pytest.mark.parametrize("what", ["", "games/"])
def test_a_match_is_judged_by_its_own_changes(what: str) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    url = f"/api/matches/{match_of(setup.tournament, 1, 0).pk}/{what}"
    api = APIClient()
    tag = api.get(url)["ETag"]
    _enter(setup, 1, 1)  # another match of the same round
    assert api.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    _enter(setup, 1, 0)
    changed = api.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_the_etag_is_bound_to_who_asks() -> None:
    setup = drawn(4, lengths=[3, 3])
    url = f"/api/tournaments/{setup.tournament.pk}/bracket/"
    staff = client_for(setup.organiser)
    tag = staff.get(url)["ETag"]
    assert staff.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    anonymous = APIClient().get(url, HTTP_IF_NONE_MATCH=tag)
    assert anonymous.status_code == 200 and anonymous["ETag"] != tag


def test_a_private_tournament_gives_an_anonymous_reader_no_validators() -> None:
    setup = drawn(4, lengths=[3, 3], is_public=False)
    url = f"/api/tournaments/{setup.tournament.pk}/bracket/"
    staff = client_for(setup.organiser)
    tag = staff.get(url)["ETag"]
    refused = APIClient().get(url, HTTP_IF_NONE_MATCH=tag)
    assert refused.status_code == 404 and "ETag" not in refused


def test_the_shared_body_is_the_body_built_for_a_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = drawn(8, lengths=[3, 3, 3], third_place=True)
    _enter(setup, 1, 0)
    url = f"/api/tournaments/{setup.tournament.pk}/bracket/"
    built: list[int] = []
    real = api_rounds.EliminationBracketOut

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(api_rounds, "EliminationBracketOut", Counting)
    crowd = [APIClient().get(url) for _ in range(3)]
    assert len(built) == 1  # the crowd's first loads built it once
    signed_in = client_for(setup.referee).get(url)
    assert all(r.json() == signed_in.json() for r in crowd)
