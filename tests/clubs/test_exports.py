"""Exports and the archive, parsed back with the standard library's csv, json and zipfile
and compared with the database: Swedish letters intact (UTF-8 with BOM), private
tournaments not leaked, the archive for referees and organisers only."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.exports import BOM, CSV_DELIMITER, RESULT_COLUMNS, column_titles
from clubs.models import PlayerRating
from matches import services as match_services
from matches.models import GameRecordSubmission, Match
from matches.round_selectors import tournament_placings
from tests.clubs.helpers import played
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import match_of

pytestmark = pytest.mark.django_db


def read_csv(content: bytes, lang: str = "sv") -> list[dict[str, str]]:
    """The rows by their JSON keys: the header row's titles (in ``lang``) read back."""
    text = content.decode("utf-8")
    assert text.startswith(BOM), "Excel needs the byte-order mark to read UTF-8"
    with translation.override(lang):
        keys = {title: key for key, title in column_titles().items()}
    rows = list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=CSV_DELIMITER))
    header = [keys[title] for title in rows[0]]
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def test_csv_speaks_the_readers_language(client: Client, day: dict[str, Any]) -> None:
    """The header and the yes/no in Swedish on a Swedish page, in English on an English
    one; the JSON keeps its English keys for scripts."""
    cup = day["cup"]
    url = reverse("clubs:tournament_results_export", args=[cup.pk, "csv"])
    swedish = client.get(url).content.decode("utf-8")
    header = swedish[1:].split("\r\n")[0].split(CSV_DELIMITER)
    assert header[:5] == ["Match-id", "Omgång", "Match i omgången", "Bronsmatch", "Spelare 1"]
    assert ";nej;" in swedish and ";no;" not in swedish and "player1" not in swedish
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode("utf-8")
    assert english[1:].startswith("Match id;Round;Match in round;Third-place match;Player 1;")
    assert ";no;" in english
    json_url = reverse("clubs:tournament_results_export", args=[cup.pk, "json"])
    assert "player1" in json.loads(client.get(json_url).content)["rows"][0]


