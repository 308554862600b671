"""The players' reports through the API: a player reports a game, the
opponent confirms or disputes it, the referees decide; a tournament chooses the mode."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import GameReport, ReportState
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, UserFactory
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> dict[str, Any]:
    s = drawn(4, lengths=[1, 1], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.user, two.user = UserFactory.create(), UserFactory.create()
    one.save()
    two.save()
    # What the players call each other: display names (``core.names``), not user names.
    return {
        "s": s,
        "match": match,
        "white": one.user,
        "black": two.user,
        "names": (one.name, two.name),
    }


def test_report_confirm_and_the_winner_advances(table: dict[str, Any]) -> None:
    match = table["match"]
    white, black = client_for(table["white"]), client_for(table["black"])
    response = white.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner_player": match.player2_id, "outcome": "jan", "starter": "W"},
        format="json",
    )
    assert response.status_code == 201, response.content
    report = response.json()
    assert report["state"] == "pending" and report["winner"] == "B"
    assert report["reported_by"] == table["names"][0] and report["starter"] == "W"
    # Nothing counts yet: no game, no score.
    assert client_for(None).get(f"/api/matches/{match.pk}/games/").json() == []

    own = white.post(f"/api/reports/{report['id']}/confirm/", format="json")
    assert own.status_code == 403 and own.json()["error"]["code"] == "own_report"
    referee = client_for(table["s"].referee).post(
        f"/api/reports/{report['id']}/confirm/", format="json"
    )
    assert referee.status_code == 403
    assert referee.json()["error"]["code"] == "not_the_opponent"

    confirmed = black.post(f"/api/reports/{report['id']}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    body = confirmed.json()
    assert body["report"]["state"] == "confirmed"
    assert body["report"]["answered_by"] == table["names"][1]
    assert body["game"]["source"] == "players" and body["game"]["version"] == 1
    assert body["game"]["starter"] == "W"
    detail = client_for(None).get(f"/api/matches/{match.pk}/").json()
    assert detail["match"]["state"] == "decided" and detail["match"]["winner"] == match.player2_id
    final = match_of(table["s"].tournament, 2, 0)
    assert final.player1_id == match.player2_id
    versions = black.get(f"/api/matches/{match.pk}/games/1/versions/").json()
    assert versions[0]["entered_by"] == table["names"][0]
    assert versions[0]["confirmed_by"] == table["names"][1]
    assert versions[0]["report"] == report["id"]
    again = black.post(f"/api/reports/{report['id']}/confirm/", format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "report_closed"


def test_dispute_then_a_referee_decides(table: dict[str, Any]) -> None:
    match = table["match"]
    white, black = client_for(table["white"]), client_for(table["black"])
    report = white.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner": "W", "outcome": "sprangjan"},
        format="json",
    ).json()
    second = black.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner": "B", "outcome": "hemspel"},
        format="json",
    )
    assert second.status_code == 409 and second.json()["error"]["code"] == "report_open"
    assert second.json()["error"]["report"]["id"] == report["id"]
    disputed = black.post(
        f"/api/reports/{report['id']}/dispute/", {"note": "It was jan."}, format="json"
    )
    assert disputed.status_code == 200
    assert (
        disputed.json()["state"] == "disputed" and disputed.json()["dispute_note"] == "It was jan."
    )
    # The players' reports show with the match to its players and staff only.
    assert [r["id"] for r in white.get(f"/api/matches/{match.pk}/").json()["reports"]] == [
        report["id"]
    ]
    assert client_for(None).get(f"/api/matches/{match.pk}/").json()["reports"] == []
    assert client_for(UserFactory.create()).get(f"/api/reports/{report['id']}/").status_code == 404
    entered = client_for(table["s"].referee).post(
        f"/api/matches/{match.pk}/games/",
        {"number": 1, "winner": "W", "outcome": "jan"},
        format="json",
    )
    assert entered.status_code == 201 and entered.json()["source"] == "referee"
    assert GameReport.objects.get(pk=report["id"]).state == ReportState.OVERRIDDEN
    listed = white.get(f"/api/matches/{match.pk}/reports/").json()
    assert [(r["id"], r["state"], r["closed_by"]) for r in listed] == [
        (report["id"], "overridden", None)  # the referee has no display name; no user name
    ]


def test_withdraw_and_the_referees_mode(table: dict[str, Any]) -> None:
    match = table["match"]
    white = client_for(table["white"])
    report = white.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner": "W", "outcome": "jan"},
        format="json",
    ).json()
    organiser = client_for(table["s"].organiser)
    t = table["s"].tournament.pk
    refused = organiser.patch(f"/api/tournaments/{t}/", {"results_by": "referees"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "reports_open"
    withdrawn = white.post(
        f"/api/reports/{report['id']}/withdraw/", {"note": "wrong"}, format="json"
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["state"] == "withdrawn"
    changed = organiser.patch(f"/api/tournaments/{t}/", {"results_by": "referees"}, format="json")
    assert changed.status_code == 200 and changed.json()["results_by"] == "referees"
    closed = white.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner": "W", "outcome": "jan"},
        format="json",
    )
    assert closed.status_code == 403
    assert closed.json()["error"]["code"] == "results_by_referees"


def test_a_tournament_chooses_how_results_come_in() -> None:
    organiser = client_for(OrganiserFactory.create())
    made = organiser.post(
        "/api/tournaments/",
        {"name": "Klubbmästerskap", "start_date": "2026-12-01", "results_by": "players"},
        format="json",
    )
    assert made.status_code == 201 and made.json()["results_by"] == "players"
    default = organiser.post(
        "/api/tournaments/", {"name": "Cup", "start_date": "2026-12-01"}, format="json"
    )
    assert default.json()["results_by"] == "referees"
    wrong = organiser.post(
        "/api/tournaments/",
        {"name": "Cup", "start_date": "2026-12-01", "results_by": "anyone"},
        format="json",
    )
    assert wrong.status_code == 400
    assert Tournament.objects.get(pk=made.json()["id"]).results_by == "players"
