"""The venues through the API: an organiser adds venues, a match says its venue, and a
match is moved to another venue at its first free table."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for
from tests.tournaments.test_venues import first_round, split

pytestmark = pytest.mark.django_db


def test_venues_are_listed_created_and_a_match_moved() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)])
    api = client_for(s.organiser)
    listed = api.get(f"/api/tournaments/{s.tournament.pk}/venues/").json()
    assert [(v["name"], v["ordering"], v["tables"]) for v in listed] == [
        ("Stockholm", 0, None),
        ("Göteborg", 1, None),
    ]
    made = api.post(
        f"/api/tournaments/{s.tournament.pk}/venues/", {"name": "Lund", "tables": 3}, format="json"
    )
    assert made.status_code == 201
    lund = made.json()["id"]
    taken = api.post(f"/api/tournaments/{s.tournament.pk}/venues/", {"name": "lund"}, format="json")
    assert taken.status_code == 409
    assert taken.json()["error"]["code"] == "venue_name_taken"
    match = first_round(s.tournament)[0]
    shown = api.get(f"/api/matches/{match.pk}/").json()["match"]
    assert (shown["venue"], shown["table"]) == (s.venues[0].pk, 1)
    moved = api.post(f"/api/matches/{match.pk}/venue/", {"venue": lund}, format="json").json()
    assert (moved["venue"], moved["table"]) == (lund, 1)
    other = split(2, [("Malmö", None)])
    refused = api.post(
        f"/api/matches/{match.pk}/venue/", {"venue": other.venues[0].pk}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "unknown_venue"
    in_use = client_for(s.organiser).delete(f"/api/venues/{lund}/")
    assert in_use.status_code == 409
