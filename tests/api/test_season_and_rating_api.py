"""Season keepers change a season's rules, dates and events, and registry staff import
starting ratings, through the API as on the pages."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from clubs.models import RatingStart, Season, SeasonEvent
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _with(codename: str) -> Any:
    user = UserFactory.create()
    user.user_permissions.add(Permission.objects.get(codename=codename))
    return user


@pytest.fixture
def users() -> dict[str, Any]:
    """Who tries: nobody signed in, a player, a referee and an organiser of a tournament
    (none of them keeps seasons or the register), a season keeper, registry staff."""
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    player_user = UserFactory.create()
    t = TournamentFactory.create(organisers=[organiser], referees=[referee])
    EntryFactory.create(tournament=t, player=PlayerFactory.create(user=player_user))
    return {
        "anon": None,
        "player": player_user,
        "referee": referee,
        "organiser": organiser,
        "keeper": _with("change_season"),
        "registry": _with("change_player"),
    }


@pytest.fixture
def season() -> Season:
    return Season.objects.create(
        club=ClubFactory.create(),
        name="Hösten",
        start_date=date(2026, 8, 1),
        end_date=date(2026, 12, 31),
    )


REFUSED = {"anon": 401, "player": 403, "referee": 403, "organiser": 403}


@pytest.mark.parametrize(("role", "expected"), [*REFUSED.items(), ("keeper", 200)])
def test_season_change_rights(
    users: dict[str, Any], season: Season, role: str, expected: int
) -> None:
    r = client_for(users[role]).patch(
        f"/api/seasons/{season.pk}/", {"name": "Hösten 2026"}, format="json"
    )
    assert r.status_code == expected, r.json()
    season.refresh_from_db()
    assert (season.name == "Hösten 2026") == (expected == 200)


def test_season_rules_and_dates(users: dict[str, Any], season: Season) -> None:
    api = client_for(users["keeper"])
    url = f"/api/seasons/{season.pk}/"
    r = api.patch(
        url,
        {"end_date": "2027-01-15", "tournament_taking_part": 2, "tournament_placings": {"1": 10}},
        format="json",
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["end_date"] == "2027-01-15"
    assert body["tournament_points"]["taking_part"] == 2
    assert body["tournament_points"]["placings"] == {"1": 10}
    # Refused as a whole: an end before the start leaves the points as they were.
    r = api.patch(url, {"end_date": "2026-01-01", "tournament_taking_part": 5}, format="json")
    assert r.status_code == 400
    season.refresh_from_db()
    assert (season.end_date, season.tournament_taking_part) == (date(2027, 1, 15), 2)
    r = api.patch(url, {"club_night_match_won": -1}, format="json")
    assert r.status_code == 400 and "club_night_match_won" in r.json()["error"]["fields"]
    other = Season.objects.create(
        club=season.club, name="Våren", start_date=date(2026, 1, 1), end_date=date(2026, 6, 1)
    )
    r = api.patch(f"/api/seasons/{other.pk}/", {"name": "Hösten"}, format="json")
    assert r.status_code == 409


@pytest.mark.parametrize(("role", "expected"), [*REFUSED.items(), ("keeper", 204)])
def test_season_event_remove(
    users: dict[str, Any], season: Season, role: str, expected: int
) -> None:
    t = TournamentFactory.create()
    SeasonEvent.objects.create(season=season, tournament=t)
    url = f"/api/seasons/{season.pk}/events/{t.pk}/"
    r = client_for(users[role]).delete(url)
    assert r.status_code == expected, r.content
    assert SeasonEvent.objects.filter(season=season).exists() == (expected != 204)
    if expected == 204:  # gone: a second removal finds nothing
        assert client_for(users[role]).delete(url).status_code == 404


def test_season_event_remove_hides_private_tournaments(
    users: dict[str, Any], season: Season
) -> None:
    private = TournamentFactory.create(is_public=False)
    SeasonEvent.objects.create(season=season, tournament=private)
    r = client_for(users["keeper"]).delete(f"/api/seasons/{season.pk}/events/{private.pk}/")
    assert r.status_code == 404
    assert SeasonEvent.objects.filter(season=season).exists()


# --- starting ratings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "expected"), [*REFUSED.items(), ("keeper", 403), ("registry", 200)]
)
def test_rating_starts_rights(users: dict[str, Any], role: str, expected: int) -> None:
    player = PlayerFactory.create()
    body = {"starts": [{"player": player.pk, "rating": "1612.5", "experience": 40}]}
    r = client_for(users[role]).post("/api/ratings/starts/", body, format="json")
    assert r.status_code == expected, r.json()
    assert RatingStart.objects.filter(player=player).exists() == (expected == 200)


def test_rating_starts_set_and_removed(users: dict[str, Any]) -> None:
    api = client_for(users["registry"])
    a, b = PlayerFactory.create(), PlayerFactory.create()
    r = api.post(
        "/api/ratings/starts/",
        {
            "game": "backgammon",
            "note": "Göteborgslistan",
            "starts": [{"player": a.pk, "rating": 1612.5}, {"player": b.pk, "rating": "1400"}],
        },
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["game"] == "backgammon"
    start = RatingStart.objects.get(player=a, game="backgammon")
    assert (start.rating, start.experience) == (Decimal("1612.50"), 0)
    assert start.note == "Göteborgslistan"
    r = api.post(
        "/api/ratings/starts/",
        {"game": "backgammon", "starts": [{"player": a.pk, "rating": None}]},
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert list(RatingStart.objects.values_list("player", flat=True)) == [b.pk]


def test_rating_starts_refused(users: dict[str, Any]) -> None:
    api = client_for(users["registry"])
    a = PlayerFactory.create()
    url = "/api/ratings/starts/"
    twice = {"starts": [{"player": a.pk, "rating": "1500"}, {"player": a.pk, "rating": "1600"}]}
    r = api.post(url, twice, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "twice"
    r = api.post(url, {"starts": [{"player": 987654, "rating": "1500"}]}, format="json")
    assert r.status_code == 400
    r = api.post(url, {"starts": [{"player": a.pk, "rating": "1500.123"}]}, format="json")
    assert r.status_code == 400 and "starts" in r.json()["error"]["fields"]
    r = api.post(url, {"starts": []}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "empty"
    assert not RatingStart.objects.exists()
