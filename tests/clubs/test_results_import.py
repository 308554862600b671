"""Importing a previous season's results from CSV: all or nothing, every problem listed by
row, the imported events counted in the season's standings; the page and the API."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ImportedEvent, ImportedMatch, ImportedPlacing
from clubs.results_import import ResultsImportError, parse_results_csv, season_results_import
from clubs.season_selectors import season_standings
from clubs.season_services import season_create
from core.errors import PermissionDeniedError
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Player

pytestmark = pytest.mark.django_db

GOOD = (
    "\ufeffdate;event;kind;player1;player2;winner;length;walkover;place1;place2\r\n"
    "2025-03-14;Vårcupen;turnering;Åsa Öberg;Per Ek;1;3;;1;2\r\n"
    "2025-03-14;Vårcupen;turnering;Li Wu;Per Ek;Per Ek;3;nej;3;\r\n"
    "2025-04-02;Klubbkväll april;klubbkväll;Per Ek;Li Wu;Li Wu;1;ja;;\r\n"
)


def keeper() -> Any:
    user = UserFactory.create()
    user.user_permissions.add(Permission.objects.get(codename="change_season"))
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def season() -> Any:
    club = ClubFactory.create(name="Brädgillet")
    return season_create(
        club=club,
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
        by=UserFactory.create(is_superuser=True),
        tournament_taking_part=1,
        tournament_match_won=2,
        tournament_placings={"1": 5, "2": 3},
        club_night_taking_part=1,
        club_night_match_won=1,
    )


def test_a_good_file_is_imported_and_counted(season: Any) -> None:
    existing = PlayerFactory.create(name="Per Ek", club=season.club)
    summary = season_results_import(season=season, data=GOOD.encode(), by=keeper())
    assert (summary.events, summary.matches, summary.players_created) == (2, 3, 2)
    cup = ImportedEvent.objects.get(name="Vårcupen")
    assert cup.kind == "tournament" and cup.date == datetime.date(2025, 3, 14)
    assert ImportedMatch.objects.filter(event=cup).count() == 2
    asa = Player.objects.get(name="Åsa Öberg")
    assert asa.club == season.club
    assert {(p.player.name, p.place) for p in ImportedPlacing.objects.filter(event=cup)} == {
        ("Åsa Öberg", 1),
        ("Per Ek", 2),
        ("Li Wu", 3),
    }
    night = ImportedEvent.objects.get(name="Klubbkväll april")
    assert night.kind == "club_night" and night.matches.get().walkover
    totals = {line.player.name: line.row.total for line in season_standings(season=season).lines}
    # Per: cup 1 + win 2 + 2nd 3, night 1 (lost) = 7; Åsa: 1 + 2 + 5 = 8; Li: cup 1, night 1
    # (a walkover win is no match won) = 2.
    assert totals == {"Åsa Öberg": 8, "Per Ek": 7, "Li Wu": 2}
    assert Player.objects.filter(name="Per Ek").get() == existing  # found, not added


def test_a_bad_file_imports_nothing_and_lists_every_problem(season: Any) -> None:
    bad = (
        "date,event,player1,player2,winner,place1\n"
        "2025-13-01,Cup,A,B,1,\n"  # not a date
        "2025-03-01,Cup,A,A,1,\n"  # plays themselves
        "2025-03-01,Cup,A,B,C,\n"  # winner not a player
        "2025-03-01,Cup,A,B,2,one\n"  # place not a number
        "2025-03-01,Cup,A,C,1,2\n"
        "2025-03-01,Cup,A,D,1,3\n"  # A placed 2 and 3
    )
    with pytest.raises(ResultsImportError) as caught:
        season_results_import(season=season, data=bad.encode(), by=keeper())
    lines = [p.line for p in caught.value.problems]
    assert lines == [2, 3, 4, 5, 7]
    assert "not a date" in caught.value.problems[0].message
    assert not ImportedEvent.objects.exists() and not Player.objects.exists()


def test_a_file_imported_twice_adds_nothing(season: Any) -> None:
    by = keeper()
    season_results_import(season=season, data=GOOD.encode(), by=by)
    with pytest.raises(ResultsImportError, match="already"):
        season_results_import(season=season, data=GOOD.encode(), by=by)
    assert ImportedEvent.objects.count() == 2


def test_a_name_two_players_share_must_be_resolved(season: Any) -> None:
    PlayerFactory.create(name="Per Ek")
    PlayerFactory.create(name="per ek ")
    with pytest.raises(ResultsImportError, match="several players"):
        season_results_import(season=season, data=GOOD.encode(), by=keeper())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"date;event\n", "header"),
        (b"date;event;player1;player2;winner\n", "no results"),
        ("date;event;player1;player2;winner\n2025-01-01;X;Å;B;1\n".encode("latin-1"), "UTF-8"),
    ],
)
def test_whole_file_problems(data: bytes, message: str) -> None:
    with pytest.raises(ResultsImportError, match=message):
        parse_results_csv(data)


def test_only_season_keepers_import(season: Any) -> None:
    with pytest.raises(PermissionDeniedError):
        season_results_import(season=season, data=GOOD.encode(), by=UserFactory.create())


def test_the_import_page(client: Client, season: Any) -> None:
    url = reverse("clubs:season_import", args=[season.pk])
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    client.force_login(keeper())
    assert client.get(url).status_code == 200
    bad = SimpleUploadedFile("r.csv", b"date;event;player1;player2;winner\nx;Cup;A;B;1\n")
    page = client.post(url, {"file": bad}).content.decode()
    assert "Inget importerades" in page and "Rad 2" in page
    good = SimpleUploadedFile("r.csv", GOOD.encode())
    response = client.post(url, {"file": good})
    assert response.status_code == 302 and ImportedEvent.objects.count() == 2
    season_page = client.get(reverse("clubs:season_detail", args=[season.pk])).content.decode()
    assert "Vårcupen" in season_page and "importerad" in season_page


def test_the_import_api(season: Any) -> None:
    api = APIClient()
    api.force_authenticate(keeper())
    url = f"/api/seasons/{season.pk}/imports/"
    bad = api.post(url, {"csv": "date,event,player1,player2,winner\n2025-01-01,X,A,A,1\n"})
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error["code"] == "import_invalid" and error["problems"][0]["line"] == 2
    good = api.post(url, {"csv": GOOD})
    assert good.status_code == 201 and good.json() == {
        "events": 2,
        "matches": 3,
        "players_created": 3,
    }
