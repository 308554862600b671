"""The teams API: a season's teams, a team with its roster and captains, the roster's
changes and the boards' order; refusals with their codes, in English or in Swedish as the
request asks."""

from __future__ import annotations

from typing import Any

import pytest

from teams.models import Team, TeamMember
from teams.rosters import roster_player_add
from tests.api.conftest import client_for
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tests.teams.helpers import Squad, boards, squad

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.api.urls")]


def full(s: Squad) -> list[int]:
    """Every player of the squad on the roster; their ids, board 1 first."""
    for player in s.players:
        roster_player_add(team=s.team, player=player, by=s.captain)
    return [m.player_id for m in TeamMember.objects.filter(team=s.team).order_by("board")]


def names(body: dict[str, Any]) -> list[tuple[int, str, bool]]:
    return [(ln["board"], ln["player"]["name"], ln["reserve"]) for ln in body["roster"]]


def test_anyone_reads_a_seasons_teams_and_a_team() -> None:
    s = squad(("1620.5", None))
    full(s)
    anon = client_for(None)
    listed = anon.get(f"/api/seasons/{s.season.pk}/teams/")
    assert listed.status_code == 200
    assert listed.json() == [
        {
            "id": s.team.pk,
            "name": "Lag 1",
            "season": s.season.pk,
            "club": {"id": s.club.pk, "name": "Brädklubben Norr", "city": ""},
            "game": "brade",
            "boards_by_rating": True,
            "players": 2,
        }
    ]
    team = anon.get(f"/api/teams/{s.team.pk}/").json()
    assert team["roster"] == [
        {
            "board": 1,
            "player": {"id": s.players[0].pk, "name": "Spelare A"},
            "club": {"id": s.club.pk, "name": "Brädklubben Norr", "city": ""},
            "reserve": False,
            "rating": "1620.50",
        },
        {
            "board": 2,
            "player": {"id": s.players[1].pk, "name": "Spelare B"},
            "club": {"id": s.club.pk, "name": "Brädklubben Norr", "city": ""},
            "reserve": False,
            "rating": None,
        },
    ]
    assert team["captains"] == [{"name": None}]  # the captain has no public name
    assert anon.get(f"/api/teams/{s.team.pk}/boards/").json()["roster"] == team["roster"]


def test_captains_user_names_only_to_the_keepers_and_the_captains() -> None:
    s = squad()
    s.captain.first_name, s.captain.last_name = "Karin", "Kapten"
    s.captain.save()
    for who, expected in [
        (None, [{"name": "Karin Kapten"}]),
        (s.captain, [{"id": s.captain.pk, "username": "kapten", "name": "Karin Kapten"}]),
        (s.keeper, [{"id": s.captain.pk, "username": "kapten", "name": "Karin Kapten"}]),
    ]:
        body = client_for(who).get(f"/api/teams/{s.team.pk}/captains/").json()
        assert body == {"captains": expected}


