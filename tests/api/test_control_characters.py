"""NUL and other control characters through the API: a clear 400,
never a 500, on SQLite and on PostgreSQL (CI runs this file on both).

PostgreSQL text cannot hold NUL, so a record file with one was an HTTP 500 there. The
record's check is in ``game_record_submit``; the other text fields (notes, reasons,
names) are DRF ``CharField``s, which refuse NUL and lone surrogates themselves: the
guard below keeps it that way for every JSON text field a user can write.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.models import GameRecordSubmission
from matches.services import game_result_enter
from tests.api.conftest import client_for
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db

RECORD = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


@pytest.mark.parametrize("char", ["\x00", "\x08", "\x1b", "\x7f"])
def test_a_record_file_with_a_control_character_is_a_400(char: str) -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    upload = SimpleUploadedFile("rec.txt", RECORD.replace("Game 1", f"Game{char}1").encode())
    r = client_for(s.referee).post(
        f"/api/matches/{match.pk}/records/", {"file": upload}, format="multipart"
    )
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == "control_character"
    assert f"U+{ord(char):04X}" in error["message"]
    assert "at line 3, column 5." in error["message"]
    assert not GameRecordSubmission.objects.exists()


def test_pasted_text_with_nul_names_line_and_column() -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    body = json.dumps({"text": RECORD + "\x00"})  # "\u0000" in the JSON
    r = client_for(s.referee).post(
        f"/api/matches/{match.pk}/records/", body, content_type="application/json"
    )
    assert r.status_code == 400
    assert "U+0000 (NUL) at line 5, column 1." in r.json()["error"]["message"]
    assert not GameRecordSubmission.objects.exists()


def _writes(s: Any) -> list[tuple[str, str, str, dict[str, Any]]]:
    match = match_of(s.tournament, 1, 0)
    games = f"/api/matches/{match.pk}/games/"
    return [
        ("referee", "post", games, {"number": 2, "winner": "W", "outcome": "jan", "note": "{x}"}),
        (
            "referee",
            "put",
            f"{games}1/",
            {"winner": "B", "outcome": "jan", "version": 1, "note": "{x}"},
        ),
        ("referee", "post", f"/api/matches/{match.pk}/flag/clear/", {"note": "{x}"}),
        (
            "referee",
            "post",
            f"/api/matches/{match.pk}/walkover/",
            {"winner_player": match.player1_id, "reason": "{x}"},
        ),
        ("organiser", "post", f"/api/matches/{match.pk}/reset/", {"reason": "{x}"}),
        ("organiser", "post", "/api/players/", {"name": "N{x}"}),
        ("organiser", "post", "/api/clubs/", {"name": "C{x}"}),
        ("organiser", "post", "/api/tournaments/", {"name": "T{x}", "start_date": "2026-12-01"}),
        ("organiser", "patch", f"/api/tournaments/{s.tournament.pk}/", {"venue": "V{x}"}),
    ]


@pytest.mark.parametrize("bad", ["\x00", "\ud800"], ids=["nul", "lone-surrogate"])
def test_json_text_fields_refuse_nul_and_lone_surrogates_with_a_400(bad: str) -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), starter="W", by=s.referee)
    clients = {"referee": client_for(s.referee), "organiser": client_for(s.organiser)}
    for who, method, url, data in _writes(s):
        filled = {
            k: v.replace("{x}", f"a{bad}b") if isinstance(v, str) else v for k, v in data.items()
        }
        # json.dumps escapes both as \u0000 / \ud800: valid UTF-8 bytes on the wire.
        body = json.dumps(filled)
        r = getattr(clients[who], method)(url, body, content_type="application/json")
        assert r.status_code == 400, (method, url, r.status_code, r.content[:200])
