"""Bad input answers 4xx, never 500: hostile JSON bodies on every JSON endpoint (the
anonymous token endpoint included), numbers past what the database stores (API, forms,
CSV) and CSV files no spreadsheet writes."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from rest_framework.test import APIClient

from clubs.results_import import ResultsImportError, parse_results_csv
from clubs.season_forms import placings_parse
from clubs.season_services import season_create
from core.bounds import DB_INT_MAX, DbIntegerFormField
from core.parsers import MAX_DEPTH
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.csv_import import Code, CsvImportError, parse_entries_csv
from tournaments.models import Player

pytestmark = pytest.mark.django_db

DEEP = "[" * 3000 + "]" * 3000


def _post(client: APIClient, url: str, raw: str, method: str = "post") -> Any:
    return getattr(client, method)(url, data=raw, content_type="application/json")


@pytest.fixture(autouse=True)
def fresh_throttle() -> Any:
    cache.delete("throttle_api_token_password_127.0.0.1")
    yield
    cache.delete("throttle_api_token_password_127.0.0.1")


@pytest.mark.parametrize(
    "raw",
    [DEEP, '{"a": ' + DEEP + "}", "null", "12", '"text"', "[1, 2]", '{"x": NaN}'],
    ids=["deep", "deep-inside", "null", "number", "string", "array", "nan"],
)
def test_a_body_that_is_not_a_json_object_of_sane_depth_is_400(raw: str) -> None:
    organiser = OrganiserFactory.create()
    t = TournamentFactory.create(organisers=[organiser])
    for client, url, method in (
        (APIClient(), "/api/token/", "post"),
        (client_for(organiser), "/api/clubs/", "post"),
        (client_for(organiser), f"/api/tournaments/{t.pk}/", "patch"),
    ):
        r = _post(client, url, raw, method)
        assert r.status_code == 400, (url, r.status_code)
        assert r.json()["error"]["code"] == "parse_error"


def test_nesting_up_to_the_limit_is_read_and_one_more_is_refused() -> None:
    organiser = OrganiserFactory.create()
    TournamentFactory.create(organisers=[organiser])
    client = client_for(organiser)
    inside = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    r = _post(client, "/api/clubs/", '{"name": "Klubben", "x": ' + inside + "}")
    assert r.status_code == 201
    too_deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    r = _post(client, "/api/clubs/", '{"name": "Klubben", "x": ' + too_deep + "}")
    assert r.status_code == 400 and "nested" in r.json()["error"]["message"]


def test_a_lone_surrogate_in_a_choice_or_a_text_is_400() -> None:
    organiser = OrganiserFactory.create()
    TournamentFactory.create(organisers=[organiser])
    client = client_for(organiser)
    r = _post(
        client, "/api/tournaments/", '{"name": "T", "start_date": "2026-01-01", "rules": "\\ud800"}'
    )
    assert r.status_code == 400 and "surrogate" in r.json()["error"]["message"]
    r = _post(client, "/api/clubs/", '{"name": "\\udfff klubb"}')
    assert r.status_code == 400
    r = _post(APIClient(), "/api/token/", '{"username": "\\ud800", "password": "x"}')
    assert r.status_code == 400


@pytest.mark.parametrize("value", [DB_INT_MAX + 1, 2**63, 10**30])
def test_ratings_seeds_and_season_points_past_the_database_range_are_400(value: int) -> None:
    organiser = OrganiserFactory.create()
    client = client_for(organiser)
    t = TournamentFactory.create(organisers=[organiser])
    player = PlayerFactory.create()
    entry = EntryFactory.create(tournament=t, player=player)
    r = client.post("/api/players/", {"name": "Stor", "rating": value}, format="json")
    assert r.status_code == 400 and "rating" in r.json()["error"]["fields"]
    r = client.patch(f"/api/players/{player.pk}/", {"rating": value}, format="json")
    assert r.status_code == 400 and "rating" in r.json()["error"]["fields"]
    r = client.patch(f"/api/entries/{entry.pk}/", {"seed": value}, format="json")
    assert r.status_code == 400 and "seed" in r.json()["error"]["fields"]
    r = client.post(f"/api/tournaments/{t.pk}/draw/", {"draw_seed": value}, format="json")
    assert r.status_code == 400 and "draw_seed" in r.json()["error"]["fields"]
    keeper = UserFactory.create()
    keeper.user_permissions.add(Permission.objects.get(codename="change_season"))
    body = {
        "club": ClubFactory.create().pk,
        "name": "S",
        "start_date": "2026-01-01",
        "end_date": "2026-12-31",
        "tournament_taking_part": value,
        "club_night_placings": {"1": value},
    }
    r = client_for(keeper).post("/api/seasons/", body, format="json")
    assert r.status_code == 400
    assert {"tournament_taking_part", "club_night_placings"} <= set(r.json()["error"]["fields"])
    assert not Player.objects.filter(name="Stor").exists()


def test_the_largest_stored_rating_is_taken() -> None:
    organiser = OrganiserFactory.create()
    TournamentFactory.create(organisers=[organiser])
    r = client_for(organiser).post(
        "/api/players/", {"name": "Stor", "rating": DB_INT_MAX}, format="json"
    )
    assert r.status_code == 201 and r.json()["rating"] == DB_INT_MAX


def test_forms_refuse_numbers_past_the_database_range() -> None:
    field = DbIntegerFormField(min_value=0)
    assert field.clean(str(DB_INT_MAX)) == DB_INT_MAX
    with pytest.raises(Exception, match=str(DB_INT_MAX)):
        field.clean(str(DB_INT_MAX + 1))
    with pytest.raises(Exception, match="place and its points"):
        placings_parse(f"1: {DB_INT_MAX + 1}")


def test_a_players_file_with_a_huge_rating_or_seed_names_the_row() -> None:
    data = f"name;rating;seed\nAnna;{DB_INT_MAX + 1};\nBo;;{2**64}\nCe;1500;1\n".encode()
    with pytest.raises(CsvImportError) as err:
        parse_entries_csv(data)
    found = {(e.code, e.row, e.field) for e in err.value.errors}
    assert found == {(Code.TOO_LARGE, 2, "rating"), (Code.TOO_LARGE, 3, "seed")}


def test_a_players_file_with_a_nul_or_an_endless_value_is_an_import_error() -> None:
    with pytest.raises(CsvImportError) as err:
        parse_entries_csv(b"name;club\nAnna;K\nBo\x00;K\n")
    assert [(e.code, e.row) for e in err.value.errors] == [(Code.UNREADABLE, 3)]
    with pytest.raises(CsvImportError) as err:
        parse_entries_csv(("name;club\nAnna;" + "x" * 131_073 + "\n").encode())
    assert [e.code for e in err.value.errors] == [Code.UNREADABLE]


def test_a_players_import_page_shows_the_unreadable_row() -> None:
    from tournaments.csv_import import RowError
    from web.forms.organiser import csv_error_text

    assert "NUL" in csv_error_text(RowError(Code.UNREADABLE, 3, value="NUL"))
    assert "131072" in csv_error_text(RowError(Code.UNREADABLE, 2, limit=131_072))
    assert str(DB_INT_MAX) in csv_error_text(
        RowError(Code.TOO_LARGE, 2, "rating", "9" * 12, limit=DB_INT_MAX)
    )


HEADER = "date;event;player1;player2;winner;length\n"


@pytest.mark.parametrize(
    "body",
    [
        HEADER + "2025-03-14;Cup;Per;Li;1;" + str(DB_INT_MAX + 1) + "\n",
        HEADER + "2025-03-14;Cup;Per;Li;1;²\n",
        HEADER + "2025-03-14;Cup\x00;Per;Li;1;3\n",
        HEADER + "2025-03-14;" + "C" * 131_073 + ";Per;Li;1;3\n",
    ],
    ids=["length-too-large", "superscript-digit", "nul", "endless-field"],
)
def test_a_season_file_no_spreadsheet_writes_is_an_import_error(body: str) -> None:
    with pytest.raises(ResultsImportError) as err:
        parse_results_csv(body.encode())
    assert err.value.problems and err.value.problems[0].line == 2


def test_the_season_import_api_answers_400_for_a_nul_byte() -> None:
    keeper = UserFactory.create()
    keeper.user_permissions.add(Permission.objects.get(codename="change_season"))
    keeper = type(keeper).objects.get(pk=keeper.pk)
    season = season_create(
        club=ClubFactory.create(),
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
        by=UserFactory.create(is_superuser=True),
        tournament_taking_part=1,
        tournament_match_won=1,
        tournament_placings={},
        club_night_taking_part=1,
        club_night_match_won=1,
        club_night_placings={},
    )
    csv_text = HEADER + "2025-03-14;Cup;Per\x00;Li;1;3\n"
    r = client_for(keeper).post(
        f"/api/seasons/{season.pk}/imports/", {"csv": csv_text}, format="json"
    )
    assert r.status_code == 400


@pytest.mark.parametrize(
    "query",
    [
        "tournament=" + "9" * 30,
        "player=-1",
        "flagged=maybe",
        "is_third_place=null",
        "limit=abc",
        "limit=501",
        "limit=0",
        "offset=-1",
        "ordering=slot",
    ],
)
def test_a_filter_or_page_out_of_range_is_400_not_ignored_or_500(query: str) -> None:
    r = APIClient().get(f"/api/matches/?{query}")
    assert r.status_code == 400
    assert r.json()["error"]["fields"]


def test_the_largest_page_and_a_true_filter_are_taken() -> None:
    r = APIClient().get("/api/matches/?limit=500&offset=0&flagged=true&is_third_place=0")
    assert r.status_code == 200 and r.json()["count"] == 0


@pytest.mark.urls("config.urls")
def test_a_path_under_the_api_that_matches_no_route_is_a_json_404() -> None:
    for path in ("/api/clubs/0.5/", "/api/matches/null/", "/api/nothing/"):
        r = APIClient().get(path)
        assert r.status_code == 404 and r["Content-Type"] == "application/json", path
        assert r.json()["error"]["code"] == "not_found"
    assert APIClient().get("/no-such-page/")["Content-Type"].startswith("text/html")


def test_lists_order_as_asked_with_ties_by_id() -> None:
    bro = ClubFactory.create(name="Bro", city="Uppsala")
    alby = ClubFactory.create(name="Alby", city="Uppsala")
    ClubFactory.create(name="Cedra", city="Lund")
    names = [c["name"] for c in APIClient().get("/api/clubs/?ordering=-name").json()["results"]]
    assert names == ["Cedra", "Bro", "Alby"]
    ids = [c["id"] for c in APIClient().get("/api/clubs/?ordering=city").json()["results"]]
    assert ids[1:] == [bro.pk, alby.pk]
