"""A file that is no game record the site reads (``games.unread``) says so, naming the
formats the site reads — in ``manage.py replay``, the API upload and the page upload —
instead of falling through to bräde's reader ("expected a tag or 'Game 1'"); a UTF-16 file
is refused naming its encoding; ``--program`` must name a program the site knows."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from backgammon.dialects import PROGRAMS
from matches.models import GameRecordSubmission, Match
from tests.backgammon.test_mat import XG
from tests.tournaments.helpers import drawn, match_of
from tests.web.test_record_encodings import _match

pytestmark = pytest.mark.django_db

NOT_RECORDS: dict[str, bytes] = {
    "empty": b"",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
    "json": json.dumps({"name": "Anna", "moves": [[1, 2], [3, 4]]}).encode(),
    "go-sgf": b"(;GM[1]FF[4]SZ[19]KM[6.5]PB[Anna]PW[Bo];B[pd];W[dp];B[pp])\n",
    "text": b"Dear organiser,\nhere is our match.\n",
}
UTF16 = XG.encode("utf-16")  # with its byte-order mark, as a Windows editor saves "Unicode"


def run(data: bytes, tmp_path: Path, *options: str) -> tuple[str, int]:
    path = tmp_path / "file.txt"
    path.write_bytes(data)
    out = StringIO()
    try:
        call_command("replay", str(path), *options, stdout=out, stderr=StringIO())
    except CommandError as exc:
        return out.getvalue(), exc.returncode
    return out.getvalue(), 0


class TestTheCommand:
    @pytest.mark.parametrize("kind", NOT_RECORDS)
    def test_a_file_no_game_reads_says_so(self, kind: str, tmp_path: Path) -> None:
        out, code = run(NOT_RECORDS[kind], tmp_path)
        assert code == 1
        assert out.startswith("Record NOT read: not a game record the site reads: ")
        assert "expected a tag" not in out and "Game 1" not in out
        assert all(program in out for program in PROGRAMS) and ".sgf" in out
        report, code = run(NOT_RECORDS[kind], tmp_path, "--json")
        data = json.loads(report)
        assert code == 1 and data["valid"] is False
        (error,) = data["errors"]
        assert (error["kind"], error["code"]) == ("format", "record.not_a_record")

    def test_a_utf16_file_is_refused_naming_its_encoding(self, tmp_path: Path) -> None:
        out, code = run(UTF16, tmp_path)
        assert code == 1
        assert out.startswith("Record NOT read: the file is UTF-16 text: save it as UTF-8")
        out, code = run(UTF16, tmp_path, "--program", "xg")  # forced backgammon: the same
        assert code == 1 and "UTF-16" in out

    def test_an_unknown_program_is_refused_listing_the_known_ones(self, tmp_path: Path) -> None:
        path = tmp_path / "match.mat"
        path.write_text(XG, encoding="utf-8")
        with pytest.raises(CommandError) as info:
            call_command("replay", str(path), "--program", "Nonsense", stdout=StringIO())
        assert info.value.returncode == 2
        assert "'Nonsense'" in str(info.value)
        assert all(program in str(info.value) for program in PROGRAMS)
        # a known one, by a short name, is named as the site writes it
        out, code = run(XG.encode(), tmp_path, "--program", "bgblitz", "--json")
        assert code == 0 and json.loads(out)["program"] == "BGBlitz"


def _brade_match() -> tuple[Match, Any]:
    setup = drawn(2, lengths=[3])
    return match_of(setup.tournament, 1, 0), setup.referee


# a binary file to a bräde match is refused as before, as not UTF-8 (its records' encoding)
API_CASES = [
    (game, kind)
    for game in ("backgammon", "brade")
    for kind in NOT_RECORDS
    if kind != "empty" and (game, kind) != ("brade", "binary")
]


@pytest.mark.parametrize(("game", "kind"), API_CASES)
def test_the_api_refuses_a_file_no_game_reads(game: str, kind: str) -> None:
    match, referee = _match() if game == "backgammon" else _brade_match()
    api = APIClient()
    api.force_authenticate(referee)
    upload = SimpleUploadedFile("rec.txt", NOT_RECORDS[kind], content_type="text/plain")
    response = api.post(
        reverse("api:record-list", args=[match.pk]),
        {"file": upload},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    body = response.content.decode()
    assert response.status_code == 400, body
    assert "Not a game record the site reads" in body and "eXtreme Gammon" in body
    assert not GameRecordSubmission.objects.exists()


@pytest.mark.parametrize("game", ["backgammon", "brade"])
class TestThePage:
    def test_the_page_refuses_a_file_no_game_reads(self, game: str, client: Client) -> None:
        match, referee = _match() if game == "backgammon" else _brade_match()
        client.force_login(referee)
        client.cookies["django_language"] = "sv"
        upload = SimpleUploadedFile("rec.json", NOT_RECORDS["json"])
        response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": upload})
        page = response.content.decode()
        assert response.status_code == 200
        assert "Inget partiprotokoll som webbplatsen läser" in page
        assert not GameRecordSubmission.objects.exists()

    def test_a_utf16_file_is_refused_naming_its_encoding(self, game: str, client: Client) -> None:
        match, referee = _match() if game == "backgammon" else _brade_match()
        client.force_login(referee)
        client.cookies["django_language"] = "en"
        upload = SimpleUploadedFile("rec.mat", UTF16)
        response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": upload})
        assert response.status_code == 200
        assert "The file is UTF-16 text: save it as UTF-8" in response.content.decode()
        assert not GameRecordSubmission.objects.exists()
