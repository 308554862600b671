"""The API refuses a match length over ``MAX_MATCH_LENGTH`` (25) or even,
with a 400 that says why (the draw's ``lengths`` and a round's ``match_length``)."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from matches.models import Match
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, TournamentFactory
from tests.tournaments.helpers import drawn
from tournaments.models import Round, TournamentStatus

pytestmark = pytest.mark.django_db

TOO_LONG = "A match is played over at most 25 games, not 27 (scoring.md S1)."


def test_draw_refuses_a_length_over_the_bound() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    for _ in range(3):
        EntryFactory.create(tournament=tournament)
    api = client_for(organiser)
    url = f"/api/tournaments/{tournament.pk}/draw/"
    r = api.post(url, {"lengths": [3, 27]}, format="json")
    assert r.status_code == 400
    body = r.json()["error"]
    assert body["code"] == "invalid"
    assert body["message"] == f"lengths: 1: {TOO_LONG}"  # the second length
    assert body["fields"] == {"lengths": {"1": [TOO_LONG]}}
    r = api.post(url, {"lengths": [3, 4]}, format="json")
    assert r.status_code == 400 and "odd number of games" in r.json()["error"]["message"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.DRAFT
    assert not Match.objects.filter(tournament=tournament).exists()

    r = api.post(url, {"lengths": [3, 25]}, format="json")
    assert r.status_code == 201, r.json()
    assert [rd["round"]["match_length"] for rd in r.json()["rounds"]] == [3, 25]


def test_round_length_refuses_over_the_bound() -> None:
    s = drawn(2)
    final = Round.objects.get(tournament=s.tournament, number=1)
    api = client_for(s.organiser)
    r = api.patch(f"/api/rounds/{final.pk}/", {"match_length": 27}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["message"] == f"match_length: {TOO_LONG}"
    r = api.patch(f"/api/rounds/{final.pk}/", {"match_length": 10**12 + 1}, format="json")
    assert r.status_code == 400 and "at most 25 games" in r.json()["error"]["message"]
    final.refresh_from_db()
    assert final.match_length == 7
    r = api.patch(f"/api/rounds/{final.pk}/", {"match_length": 25}, format="json")
    assert r.status_code == 200 and r.json()["match_length"] == 25


def test_schema_documents_the_bound() -> None:
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    length = schemas["RoundDetailInput"]["properties"]["match_length"]
    assert (length["minimum"], length["maximum"]) == (1, 25)
    lengths = schemas["TournamentDrawInput"]["properties"]["lengths"]["items"]
    assert (lengths["minimum"], lengths["maximum"]) == (1, 25)


@pytest.mark.parametrize(("game", "status"), [("backgammon", 201), ("kungabrade", 400)])
def test_an_even_length_is_points_in_backgammon_and_refused_in_kungabrade(
    game: str, status: int
) -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], game=game)
    for _ in range(2):
        EntryFactory.create(tournament=tournament)
    r = client_for(organiser).post(
        f"/api/tournaments/{tournament.pk}/draw/", {"lengths": [4]}, format="json"
    )
    assert r.status_code == status, r.json()
    if status == 400:
        assert "odd" in r.json()["error"]["message"]


def test_schema_says_which_games_take_even_lengths() -> None:
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    text = schemas["TournamentDrawInput"]["properties"]["lengths"]["items"]["description"]
    assert "bräde and Kungabräde: an odd number of games" in text
    assert "backgammon: 1–25 points, even or odd" in text
