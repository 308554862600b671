"""Club seasons: the points rules, the standings from the season's tournaments and club
nights (private ones left out), the season page and API."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import EventKind
from clubs.season_selectors import season_events, season_standings
from clubs.season_services import season_create, season_event_add, season_rules_set
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from tests.clubs.helpers import played
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

START, END = datetime.date(2026, 1, 1), datetime.date(2026, 12, 31)


def keeper() -> Any:
    user = UserFactory.create()
    user.user_permissions.add(Permission.objects.get(codename="change_season"))
    return type(user).objects.get(pk=user.pk)  # a fresh object: permissions not cached


@pytest.fixture
def season_day(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A season of a club: a 4-player tournament (A beats C, B beats D, A beats B in the
    final) and a 2-player club night (C beats A); and a private tournament in it."""
    club = ClubFactory.create(name="Brädklubben Östra")
    a, b, c, d = (
        PlayerFactory.create(name=n, club=club) for n in ("Anna", "Berit", "Cecil", "Dag")
    )
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    cup = played(
        django_capture_on_commit_callbacks,
        [a, b, c, d],
        organiser=organiser,
        referee=referee,
        lengths=[1, 1],
        name="Vårcupen",
    )
    night = played(
        django_capture_on_commit_callbacks,
        [c, a],
        organiser=organiser,
        referee=referee,
        lengths=[1],
        name="Klubbkväll mars",
    )
    secret = played(
        django_capture_on_commit_callbacks,
        [d, a],
        organiser=organiser,
        referee=referee,
        lengths=[1],
        name="Slutna sällskapet",
        is_public=False,
    )
    by = keeper()
    season = season_create(
        club=club,
        name="Säsong 2026",
        start_date=START,
        end_date=END,
        by=by,
        tournament_taking_part=2,
        tournament_match_won=3,
        tournament_placings={"1": 10, "2": 6, "3": 4},
        club_night_taking_part=1,
        club_night_match_won=2,
    )
    season_event_add(season=season, tournament=cup, by=by)
    season_event_add(season=season, tournament=night, by=by, kind=EventKind.CLUB_NIGHT)
    season_event_add(season=season, tournament=secret, by=UserFactory.create(is_superuser=True))
    return {
        "season": season,
        "players": (a, b, c, d),
        "keeper": by,
        "cup": cup,
        "secret": secret,
        "organiser": organiser,
    }


def test_the_standings_follow_the_rules(season_day: dict[str, Any]) -> None:
    a, b, c, d = season_day["players"]
    standings = season_standings(season=season_day["season"])
    totals = {line.player: line.row.total for line in standings.lines}
    # Cup: taking part 2; A 2 wins (6) + 1st (10); B 1 win (3) + 2nd (6); C, D 3–4 → 3rd (4).
    # Club night: taking part 1; C 1 win (2). The private tournament counts nothing.
    assert totals == {a: 2 + 6 + 10 + 1, b: 2 + 3 + 6, c: 2 + 4 + 1 + 2, d: 2 + 4}
    assert [line.player for line in standings.lines] == [a, b, c, d]
    first = standings.lines[0].row
    assert (first.events, first.matches_won, first.placing_points) == (2, 2, 10)


def test_the_rules_change_the_standings_at_once(season_day: dict[str, Any]) -> None:
    season = season_day["season"]
    season_rules_set(season=season, by=season_day["keeper"], tournament_placings={})
    a = season_day["players"][0]
    line = next(x for x in season_standings(season=season).lines if x.player == a)
    assert line.row.placing_points == 0


def test_private_tournaments_are_listed_to_their_staff_only(season_day: dict[str, Any]) -> None:
    season = season_day["season"]
    outsider = season_events(season=season, by=None)
    assert [e.name for e in outsider] == ["Klubbkväll mars", "Vårcupen"]  # by date
    assert all(e.counted for e in outsider)
    staff = season_events(season=season, by=season_day["organiser"])
    hidden = [e for e in staff if e.name == "Slutna sällskapet"]
    assert len(hidden) == 1 and not hidden[0].counted


