"""User names (login identifiers) go to a tournament's staff only: the match's players —
and anyone else who reads a match's events, result versions, reports, records or a
conflict's message — get the display name (full name, else the linked player's name),
as ``/api/tournaments/N/staff/`` does (``core.names``)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import GameRecordSubmission
from matches.services import game_result_enter
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db

REFEREE_LOGIN = "domare.login"


@pytest.fixture
def table() -> dict[str, Any]:
    """A knockout whose players report; the referee has a user name and a full name; the
    first match's players are linked to accounts; the referee entered game 1."""
    s = drawn(4, lengths=[3, 3], results_by="players")
    referee = s.referee
    referee.username, referee.first_name, referee.last_name = REFEREE_LOGIN, "Rut", "Domare"
    referee.save()
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.user = UserFactory.create(username="vit.login")
    two.user = UserFactory.create(username="svart.login")
    one.save()
    two.save()
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=referee, starter="W")
    GameRecordSubmission.objects.create(match=match, submitted_by=referee, text="x")
    return {"s": s, "match": match, "white": one, "black": two}


def _readers(table: dict[str, Any]) -> dict[str, tuple[Any, bool]]:
    s = table["s"]
    return {
        "its player": (client_for(table["white"].user), False),
        "the referee": (client_for(s.referee), True),
        "an organiser": (client_for(s.organiser), True),
    }


def test_the_match_reads_name_staff_by_their_user_name_for_staff_only(
    table: dict[str, Any],
) -> None:
    match = table["match"]
    # A player reports game 2; the referee closes the report.
    white = client_for(table["white"].user)
    report = white.post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 2, "winner": "W", "outcome": "jan"},
        format="json",
    ).json()
    closed = client_for(table["s"].referee).post(
        f"/api/reports/{report['id']}/withdraw/", {"note": "spelas om"}, format="json"
    )
    assert closed.status_code == 200, closed.content
    for who, (api, staff) in _readers(table).items():
        referee_name = REFEREE_LOGIN if staff else "Rut Domare"
        player_name = "vit.login" if staff else table["white"].name

        detail = api.get(f"/api/matches/{match.pk}/").json()
        by = {e["by"] for e in detail["events"] if e["by"] is not None}
        assert referee_name in by, (who, by)
        assert all("login" not in name for name in by) or staff, (who, by)
        assert {s["submitted_by"] for s in detail["submissions"]} == {referee_name}, who
        (shown,) = [r for r in detail["reports"] if r["id"] == report["id"]]
        assert (shown["closed_by"], shown["reported_by"]) == (referee_name, player_name), who

        versions = api.get(f"/api/matches/{match.pk}/games/1/versions/").json()
        assert versions[0]["entered_by"] == referee_name, who

        listed = api.get(f"/api/matches/{match.pk}/reports/").json()
        assert listed[-1]["closed_by"] == referee_name, who
        one = api.get(f"/api/reports/{report['id']}/").json()
        assert one["closed_by"] == referee_name, who

        records = api.get(f"/api/matches/{match.pk}/records/").json()
        assert records["results"][0]["submitted_by"] == referee_name, who
        sub = GameRecordSubmission.objects.get(match=match)
        assert api.get(f"/api/records/{sub.pk}/").json()["submitted_by"] == referee_name, who


def test_a_user_without_a_display_name_is_null_to_players(table: dict[str, Any]) -> None:
    referee = table["s"].referee
    referee.first_name = referee.last_name = ""
    referee.save()
    versions = client_for(table["white"].user).get(
        f"/api/matches/{table['match'].pk}/games/1/versions/"
    )
    assert versions.json()[0]["entered_by"] is None


def test_the_game_exists_conflict_names_the_referee_by_display_name_to_a_player(
    table: dict[str, Any],
) -> None:
    match = table["match"]
    response = client_for(table["white"].user).post(
        f"/api/matches/{match.pk}/reports/",
        {"number": 1, "winner": "B", "outcome": "jan", "starter": "W"},
        format="json",
    )
    assert response.status_code == 409, response.content
    message = response.json()["error"]["message"]
    assert "Rut Domare" in message and REFEREE_LOGIN not in message
