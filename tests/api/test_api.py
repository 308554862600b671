"""The REST API end to end: a tournament from creation to placings, and its errors."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from matches.models import RecordState
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.matches.fakes import FakeReplay

pytestmark = pytest.mark.django_db


def test_whole_tournament(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    api = client_for(organiser)
    r = api.post(
        "/api/tournaments/",
        {"name": "KM 2026", "start_date": "2026-11-21", "third_place_match": True},
        format="json",
    )
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    assert r.json()["my_roles"] == ["organiser", "referee"]
    r = api.put(f"/api/tournaments/{tid}/staff/", {"referees": [referee.pk]}, format="json")
    assert r.status_code == 200 and r.json()["referees"][0]["username"] == referee.username
    club = api.post("/api/clubs/", {"name": "Vasa BK"}, format="json").json()
    ids = []
    for i in range(5):
        r = api.post("/api/players/", {"name": f"Spelare {i}", "club": club["id"]}, format="json")
        assert r.status_code == 201
        ids.append(r.json()["id"])
        seed = i + 1 if i < 2 else None
        r = api.post(
            f"/api/tournaments/{tid}/entries/", {"player": ids[-1], "seed": seed}, format="json"
        )
        assert r.status_code == 201, r.json()
    r = api.post(f"/api/tournaments/{tid}/draw/", {"lengths": [1, 1, 3], "draw_seed": 5})
    assert r.status_code == 201, r.json()
    bracket = r.json()
    assert [len(rd["matches"]) for rd in bracket["rounds"]] == [4, 2, 1]
    assert bracket["third_place"]["is_third_place"] is True
    first = bracket["rounds"][0]["matches"]
    assert [m["state"] for m in first].count("bye") == 3
    playable = next(m for m in first if m["state"] == "ready")
    ref = client_for(referee)
    url = f"/api/matches/{playable['id']}/games/"
    r = ref.post(url, {"number": 1, "winner": "B", "outcome": "jan", "starter": "W"})
    assert r.status_code == 201, r.json()
    assert r.json()["winner_player"] == playable["player2"]["id"]
    # The same game again: 409 with a message and the current state.
    r = ref.post(url, {"number": 1, "winner": "W", "outcome": "hemspel"})
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["code"] == "game_exists"  # the game is there (the match is decided too)
    assert "match" in error and error["message"]
    detail = ref.get(f"/api/matches/{playable['id']}/?lang=en").json()
    assert detail["match"]["state"] == "decided"
    assert detail["games"][0]["outcome"] == "jan"
    assert detail["explanation"] and isinstance(detail["explanation"][0], str)
    assert [e["kind"] for e in detail["events"]][:2] == ["result_entered", "match_decided"]
    # A game record through the API (engine replaced by a fake verdict).
    from matches import records

    fake = FakeReplay(results=["B jan"])
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
    with django_capture_on_commit_callbacks(execute=True):
        r = ref.post(f"/api/matches/{playable['id']}/records/", {"text": "Game 1\n"}, format="json")
    assert r.status_code == 202, r.json()
    assert r.json()["state"] == RecordState.PENDING  # stored first, verified on commit
    record = ref.get(f"/api/records/{r.json()['id']}/").json()
    assert record["state"] == RecordState.VERIFIED
    assert record["text"] == "Game 1\n"
    # Play the rest via the API: every ready match won by player1 with jan.
    while True:
        ready = api.get(f"/api/matches/?tournament={tid}&state=ready").json()["results"]
        if not ready:
            break
        for m in ready:
            for number in range(1, m["length"] + 1):
                r = ref.post(
                    f"/api/matches/{m['id']}/games/",
                    {"number": number, "winner_player": m["player1"]["id"], "outcome": "jan"},
                    format="json",
                )
                if r.status_code == 409:
                    break
                assert r.status_code == 201, r.json()
    placings = api.get(f"/api/tournaments/{tid}/placings/").json()
    # 5 players: round 1 has one match (three byes), its loser is fifth alone
    assert [p["label"] for p in placings] == ["1", "2", "3", "4", "5"]
    assert api.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"


def test_errors_are_json_people_can_act_on() -> None:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    r = api.post("/api/tournaments/", {"name": "X"}, format="json")
    assert r.status_code == 400
    body = r.json()["error"]
    assert body["code"] == "invalid" and "start_date" in body["message"]
    assert "start_date" in body["fields"]
    r = api.post(
        "/api/tournaments/",
        {"name": "X", "start_date": "2026-01-02", "rules": "vasa", "addons": ["one-die"]},
        format="json",
    )
    assert r.status_code == 400 and "board" in r.json()["error"]["message"]
    r = client_for(None).post("/api/tournaments/", {"name": "X"}, format="json")
    assert r.status_code == 401 and "Token" in r.json()["error"]["message"]
    r = api.get("/api/tournaments/999999/")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = api.get("/api/matches/?state=nonsense")
    assert r.status_code == 400 and "state" in r.json()["error"]["fields"]


def test_pagination_and_filters() -> None:
    PlayerFactory.create_batch(7, name="Anna")
    PlayerFactory.create(name="Bo")
    api = client_for(UserFactory.create())
    page = api.get("/api/players/?name=ann&limit=5").json()
    assert page["count"] == 7 and len(page["results"]) == 5 and page["next"]


def test_session_auth_works() -> None:
    organiser = OrganiserFactory.create(username="sess")
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=False)
    client.force_login(organiser)
    r = client.post("/api/tournaments/", {"name": "S", "start_date": "2026-01-01"}, format="json")
    assert r.status_code == 201


def test_openapi_schema_generates(tmp_path: Any, settings: Any) -> None:
    """``manage.py spectacular`` with the project's own SPECTACULAR_SETTINGS: valid, and
    no warnings (shared enums are named in ENUM_NAME_OVERRIDES)."""
    settings.ROOT_URLCONF = "tests.api.urls"
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(out), "--validate", "--fail-on-warn")
    text = out.read_text()
    assert "/api/matches/{id}/games/" in text and "/api/tournaments/{id}/bracket/" in text
    assert "MatchStateEnum:" in text and "RecordStateEnum:" in text
    r = client_for(None).get("/api/docs/")
    assert r.status_code == 200


def test_record_upload_as_a_file(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches import records
    from tests.tournaments.helpers import drawn, match_of

    s = drawn(2, lengths=[3])
    m = match_of(s.tournament, 1, 0)
    fake = FakeReplay(results=["W hemspel"])
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
    upload = SimpleUploadedFile("match.txt", b"Game 1\nTek: 2-5\n", content_type="text/plain")
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(s.referee).post(f"/api/matches/{m.pk}/records/", {"file": upload})
    assert r.status_code == 202, r.json()
    assert fake.calls == ["Game 1\nTek: 2-5\n"]
    big = SimpleUploadedFile("big.txt", b"x" * (1_000_000 + 1))
    r = client_for(s.referee).post(f"/api/matches/{m.pk}/records/", {"file": big})
    assert r.status_code == 400 and "1 MB" in r.json()["error"]["message"]