@pytest.fixture
def day(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    club = ClubFactory.create(name="Sällskapet Brädspelarna i Härnösand")
    names = ["Åke Sjöström", "Örjan Ängström", "Märta Ålund", "Ulla Björk"]
    players = [PlayerFactory.create(name=n, club=club) for n in names]
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    cup = played(
        django_capture_on_commit_callbacks,
        players,
        organiser=organiser,
        referee=referee,
        lengths=[1, 3],
        name="Höstcupen i Härnösand",
    )
    final = match_of(cup, 2, 0)
    record = (
        f'[White "{final.player1}"]\n[Black "{final.player2}"]\n[Rules "talisman"]\n\n'
        "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        match_services.game_record_submit(match=final, text=record, by=referee)
    secret = played(
        django_capture_on_commit_callbacks,
        [players[3], players[0]],
        organiser=organiser,
        referee=referee,
        lengths=[1],
        name="Hemlig",
        is_public=False,
    )
    return {
        "cup": cup,
        "secret": secret,
        "players": players,
        "organiser": organiser,
        "referee": referee,
        "record": record,
    }


def test_results_csv_parses_back_to_the_database(client: Client, day: dict[str, Any]) -> None:
    cup = day["cup"]
    response = client.get(reverse("clubs:tournament_results_export", args=[cup.pk, "csv"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = read_csv(response.content)
    assert list(rows[0]) == list(RESULT_COLUMNS)
    matches = Match.objects.filter(tournament=cup).order_by("round__number", "slot")
    assert [int(r["match_id"]) for r in rows] == [m.pk for m in matches]
    for row, match in zip(rows, matches, strict=True):
        assert row["player1"] == (match.player1.name if match.player1 else "")
        assert row["winner"] == (match.winner.name if match.winner else "")
        assert int(row["points1"]) == match.points1 and row["state"] == match.state
        assert row["player1_club"] == "Sällskapet Brädspelarna i Härnösand"


def test_results_json_parses_back(client: Client, day: dict[str, Any]) -> None:
    cup = day["cup"]
    response = client.get(reverse("clubs:tournament_results_export", args=[cup.pk, "json"]))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert "Härnösand".encode() in response.content  # letters, not \\u escapes
    data = json.loads(response.content)
    assert data["tournament"] == "Höstcupen i Härnösand"
    final = match_of(cup, 2, 0)
    (row,) = [r for r in data["rows"] if r["match_id"] == final.pk]
    assert final.winner is not None
    assert row["winner"] == final.winner.name and row["length"] == 3 and row["round"] == 2


def test_placings_csv_and_json(client: Client, day: dict[str, Any]) -> None:
    cup = day["cup"]
    expected = [(p.first, p.last, p.player.name) for p in tournament_placings(tournament=cup)]
    rows = read_csv(
        client.get(reverse("clubs:tournament_placings_export", args=[cup.pk, "csv"])).content
    )
    assert [(int(r["place"]), int(r["place_to"]), r["player"]) for r in rows] == expected
    data = json.loads(
        client.get(reverse("clubs:tournament_placings_export", args=[cup.pk, "json"])).content
    )
    assert [(r["place"], r["place_to"], r["player"]) for r in data["rows"]] == expected


def test_ratings_csv_has_the_stored_ratings(client: Client, day: dict[str, Any]) -> None:
    rows = read_csv(client.get(reverse("clubs:ratings_export", args=["csv"])).content)
    stored = {r.player.name: r.rating for r in PlayerRating.objects.select_related("player")}
    # A Swedish page gives a decimal comma, so a Swedish spreadsheet reads numbers.
    assert {r["player"]: Decimal(r["rating"].replace(",", ".")) for r in rows} == stored
    assert all("," in r["rating"] for r in rows)
    client.cookies["django_language"] = "en"
    english = read_csv(client.get(reverse("clubs:ratings_export", args=["csv"])).content, "en")
    assert {r["player"]: Decimal(r["rating"]) for r in english} == stored
    data = json.loads(client.get(reverse("clubs:ratings_export", args=["json"])).content)
    assert {r["player"]: Decimal(r["rating"]) for r in data["rows"]} == stored
    assert [r["rank"] for r in data["rows"]] == list(range(1, len(stored) + 1))


def test_private_tournaments_do_not_leak(client: Client, day: dict[str, Any]) -> None:
    secret = day["secret"]
    for name in ("clubs:tournament_results_export", "clubs:tournament_placings_export"):
        assert client.get(reverse(name, args=[secret.pk, "csv"])).status_code == 404
    # The private match moved no rating: each of its players has only public matches.
    asa = day["players"][0]
    rating = PlayerRating.objects.get(player=asa)
    assert rating.matches == 2  # the cup's two, not the private one
    xml = reverse("clubs:tournament_results_export", args=[day["cup"].pk, "xml"])
    assert client.get(xml).status_code == 404


def test_the_archive_holds_records_results_and_a_readme(
    client: Client, day: dict[str, Any]
) -> None:
    cup = day["cup"]
    url = reverse("clubs:tournament_archive", args=[cup.pk])
    assert client.get(url).status_code == 403  # anonymous: not staff
    client.force_login(day["referee"])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.testzip() is None
    names = archive.namelist()
    top = f"tournament-{cup.pk}"
    for name in ("README.txt", "results.csv", "results.json", "placings.csv", "placings.json"):
        assert f"{top}/{name}" in names
    records = [n for n in names if n.startswith(f"{top}/records/")]
    (sub,) = GameRecordSubmission.objects.filter(match__tournament=cup)
    assert records == [f"{top}/records/round-2-match-1-record-{sub.pk}-{sub.state}.txt"]
    assert archive.read(records[0]).decode() == day["record"]
    readme = archive.read(f"{top}/README.txt").decode()
    assert "Höstcupen i Härnösand" in readme and "results.csv" in readme
    assert "partiprotokoll" in readme  # Swedish by default
    results = read_csv(archive.read(f"{top}/results.csv"))
    assert len(results) == Match.objects.filter(tournament=cup).count()
    assert json.loads(archive.read(f"{top}/results.json"))["tournament_id"] == cup.pk


def test_the_archive_is_for_the_tournaments_staff(client: Client, day: dict[str, Any]) -> None:
    url = reverse("clubs:tournament_archive", args=[day["cup"].pk])
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    client.force_login(day["organiser"])
    assert client.get(url).status_code == 200
    secret = reverse("clubs:tournament_archive", args=[day["secret"].pk])
    client.force_login(UserFactory.create())
    assert client.get(secret).status_code == 404


def test_the_tournament_page_links_the_downloads(client: Client, day: dict[str, Any]) -> None:
    cup = day["cup"]
    page = client.get(reverse("web:tournament_detail", args=[cup.pk])).content.decode()
    assert reverse("clubs:tournament_results_export", args=[cup.pk, "csv"]) in page
    assert reverse("clubs:tournament_archive", args=[cup.pk]) not in page
    client.force_login(day["referee"])
    page = client.get(reverse("web:tournament_detail", args=[cup.pk])).content.decode()
    assert reverse("clubs:tournament_archive", args=[cup.pk]) in page


def test_a_backgammon_archive_holds_the_submitted_mat_files(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """The submitted .mat records go into the ZIP as .mat files, as
    submitted (gnubg reads them back); the README says entered results have none."""
    from backgammon.mat import read_mat
    from tests.backgammon.test_mat import XG
    from tests.factories import EntryFactory, TournamentFactory
    from tournaments.stage_draws import tournament_draw

    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    bg = TournamentFactory.create(
        name="Backgammon i Ängelholm",
        game="backgammon",
        organisers=[organiser],
        referees=[referee],
    )
    for seed, name in enumerate(("Alice", "Bob"), start=1):
        EntryFactory.create(tournament=bg, player=PlayerFactory.create(name=name), seed=seed)
    tournament_draw(tournament=bg, by=organiser, lengths=[3])
    match = Match.objects.get(tournament=bg)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.game_record_submit(match=match, text=XG, by=referee)
    client.force_login(referee)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("clubs:tournament_archive", args=[bg.pk]))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    mats = [n for n in archive.namelist() if n.startswith(f"tournament-{bg.pk}/records/")]
    assert len(mats) == 1 and mats[0].endswith(".mat")
    text = archive.read(mats[0]).decode()
    assert text == XG
    assert read_mat(text).players == ("Alice", "Bob")
    readme = archive.read(f"tournament-{bg.pk}/README.txt").decode()
    assert ".mat" in readme and "cannot carry the cube" in readme
    assert "Scale" not in readme  # bräde's settings are not a backgammon tournament's
