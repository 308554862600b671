"""The ratings API: the list per game and club, a player's ratings and history, a match's
change, seeding a draft by rating."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import PlayerRating, RatingEntry
from tests.clubs.helpers import played
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.helpers import match_of
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    north = ClubFactory.create(name="Norr")
    players = [
        PlayerFactory.create(name=name, club=north if i % 2 == 0 else None)
        for i, name in enumerate(["Åsa", "Bo", "Cia", "Dan"])
    ]
    organiser = OrganiserFactory.create()
    tournament = played(
        django_capture_on_commit_callbacks,
        players,
        organiser=organiser,
        referee=UserFactory.create(),
        lengths=[3, 3],
    )
    return {"players": players, "tournament": tournament, "north": north, "organiser": organiser}


def test_the_rating_list(cup: dict[str, Any]) -> None:
    api = APIClient()
    data = api.get("/api/ratings/").json()
    stored = list(PlayerRating.objects.order_by("-rating", "player__name"))
    assert data["count"] == 4
    assert [(r["rank"], r["player"]["name"], r["rating"]) for r in data["results"]] == [
        (i + 1, r.player.name, str(r.rating)) for i, r in enumerate(stored)
    ]
    page = api.get("/api/ratings/", {"limit": 2, "offset": 2}).json()
    assert [r["rank"] for r in page["results"]] == [3, 4]
    north = api.get("/api/ratings/", {"club": cup["north"].pk}).json()
    assert {r["player"]["name"] for r in north["results"]} == {"Åsa", "Cia"}
    assert api.get("/api/ratings/", {"game": "backgammon"}).json()["count"] == 0
    assert api.get("/api/ratings/", {"game": "chess"}).status_code == 400


def test_a_players_ratings_and_history(cup: dict[str, Any]) -> None:
    asa = cup["players"][0]
    api = APIClient()
    (rating,) = api.get(f"/api/players/{asa.pk}/ratings/").json()
    stored = PlayerRating.objects.get(player=asa)
    assert rating == {
        "game": "brade",
        "rating": str(stored.rating),
        "experience": 6,
        "matches": 2,
    }
    history = api.get(f"/api/players/{asa.pk}/ratings/brade/").json()
    assert [h["after"] for h in history][-1] == str(stored.rating)
    assert history[0]["before"] == "1500.00" and history[0]["won"] is True


def test_a_matchs_rating_change(cup: dict[str, Any]) -> None:
    final = match_of(cup["tournament"], 2, 0)
    data = APIClient().get(f"/api/matches/{final.pk}/rating/").json()
    entry = RatingEntry.objects.get(match=final, player=final.player1)
    assert data["rated"] is True and data["game"] == "brade"
    assert data["player1"] == {
        "player": final.player1_id,
        "before": str(entry.before),
        "after": str(entry.after),
        "change": str(entry.change),
    }


def test_seeding_a_draft_by_rating(cup: dict[str, Any]) -> None:
    organiser = cup["organiser"]
    draft = TournamentFactory.create(organisers=[organiser])
    for player in cup["players"]:
        EntryFactory.create(tournament=draft, player=player)
    api = APIClient()
    url = f"/api/tournaments/{draft.pk}/seeds/by-rating/"
    assert api.post(url, {}).status_code == 401
    api.force_authenticate(UserFactory.create())
    assert api.post(url, {}).status_code == 403
    api.force_authenticate(organiser)
    response = api.post(url, {"count": 2}, format="json")
    assert response.status_code == 200, response.json()
    best = [r.player_id for r in PlayerRating.objects.order_by("-rating")[:2]]
    seeds = dict(Entry.objects.filter(tournament=draft).values_list("player_id", "seed"))
    assert seeds[best[0]] == 1 and seeds[best[1]] == 2
    assert list(seeds.values()).count(None) == 2