class TestServices:
    def test_only_keepers_change_seasons(self) -> None:
        with pytest.raises(PermissionDeniedError):
            season_create(
                club=ClubFactory.create(),
                name="S",
                start_date=START,
                end_date=END,
                by=OrganiserFactory.create(),
            )

    @pytest.mark.parametrize(
        ("points", "message"),
        [
            ({"tournament_match_won": -1}, "whole numbers"),
            ({"tournament_placings": {"first": 3}}, "not a place"),
            ({"club_night_placings": {"1": -2}}, "whole number"),
            ({"bonus": 1}, "Unknown season field"),
        ],
    )
    def test_bad_points_are_refused(self, points: dict[str, Any], message: str) -> None:
        with pytest.raises(ValidationError, match=message):
            season_create(
                club=ClubFactory.create(),
                name="S",
                start_date=START,
                end_date=END,
                by=keeper(),
                **points,
            )

    def test_a_tournament_counts_once_and_must_be_visible(self, season_day: dict[str, Any]) -> None:
        with pytest.raises(ConflictError):
            season_event_add(
                season=season_day["season"], tournament=season_day["cup"], by=season_day["keeper"]
            )
        other = keeper()
        fresh = season_create(
            club=ClubFactory.create(), name="S", start_date=START, end_date=END, by=other
        )
        with pytest.raises(NotFoundError):  # the keeper cannot see the private tournament
            season_event_add(season=fresh, tournament=season_day["secret"], by=other)


def test_the_season_page_shows_rules_and_standings(
    client: Client, season_day: dict[str, Any]
) -> None:
    season = season_day["season"]
    page = client.get(reverse("clubs:season_detail", args=[season.pk])).content.decode()
    assert "Säsong 2026" in page and "Tabell" in page and "Vårcupen" in page
    assert "Slutna sällskapet" not in page  # private: not even listed to outsiders
    assert "1: 10, 2: 6, 3: 4" in page  # the placing points, shown
    assert page.index("Anna") < page.index("Berit") < page.index("Cecil") < page.index("Dag")
    listing = client.get(reverse("clubs:season_list")).content.decode()
    assert "Säsong 2026" in listing


def test_the_standings_api(season_day: dict[str, Any]) -> None:
    season = season_day["season"]
    api = APIClient()
    rows = api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert [(r["place"], r["player"]["name"], r["total"]) for r in rows] == [
        (1, "Anna", 19),
        (2, "Berit", 11),
        (3, "Cecil", 9),
        (4, "Dag", 6),
    ]
    detail = api.get(f"/api/seasons/{season.pk}/").json()
    assert detail["tournament_points"] == {
        "taking_part": 2,
        "match_won": 3,
        "placings": {"1": 10, "2": 6, "3": 4},
    }
    assert len(detail["events"]) == 2
    assert api.get("/api/seasons/").json()["count"] == 1
    assert api.get("/api/seasons/999/standings/").status_code == 404


def test_seasons_are_created_and_filled_through_the_api(season_day: dict[str, Any]) -> None:
    api = APIClient()
    body = {
        "club": season_day["season"].club_id,
        "name": "Höst 2026",
        "start_date": "2026-08-01",
        "end_date": "2026-12-20",
        "club_night_taking_part": 1,
        "club_night_placings": {"1": 5},
    }
    assert api.post("/api/seasons/", body, format="json").status_code == 401
    api.force_authenticate(UserFactory.create())
    assert api.post("/api/seasons/", body, format="json").status_code == 403
    api.force_authenticate(season_day["keeper"])
    created = api.post("/api/seasons/", body, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    added = api.post(
        f"/api/seasons/{pk}/events/",
        {"tournament": season_day["cup"].pk, "kind": "club_night"},
        format="json",
    )
    assert added.status_code == 201 and added.json()["kind"] == "club_night"
    again = api.post(f"/api/seasons/{pk}/events/", {"tournament": season_day["cup"].pk})
    assert again.status_code == 409
    rows = api.get(f"/api/seasons/{pk}/standings/").json()
    assert {r["player"]["name"]: r["total"] for r in rows}["Anna"] == 1 + 5
