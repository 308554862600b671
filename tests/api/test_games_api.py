"""The API chooses a tournament's game and enters each game's own result fields."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db


def test_a_backgammon_tournament_from_creation_to_a_decided_match() -> None:
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    api = client_for(organiser)
    r = api.post(
        "/api/tournaments/",
        {"name": "BG-cupen", "start_date": "2027-05-01", "game": "backgammon"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    tournament = r.json()
    assert tournament["game"] == "backgammon"
    pk = tournament["id"]
    for name in ("Anna", "Bo"):
        EntryFactory.create(tournament_id=pk, player=PlayerFactory.create(name=name))
    api.put(f"/api/tournaments/{pk}/staff/", {"referees": [referee.pk]}, format="json")
    r = api.post(f"/api/tournaments/{pk}/draw/", {"lengths": [2]}, format="json")
    assert r.status_code == 201, r.json()
    match = r.json()["rounds"][0]["matches"][0]
    assert r.json()["rounds"][0]["round"]["length_unit"] == "points"

    ref = client_for(referee)
    url = f"/api/matches/{match['id']}/games/"
    r = ref.post(url, {"number": 1, "winner": "W", "outcome": "jan"}, format="json")
    assert r.status_code == 400 and "Not a possible result" in r.json()["error"]["message"]
    r = ref.post(url, {"number": 1, "winner": "B", "outcome": "single"}, format="json")
    assert r.status_code == 201
    assert (r.json()["cube"], r.json()["conceded"]) == (1, "")
    # Bo is on match point: game 2 is the Crawford game, no cube.
    r = ref.post(url, {"number": 2, "winner": "A", "outcome": "drop"}, format="json")
    assert r.status_code == 400
    r = ref.post(url, {"number": 2, "winner": "W", "outcome": "drop", "cube": 2}, format="json")
    assert r.status_code == 400 and "Crawford" in r.json()["error"]["message"]
    r = ref.post(
        url,
        {"number": 2, "winner": "B", "outcome": "resign", "conceded": "gammon"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    detail = ref.get(f"/api/matches/{match['id']}/").json()["match"]
    assert detail["points"] == [0, 3] and detail["state"] == "decided"
    assert (detail["length_unit"], detail["crawford_game"]) == ("points", 2)


def test_kungabrade_takes_a_game_type_and_no_records(settings: Any) -> None:
    s = drawn(2, lengths=[1], game="kungabrade")
    match = match_of(s.tournament, 1, 0)
    ref = client_for(s.referee)
    r = ref.post(f"/api/matches/{match.pk}/records/", {"text": "Game 1\n"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "no_records"
    r = ref.post(
        f"/api/matches/{match.pk}/games/",
        {"number": 1, "winner": "B", "outcome": "castle", "game_type": "maktkamp"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert r.json()["game_type"] == "maktkamp"
    match.refresh_from_db()
    assert match.state == "decided" and match.winner == match.player2


def test_a_gnubg_sgf_file_through_the_api(django_capture_on_commit_callbacks: Any) -> None:
    """gnubg's .sgf as a multipart file: verified, kept as sent, the program and format read
    in the report."""
    from pathlib import Path

    from django.core.files.uploadedfile import SimpleUploadedFile

    s = drawn(2, lengths=[3], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    data = Path(__file__).resolve().parent.parent / "data" / "backgammon"
    names = (str(match.player1), str(match.player2))
    text = (data / "gnubg_3pt_seed42.sgf").read_text()
    text = text.replace("PW[gnubg]", f"PW[{names[0]}]").replace("PB[root]", f"PB[{names[1]}]")
    upload = SimpleUploadedFile("match.sgf", text.encode(), content_type="application/x-go-sgf")
    ref = client_for(s.referee)
    with django_capture_on_commit_callbacks(execute=True):
        r = ref.post(f"/api/matches/{match.pk}/records/", {"file": upload}, format="multipart")
    assert r.status_code == 202, r.json()
    detail = ref.get(f"/api/records/{r.json()['id']}/").json()
    assert detail["text"] == text
    report = detail["report"]
    assert (report["program"], report["format"], report["valid"]) == ("GNU Backgammon", "sgf", True)