def test_a_keeper_creates_renames_names_captains_and_deletes_a_team() -> None:
    s = squad()
    api = client_for(s.keeper)
    south = ClubFactory.create(name="Södra BK")
    made = api.post(
        f"/api/seasons/{s.season.pk}/teams/",
        {"name": " Södra  1 ", "club": south.pk, "game": "backgammon"},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["name"], body["club"]["id"], body["game"]) == ("Södra 1", south.pk, "backgammon")
    assert (body["roster"], body["captains"], body["boards_by_rating"]) == ([], [], True)
    pk = body["id"]
    default = api.post(f"/api/seasons/{s.season.pk}/teams/", {"name": "Lag 2"}, format="json")
    assert default.json()["club"]["id"] == s.club.pk and default.json()["game"] == "brade"

    renamed = api.patch(f"/api/teams/{pk}/", {"name": "Södra Ett"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Södra Ett"
    captains = api.put(f"/api/teams/{pk}/captains/", {"captains": [s.captain.pk]}, format="json")
    assert captains.json() == {
        "captains": [{"id": s.captain.pk, "username": "kapten", "name": None}]
    }
    assert api.delete(f"/api/teams/{pk}/").status_code == 204
    assert not Team.objects.filter(pk=pk).exists()


def test_a_taken_name_is_a_conflict_in_the_requests_language() -> None:
    s = squad()
    api = client_for(s.keeper)
    url = f"/api/seasons/{s.season.pk}/teams/"
    english = api.post(url, {"name": "LAG 1"}, format="json")
    assert english.status_code == 409
    assert english.json()["error"] == {
        "code": "team_name_taken",
        "message": "Brädklubben Norr already has a team called “LAG 1” in Säsong 2027.",
    }
    swedish = api.post(url, {"name": "LAG 1"}, format="json", HTTP_ACCEPT_LANGUAGE="sv")
    assert swedish.json()["error"]["message"] == (
        "Brädklubben Norr har redan ett lag som heter ”LAG 1” i Säsong 2027."
    )
    other = api.post(f"/api/seasons/{s.season.pk}/teams/", {"name": "Lag 2"}, format="json")
    renamed = api.patch(f"/api/teams/{other.json()['id']}/", {"name": "lag 1"}, format="json")
    assert renamed.status_code == 409


def test_the_roster_through_the_api() -> None:
    s = squad()  # A 1510, B 1620, C 1480, D 1700
    api = client_for(s.captain)
    a, b, c, d = (p.pk for p in s.players)
    url = f"/api/teams/{s.team.pk}/players/"
    for pk in (a, b, c):
        assert api.post(url, {"player": pk}, format="json").status_code == 201
    added = api.post(url, {"player": d, "reserve": True}, format="json")
    assert added.status_code == 201
    assert names(added.json()) == [
        (1, "Spelare B", False),
        (2, "Spelare A", False),
        (3, "Spelare C", False),
        (4, "Spelare D", True),
    ]
    reserve = api.patch(f"{url}{a}/", {"reserve": True}, format="json")
    assert names(reserve.json())[2:] == [(3, "Spelare D", True), (4, "Spelare A", True)]
    assert api.delete(f"{url}{b}/").status_code == 204
    assert boards(s.team) == [
        (1, "Spelare C", False),
        (2, "Spelare D", True),
        (3, "Spelare A", True),
    ]

    ordered = api.put(
        f"/api/teams/{s.team.pk}/boards/",
        {"order": [d, c, a], "reserves": [a]},
        format="json",
    )
    assert ordered.status_code == 200, ordered.content
    assert ordered.json()["boards_by_rating"] is False
    assert names(ordered.json()) == [
        (1, "Spelare D", False),
        (2, "Spelare C", False),
        (3, "Spelare A", True),
    ]
    sorted_ = api.post(f"/api/teams/{s.team.pk}/boards/by-rating/")
    assert sorted_.json()["boards_by_rating"] is True
    assert [n for _b, n, _r in names(sorted_.json())] == ["Spelare D", "Spelare C", "Spelare A"]


def test_roster_refusals_carry_their_codes() -> None:
    s = squad()
    ids = full(s)
    api = client_for(s.captain)
    players = f"/api/teams/{s.team.pk}/players/"
    guest = PlayerFactory.create(club=ClubFactory.create())
    hidden = PlayerFactory.create(club=s.club)
    EntryFactory.create(tournament=TournamentFactory.create(is_public=False), player=hidden)
    other = PlayerFactory.create(club=s.club)
    cases = [
        (api.post(players, {"player": guest.pk}, format="json"), 400, "player_of_another_club"),
        (api.post(players, {"player": ids[0]}, format="json"), 409, "player_in_a_team"),
        (api.post(players, {"player": hidden.pk}, format="json"), 404, "not_found"),
        (api.patch(f"{players}{other.pk}/", {"reserve": True}, format="json"), 404, None),
        (api.delete(f"{players}{other.pk}/"), 404, "not_on_roster"),
        (
            api.put(f"/api/teams/{s.team.pk}/boards/", {"order": ids[:3]}, format="json"),
            400,
            "order_not_the_roster",
        ),
        (
            api.put(
                f"/api/teams/{s.team.pk}/boards/",
                {"order": ids, "reserves": [ids[0]]},
                format="json",
            ),
            400,
            "reserve_before_regular",
        ),
        (client_for(None).post(players, {"player": other.pk}, format="json"), 401, None),
        (
            client_for(s.keeper).patch(f"/api/teams/{s.team.pk}/", {"name": ""}, format="json"),
            400,
            "invalid",
        ),
        (api.patch(f"/api/teams/{s.team.pk}/", {"name": "X"}, format="json"), 403, None),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.content
        if code is not None:
            assert response.json()["error"]["code"] == code, response.content
    error = cases[5][0].json()["error"]
    assert (error["missing"], error["unknown"], error["repeated"]) == ([ids[3]], [], [])
    assert [m for _b, m, _r in boards(s.team)] == [
        "Spelare D",
        "Spelare B",
        "Spelare A",
        "Spelare C",
    ]


def test_a_roster_refusal_in_swedish() -> None:
    s = squad()
    guest = PlayerFactory.create(name="Gäst", club=ClubFactory.create())
    response = client_for(s.captain).post(
        f"/api/teams/{s.team.pk}/players/",
        {"player": guest.pk},
        format="json",
        HTTP_ACCEPT_LANGUAGE="sv",
    )
    assert response.json()["error"] == {
        "code": "player_of_another_club",
        "message": "Gäst spelar inte för Brädklubben Norr: ett lag spelar med sin egen klubbs "
        "spelare.",
    }
