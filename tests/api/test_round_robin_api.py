"""The API of a round robin: created with its format and chain, drawn through the
draw endpoint, its standings with the values and why each player is above the next."""

from __future__ import annotations

import pytest

from matches.models import Match, MatchState
from matches.services import match_walkover
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_create_draw_and_read_the_standings() -> None:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/",
        {
            "name": "Gruppen",
            "start_date": "2026-12-01",
            "game": "backgammon",
            "format": "round_robin",
            "tiebreaks": ["points_difference", "direct_encounter"],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["format"] == "round_robin" and body["tiebreaks"] == [
        "points_difference",
        "direct_encounter",
    ]
    t = Tournament.objects.get(pk=body["id"])
    for i in range(4):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"S{i}"))
    drawn = api.post(f"/api/tournaments/{t.pk}/draw/", {"draw_seed": 3}, format="json")
    assert drawn.status_code == 201, drawn.content
    assert [r["round"]["kind"] for r in drawn.json()["rounds"]] == ["round_robin"] * 3
    referee = UserFactory.create()
    t.referees.add(referee)
    m = Match.objects.filter(tournament=t, state=MatchState.READY).first()
    assert m is not None and m.player1 is not None
    match_walkover(match=m, winner=m.player1, by=referee)
    standings = api.get(f"/api/tournaments/{t.pk}/standings/", HTTP_ACCEPT_LANGUAGE="sv")
    assert standings.status_code == 200, standings.content
    data = standings.json()
    assert data["chain"] == ["match_points", "points_difference", "direct_encounter"]
    assert data["rounds"] == 3 and data["finished_rounds"] == 0
    top = data["rows"][0]
    assert top["player"]["name"] == m.player1.name and top["values"]["match_points"] == "1"
    assert top["why"]["code"] == "standing.ahead"
    assert top["why"]["text"].startswith(f"{m.player1.name} är före")
    assert data["rows"][-1]["why"] is None


def test_a_knockout_has_no_standings() -> None:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/", {"name": "Cup", "start_date": "2026-12-01"}, format="json"
    )
    assert created.json()["format"] == "knockout"
    response = api.get(f"/api/tournaments/{created.json()['id']}/standings/")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_round_robin"
