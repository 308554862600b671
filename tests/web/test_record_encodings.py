"""A backgammon ``.mat`` file in Windows-1252 is read on the upload page and through the API
as ``manage.py replay`` reads it (``backgammon.mat.decode_mat``: UTF-8, else Windows-1252,
as older Windows programs wrote player names), not refused as "not UTF-8".

The file is a real export, ``tests/data/backgammon/fibs_1859149.mat`` (FIBS, from the
public repository bgnori/bglib; the corpus of real exports holds no Windows-1252 file), with
its players renamed to Swedish names in Windows-1252 bytes, as such a program writes them.
Bräde's records stay UTF-8 only (``tests/web/test_records_pages.py``).
"""

from __future__ import annotations

import datetime
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from backgammon.mat import decode_mat
from matches.models import GameRecordSubmission, Match, RecordState
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import drawn, match_of
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db

REAL = Path(__file__).resolve().parents[1] / "data" / "backgammon" / "fibs_1859149.mat"
FIRST, SECOND = "Jörgen", "Åsa"


def windows_1252_file() -> bytes:
    text = REAL.read_text(encoding="utf-8")
    assert "bgnori" in text and "paul2205" in text
    data = text.replace("bgnori", FIRST).replace("paul2205", SECOND).encode("cp1252")
    with pytest.raises(UnicodeDecodeError):  # ö and Å as single bytes: not UTF-8
        data.decode("utf-8")
    return data


def _match() -> tuple[Match, Any]:
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    tournament = tournament_create(
        by=organiser, name="Höstcupen", start_date=datetime.date(2026, 11, 26), game="backgammon"
    )
    tournament.referees.add(referee)
    for seed, name in ((1, FIRST), (2, SECOND)):
        player = PlayerFactory.create(name=name)
        EntryFactory.create(tournament=tournament, player=player, seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[9])
    return match_of(tournament, 1, 0), referee


def test_the_cli_reads_the_file(tmp_path: Path) -> None:
    path = tmp_path / "match.mat"
    path.write_bytes(windows_1252_file())
    out = StringIO()
    call_command("replay", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["valid"] and report["winner"] in (FIRST, SECOND)


def test_the_upload_page_reads_it_as_the_cli_does(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    match, referee = _match()
    client.force_login(referee)
    client.cookies["django_language"] = "en"
    upload = SimpleUploadedFile("match.mat", windows_1252_file(), content_type="text/plain")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": upload})
    sub = GameRecordSubmission.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("web:record_detail", args=[sub.pk])
    assert sub.text == decode_mat(windows_1252_file())
    assert f" {FIRST} : 0" in sub.text and f" {SECOND} : 0" in sub.text
    assert sub.state == RecordState.ENTERED, sub.report


def test_the_api_reads_it_as_the_cli_does(django_capture_on_commit_callbacks: Any) -> None:
    match, referee = _match()
    api = APIClient()
    api.force_authenticate(referee)
    upload = SimpleUploadedFile("match.mat", windows_1252_file(), content_type="text/plain")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            reverse("api:record-list", args=[match.pk]), {"file": upload}, format="multipart"
        )
    assert response.status_code == 202, response.content
    sub = GameRecordSubmission.objects.get()
    assert sub.text == decode_mat(windows_1252_file())
    assert sub.state == RecordState.ENTERED, sub.report


def test_a_brade_file_stays_utf8_only(client: Client) -> None:
    """The encoding is the game's: bräde's records are UTF-8, its error names the byte."""
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    client.force_login(setup.referee)
    client.cookies["django_language"] = "en"
    latin = SimpleUploadedFile("rec.txt", '[Event "Höstcupen"]\n'.encode("cp1252"))
    response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": latin})
    page = response.content.decode()
    assert response.status_code == 200
    assert "The file is not UTF-8 text (byte 10 is not valid UTF-8)." in page
    assert not GameRecordSubmission.objects.exists()
