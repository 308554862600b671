"""The team stage's API: the team table (JSON and CSV), the team matches, one team match
with its boards and its hidden line-ups, a line-up given and the line-ups closed, the
team rules and the teams entered; who may."""

from __future__ import annotations

import random
from typing import Any

import pytest

from teams.models import TeamBoard, TeamCompetition, TeamEntry, TeamMatch, TeamMember
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tests.teams.league_helpers import Division, division_make, play_board, season_make

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.api.urls")]


def _first(division: Division) -> TeamMatch:
    first = (
        TeamMatch.objects.filter(tournament=division.tournament)
        .select_related("home", "away", "tournament")
        .order_by("round__number", "number")
        .first()
    )
    assert first is not None
    return first


def _ids(team_id: int, boards: int) -> list[int]:
    return [
        m.player_id for m in TeamMember.objects.filter(team_id=team_id).order_by("board")[:boards]
    ]


def test_the_table_and_the_team_matches_as_json_and_csv(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Div", teams=3, boards=2, double=False)
    team_match = _first(division)
    assert team_match.away is not None
    organiser = client_for(division.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(f"/api/team-matches/{team_match.pk}/close/")
    rng = random.Random(4)
    for board in TeamBoard.objects.filter(team_match=team_match, match__isnull=False):
        assert board.match is not None
        with django_capture_on_commit_callbacks(execute=True):
            play_board(division, board.match, rng, "referee")
    team_match.refresh_from_db()
    anon = client_for(None)
    table = anon.get(f"/api/tournaments/{division.tournament.pk}/team-table/")
    assert table.status_code == 200
    body = table.json()
    assert body["boards"] == 2
    assert body["match_points"] == {"win": 2, "draw": 1, "loss": 0}
    assert body["chain"] == ["board_points", "points_difference", "points_for", "direct_encounter"]
    assert len(body["rows"]) == 3
    assert [r["place"] for r in body["rows"]] == [1, 2, 3]
    assert body["rows"][-1]["why"] is None
    assert {r["why"] for r in body["rows"][:-1]} <= {
        "match_points",
        "board_points",
        "points_difference",
        "points_for",
        "direct_encounter",
        "lots",
    }
    played = {r["team"]["id"]: r["played"] for r in body["rows"]}
    assert played[team_match.home_id] == 1 and played[team_match.away.pk] == 1
    matches = anon.get(f"/api/tournaments/{division.tournament.pk}/team-matches/").json()
    assert len(matches) == 3  # three teams, a single round robin: one match a round
    first = next(m for m in matches if m["id"] == team_match.pk)
    assert first["result"] in ("home", "away", "draw")
    assert (first["home_boards"], first["away_boards"]) == (
        team_match.home_boards,
        team_match.away_boards,
    )
    csv = anon.get(
        f"/api/tournaments/{division.tournament.pk}/team-table.csv", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert csv.status_code == 200
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Place;Team;Club;Played;Won;Drawn;Lost;match points;board points")
    assert len(lines) == 4
    fixtures = anon.get(
        f"/api/tournaments/{division.tournament.pk}/team-matches.csv", HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert fixtures.status_code == 200
    rows = fixtures.content.decode("utf-8-sig").splitlines()
    assert rows[0].split(";")[:4] == ["Omgång", "Speldag", "Hemma", "Borta"]
    assert len(rows) == 1 + 3  # three teams meet once: three team matches
    played = next(r.split(";") for r in rows[1:] if r.split(";")[2] == team_match.home.name)
    assert played[5:7] == [str(team_match.home_boards), str(team_match.away_boards)]


def test_a_tournament_not_played_by_teams_has_no_team_table() -> None:
    tournament = TournamentFactory.create()
    user = OrganiserFactory.create()
    tournament.organisers.add(user)
    organiser = client_for(user)
    for method, path in (
        ("get", "team-table/"),
        ("get", "team-matches.csv"),
        ("patch", "team-rules/"),
        ("post", "team-entries/"),
    ):
        answer = getattr(organiser, method)(f"/api/tournaments/{tournament.pk}/{path}", {})
        assert answer.status_code == 404, (method, path)
        assert answer.json()["error"]["code"] == "not_played_by_teams"


def test_a_line_up_is_hidden_in_the_api_until_both_are_in(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2)
    team_match = _first(division)
    assert team_match.away is not None
    home, away = team_match.home_id, team_match.away.pk
    home_captain = client_for(division.captains[home])
    given = home_captain.post(
        f"/api/team-matches/{team_match.pk}/line-ups/",
        {"team": home, "players": [*_ids(home, 1), None]},
        format="json",
    )
    assert given.status_code == 200, given.json()
    mine = {lu["team"]: lu for lu in given.json()["line_ups"]}
    assert mine[home]["hidden"] is False
    assert [p and p["id"] for p in mine[home]["players"]] == [*_ids(home, 1), None]
    for reader in (client_for(None), client_for(division.captains[away])):
        shown = {
            lu["team"]: lu
            for lu in reader.get(f"/api/team-matches/{team_match.pk}/").json()["line_ups"]
        }
        assert shown[home] == {"team": home, "given": True, "hidden": True, "players": []}
        assert shown[away]["given"] is False
    # a captain of the other team cannot give this one's
    refused = client_for(division.captains[away]).post(
        f"/api/team-matches/{team_match.pk}/line-ups/",
        {"team": home, "players": _ids(home, 2)},
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "captains_only"
    # a player of another roster is refused
    stranger = client_for(division.captains[away]).post(
        f"/api/team-matches/{team_match.pk}/line-ups/",
        {"team": away, "players": _ids(home, 2)},
        format="json",
    )
    assert stranger.status_code == 400
    assert stranger.json()["error"]["code"] == "line_up"
    with django_capture_on_commit_callbacks(execute=True):
        both = client_for(division.captains[away]).post(
            f"/api/team-matches/{team_match.pk}/line-ups/",
            {"team": away, "players": _ids(away, 2)},
            format="json",
        )
    assert both.status_code == 200
    body = client_for(None).get(f"/api/team-matches/{team_match.pk}/").json()
    assert body["boards_made"] is True
    assert body["line_ups"] == []
    assert [b["board"] for b in body["boards"]] == [1, 2]
    assert body["boards"][0]["home"]["id"] == _ids(home, 1)[0]
    assert body["boards"][1]["home"] is None  # nobody: a walkover to the away team
    assert body["boards"][1]["winner"] == "away"
    again = client_for(division.organiser).post(f"/api/team-matches/{team_match.pk}/close/")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "boards_made"


def test_only_organisers_close_the_line_ups() -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2)
    team_match = _first(division)
    captain = client_for(division.captains[team_match.home_id])
    assert captain.post(f"/api/team-matches/{team_match.pk}/close/").status_code == 403
    assert client_for(None).post(f"/api/team-matches/{team_match.pk}/close/").status_code in (
        401,
        403,
    )
    team_match.refresh_from_db()
    assert not team_match.boards_made


def test_the_team_rules_and_the_teams_entered() -> None:
    season = season_make()
    division = division_make(season=season, name="Div", teams=2, draw=False)
    extra = division_make(season=season, name="Andra", teams=1, draw=False).teams[0]
    tournament = division.tournament
    anon = client_for(None)
    rules = anon.get(f"/api/tournaments/{tournament.pk}/team-rules/").json()
    assert rules["boards"] == 4
    assert rules["season"] == season.pk
    organiser = client_for(division.organiser)
    changed = organiser.patch(
        f"/api/tournaments/{tournament.pk}/team-rules/",
        {"boards": 6, "chain": ["points_difference"]},
        format="json",
    )
    assert changed.status_code == 200
    assert (changed.json()["boards"], changed.json()["chain"]) == (6, ["points_difference"])
    bad = organiser.patch(
        f"/api/tournaments/{tournament.pk}/team-rules/",
        {"win_points": 1, "draw_points": 1},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "team_rules"
    someone = client_for(UserFactory.create())
    denied = someone.patch(
        f"/api/tournaments/{tournament.pk}/team-rules/", {"boards": 2}, format="json"
    )
    assert denied.status_code == 403
    assert TeamCompetition.objects.get(tournament=tournament).boards == 6

    entered = organiser.post(
        f"/api/tournaments/{tournament.pk}/team-entries/", {"team": extra.pk}, format="json"
    )
    assert entered.status_code == 201
    assert [e["team"]["id"] for e in entered.json()] == [*[t.pk for t in division.teams], extra.pk]
    twice = organiser.post(
        f"/api/tournaments/{tournament.pk}/team-entries/", {"team": extra.pk}, format="json"
    )
    assert twice.status_code == 409
    assert (
        someone.post(
            f"/api/tournaments/{tournament.pk}/team-entries/", {"team": extra.pk}, format="json"
        ).status_code
        == 403
    )
    gone = organiser.delete(f"/api/tournaments/{tournament.pk}/team-entries/{extra.pk}/")
    assert gone.status_code == 204
    assert not TeamEntry.objects.filter(tournament=tournament, team=extra).exists()
    missing = organiser.delete(f"/api/tournaments/{tournament.pk}/team-entries/{extra.pk}/")
    assert missing.status_code == 404
    listed = anon.get(f"/api/tournaments/{tournament.pk}/team-entries/").json()
    assert [e["number"] for e in listed] == [1, 2]
