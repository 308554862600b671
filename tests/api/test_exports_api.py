"""The site's files through the API with a token: the same bytes as the pages' links for
the exports, the same pages for the PDFs and the same members for the archive, with the
same rights (the archive and score sheets for referees and organisers; a private
tournament absent), and the answer is the file whatever ``Accept`` asks for."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Season
from tests.api.conftest import client_for
from tests.clubs.test_exports import day as day  # the fixture
from tests.clubs.test_score_sheets import pages
from tests.factories import ClubFactory, UserFactory

# the pages' links too, to compare: the site's whole URLs
pytestmark = [pytest.mark.django_db, pytest.mark.urls("config.urls")]


def page(client: Client, name: str, *args: Any, query: str = "") -> bytes:
    response = client.get(reverse(f"clubs:{name}", args=args) + query)
    assert response.status_code == 200, response.content[:200]
    return bytes(response.content)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_results_and_placings_are_the_pages_files(
    client: Client, day: dict[str, Any], fmt: str
) -> None:
    cup = day["cup"]
    api = client_for(UserFactory.create())
    for what, name in (
        ("results", "tournament_results_export"),
        ("placings", "tournament_placings_export"),
    ):
        r = api.get(f"/api/tournaments/{cup.pk}/exports/{what}/{fmt}/", HTTP_ACCEPT_LANGUAGE="sv")
        assert r.status_code == 200
        assert r["Content-Type"].startswith("text/csv" if fmt == "csv" else "application/json")
        assert f'filename="tournament-{cup.pk}-{what}.{fmt}"' in r["Content-Disposition"]
        assert r.content == page(client, name, cup.pk, fmt)


def test_a_csv_speaks_the_apis_language(day: dict[str, Any]) -> None:
    """English unless the client asks for Swedish, as every API answer."""
    url = f"/api/tournaments/{day['cup'].pk}/exports/results/csv/"
    english = client_for(None).get(url).content.decode("utf-8")
    assert english[1:].startswith("Match id;Round;") and ";no;" in english
    swedish = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="sv").content.decode("utf-8")
    assert swedish[1:].startswith("Match-id;Omgång;") and ";nej;" in swedish


def test_a_file_is_sent_whatever_accept_says(day: dict[str, Any]) -> None:
    api = client_for(None)
    r = api.get(f"/api/tournaments/{day['cup'].pk}/exports/results/csv/", HTTP_ACCEPT="text/csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    missing = api.get("/api/tournaments/999999/exports/results/csv/", HTTP_ACCEPT="text/csv")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_a_private_tournament_and_an_unknown_format_are_absent(day: dict[str, Any]) -> None:
    api = client_for(UserFactory.create())
    secret = api.get(f"/api/tournaments/{day['secret'].pk}/exports/results/json/")
    assert secret.status_code == 404
    assert (
        client_for(day["organiser"])
        .get(f"/api/tournaments/{day['secret'].pk}/exports/results/json/")
        .status_code
        == 200
    )
    r = api.get(f"/api/tournaments/{day['cup'].pk}/exports/results/xml/")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(("role", "status"), [("anon", 401), ("stranger", 403), ("referee", 200)])
def test_the_archive_for_referees_and_organisers(
    client: Client, day: dict[str, Any], role: str, status: int
) -> None:
    user = {"anon": None, "stranger": UserFactory.create(), "referee": day["referee"]}[role]
    r = client_for(user).get(f"/api/tournaments/{day['cup'].pk}/exports/archive/")
    assert r.status_code == status
    if status != 200:
        assert "error" in r.json()
        return
    assert r["Content-Type"] == "application/zip"
    client.force_login(day["referee"])
    site = zipfile.ZipFile(io.BytesIO(page(client, "tournament_archive", day["cup"].pk)))
    assert zipfile.ZipFile(io.BytesIO(r.content)).namelist() == site.namelist()


def test_score_sheets_and_wall_sheet(client: Client, day: dict[str, Any]) -> None:
    cup = day["cup"]
    referee = client_for(day["referee"])
    r = referee.get(f"/api/tournaments/{cup.pk}/rounds/1/score-sheets/", HTTP_ACCEPT_LANGUAGE="sv")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    client.force_login(day["referee"])
    assert pages(r.content) == pages(page(client, "round_score_sheets", cup.pk, 1))
    stranger = client_for(UserFactory.create())
    assert stranger.get(f"/api/tournaments/{cup.pk}/rounds/1/score-sheets/").status_code == 403
    wall = stranger.get(
        f"/api/tournaments/{cup.pk}/rounds/1/wall-sheet/", HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert wall.status_code == 200 and wall["Content-Type"] == "application/pdf"
    assert pages(wall.content) == pages(page(client, "round_wall_sheet", cup.pk, 1))
    assert referee.get(f"/api/tournaments/{cup.pk}/rounds/9/wall-sheet/").status_code == 404


def test_ratings_and_season_standings(client: Client, day: dict[str, Any]) -> None:
    api = client_for(None)
    r = api.get("/api/ratings/export/csv/?game=brade", HTTP_ACCEPT_LANGUAGE="sv")
    assert r.status_code == 200
    assert r.content == page(client, "ratings_export", "csv", query="?game=brade")
    assert api.get("/api/ratings/export/csv/?game=chess").status_code == 400
    assert api.get("/api/ratings/export/csv/?club=x").status_code == 400
    season = Season.objects.create(
        club=ClubFactory.create(), name="Höst", start_date="2026-08-01", end_date="2026-12-31"
    )
    s = api.get(f"/api/seasons/{season.pk}/standings/export/json/", HTTP_ACCEPT_LANGUAGE="sv")
    assert s.status_code == 200
    assert s.content == page(client, "season_export", season.pk, "json")
    assert api.get("/api/seasons/999999/standings/export/json/").status_code == 404
