"""The team stage's pages: the team table and the rounds' team matches on the tournament
page, the organisers' team rules, teams and draw while a draft, a team Swiss's next round
paired; the team match page with its boards, its hidden line-ups, the captains' line-up
form and the organisers' closing button; a team's page listing its team matches."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from teams.line_ups import line_up_give
from teams.models import TeamBoard, TeamCompetition, TeamEntry, TeamMatch, TeamMember
from tests.factories import UserFactory
from tests.teams.league_helpers import Division, division_make, play_board, season_make
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def page(client: Client, name: str, *args: Any) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def _first(division: Division) -> TeamMatch:
    first = (
        TeamMatch.objects.filter(tournament=division.tournament)
        .select_related("home", "away", "tournament")
        .order_by("round__number", "number")
        .first()
    )
    assert first is not None
    return first


def _roster(team_match: TeamMatch, home: bool) -> list[Any]:
    team = team_match.home if home else team_match.away
    return [m.player for m in TeamMember.objects.filter(team=team).order_by("board")]


def _give(division: Division, team_match: TeamMatch, home: bool) -> None:
    team = team_match.home if home else team_match.away
    assert team is not None
    players = _roster(team_match, home)[: division.competition.boards]
    line_up_give(team_match=team_match, team=team, players=players, by=division.captains[team.pk])


def _played(division: Division, capture: Any) -> TeamMatch:
    """The first team match with both line-ups in and every board entered."""
    team_match = _first(division)
    with capture(execute=True):
        _give(division, team_match, True)
        _give(division, team_match, False)
    rng = random.Random(3)
    for board in TeamBoard.objects.filter(team_match=team_match, match__isnull=False):
        assert board.match is not None
        with capture(execute=True):
            play_board(division, board.match, rng, "referee")
    team_match.refresh_from_db()
    return team_match


# --- the tournament page ------------------------------------------------------------------


def test_the_tournament_page_shows_the_team_table_and_its_team_matches(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=4, boards=2, double=False)
    played = _played(division, django_capture_on_commit_callbacks)
    assert played.result
    html = page(english(client), "web:tournament_detail", division.tournament.pk)
    words = text(html)
    assert "Team table" in words
    assert "Place Team Played W–D–L Match points Board points Points +/− Why this order" in words
    assert reverse("teams:team_match", args=[played.pk]) in html
    winner, loser = (
        (played.home, played.away) if played.result == "home" else (played.away, played.home)
    )
    assert loser is not None
    assert winner is not None
    # the winner is first, above the next on match points (2 to 0 or 1)
    first_row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", html, re.S)
    assert first_row is not None
    assert winner.name in first_row.group(1)
    assert "on match points (2 to" in text(first_row.group(1))
    assert "Round 1" in words and "Round 3" in words
    assert f"{played.home_boards}–{played.away_boards}" in words
    # no organiser's forms for a reader
    assert "Team rules" not in words
    assert "Bracket" not in words


def test_the_why_line_says_lots_when_nothing_else_parts_two_teams(client: Client) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2, double=False)
    words = text(page(english(client), "web:tournament_detail", division.tournament.pk))
    assert "by drawing of lots." in words
    swedish = text(page(Client(), "web:tournament_detail", division.tournament.pk))
    assert "Lagtabell" in swedish
    assert "genom lottning." in swedish
    danish = Client()
    danish.cookies["django_language"] = "da"
    assert "Holdtabel" in text(page(danish, "web:tournament_detail", division.tournament.pk))


def test_organisers_set_the_team_rules_enter_teams_and_draw(client: Client) -> None:
    season = season_make()
    division = division_make(season=season, name="Div", teams=2, boards=4, draw=False)
    extra = division_make(season=season, name="Andra", teams=1, boards=4, draw=False).teams[0]
    tournament = division.tournament
    client.force_login(division.organiser)
    english(client)
    words = text(page(client, "web:tournament_detail", tournament.pk))
    assert "Team rules" in words and "Teams entered" in words
    assert "Draw the team matches" in words
    response = client.post(
        reverse("teams:team_rules", args=[tournament.pk]),
        {
            "boards": 3,
            "win_points": 3,
            "draw_points": 1,
            "loss_points": 0,
            "tiebreak_1": "points_difference",
            "tiebreak_2": "board_points",
        },
    )
    assert response.status_code == 302
    competition = TeamCompetition.objects.get(tournament=tournament)
    assert (competition.boards, competition.win_points) == (3, 3)
    assert competition.chain == ["points_difference", "board_points"]
    # a rule the service refuses is shown on the page with the form
    refused = client.post(
        reverse("teams:team_rules", args=[tournament.pk]),
        {"boards": 3, "win_points": 1, "draw_points": 1, "loss_points": 0},
    )
    assert refused.status_code == 200
    assert "A team match won must be worth more than a draw" in refused.content.decode()
    client.post(reverse("teams:team_entry_add", args=[tournament.pk]), {"team": extra.pk})
    assert TeamEntry.objects.filter(tournament=tournament).count() == 3
    removed = division.teams[0]
    client.post(reverse("teams:team_entry_remove", args=[tournament.pk, removed.pk]))
    assert not TeamEntry.objects.filter(tournament=tournament, team=removed).exists()
    # the draw button goes through the site's draw (two teams, a double round robin:
    # two rounds, the default length each)
    html = page(client, "web:tournament_detail", tournament.pk)
    lengths = re.search(r'name="lengths" value="([^"]*)"', html)
    assert lengths is not None
    assert lengths.group(1) == "3,3"
    drawn = client.post(
        reverse("web:tournament_bracket_generate", args=[tournament.pk]),
        {"lengths": lengths.group(1), "draw_seed": ""},
    )
    assert drawn.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status != TournamentStatus.DRAFT
    assert TeamMatch.objects.filter(tournament=tournament).count() == 2  # double round robin


def test_the_team_forms_are_organisers_only(client: Client) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, draw=False)
    client.force_login(UserFactory.create())
    words = text(page(english(client), "web:tournament_detail", division.tournament.pk))
    assert "Team rules" not in words
    response = client.post(
        reverse("teams:team_rules", args=[division.tournament.pk]),
        {"boards": 2, "win_points": 2, "draw_points": 1, "loss_points": 0},
    )
    assert response.status_code == 403
    assert TeamCompetition.objects.get(tournament=division.tournament).boards == 4


def test_a_team_swiss_organiser_pairs_the_next_round(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(
        season=season_make(), name="Swiss", teams=4, boards=1, fmt="team_swiss", swiss_rounds=2
    )
    tournament = division.tournament
    rng = random.Random(5)
    for team_match in TeamMatch.objects.filter(tournament=tournament).select_related(
        "home", "away", "tournament"
    ):
        with django_capture_on_commit_callbacks(execute=True):
            _give(division, team_match, True)
            _give(division, team_match, False)
        for board in TeamBoard.objects.filter(team_match=team_match, match__isnull=False):
            assert board.match is not None
            with django_capture_on_commit_callbacks(execute=True):
                play_board(division, board.match, rng, "referee")
    client.force_login(division.organiser)
    words = text(page(english(client), "web:tournament_detail", tournament.pk))
    assert "Pair the next round" in words
    client.post(reverse("teams:team_round_pair", args=[tournament.pk, 2]))
    assert TeamMatch.objects.filter(tournament=tournament, round__number=2).count() == 2
    anonymous = text(page(english(Client()), "web:tournament_detail", tournament.pk))
    assert "Pair the next round" not in anonymous


# --- the team match page ------------------------------------------------------------------


def test_a_line_up_is_hidden_from_the_other_captain_until_both_are_in(client: Client) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2)
    team_match = _first(division)
    assert team_match.away is not None
    home_names = [p.name for p in _roster(team_match, True)[:2]]
    _give(division, team_match, True)
    url = "teams:team_match"
    home_captain = Client()
    home_captain.force_login(division.captains[team_match.home_id])
    mine = text(page(english(home_captain), url, team_match.pk))
    assert home_names[0] in mine
    away_captain = Client()
    away_captain.force_login(division.captains[team_match.away.pk])
    theirs = text(page(english(away_captain), url, team_match.pk))
    assert home_names[0] not in theirs
    assert "The line-up is in; it is shown when both are in" in theirs
    anonymous = text(page(english(client), url, team_match.pk))
    assert home_names[0] not in anonymous
    # the away captain has a form for their own team only
    assert f"Line-up of {team_match.away.name}" in theirs
    assert f"Line-up of {team_match.home.name}" not in theirs
    assert "Close the line-ups" not in theirs


def test_a_captain_gives_the_line_up_on_the_page_and_the_boards_are_shown(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2)
    team_match = _first(division)
    assert team_match.away is not None
    _give(division, team_match, True)
    away = _roster(team_match, False)
    captain = Client()
    captain.force_login(division.captains[team_match.away.pk])
    prefix = f"team{team_match.away.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        response = captain.post(
            reverse("teams:line_up_give", args=[team_match.pk, team_match.away.pk]),
            {f"{prefix}-board_1": away[2].pk, f"{prefix}-board_2": ""},  # a reserve, nobody
        )
    assert response.status_code == 302
    team_match.refresh_from_db()
    assert team_match.boards_made
    html = page(english(client), "teams:team_match", team_match.pk)
    words = text(html)
    assert away[2].name in words
    assert "nobody" in words
    boards = TeamBoard.objects.filter(team_match=team_match).order_by("board")
    first = boards[0].match
    assert first is not None
    assert reverse("web:match_detail", args=[first.pk]) in html
    assert "walkover" in words  # board 2: the home team's player has it
    # a captain cannot give the other team's line-up
    other = Client()
    other.force_login(division.captains[team_match.home_id])
    refused = other.post(
        reverse("teams:line_up_give", args=[team_match.pk, team_match.away.pk]), {}
    )
    assert refused.status_code == 403


def test_a_player_of_another_team_is_refused_on_the_form(client: Client) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=1)
    team_match = _first(division)
    stranger = _roster(team_match, False)[0]
    captain = Client()
    captain.force_login(division.captains[team_match.home_id])
    prefix = f"team{team_match.home_id}"
    response = english(captain).post(
        reverse("teams:line_up_give", args=[team_match.pk, team_match.home_id]),
        {f"{prefix}-board_1": stranger.pk},
    )
    assert response.status_code == 200  # the form again, with its error
    assert "Select a valid choice" in response.content.decode()
    assert not team_match.places.exists()


def test_organisers_close_the_line_ups(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=2)
    team_match = _first(division)
    client.force_login(division.organiser)
    words = text(page(english(client), "teams:team_match", team_match.pk))
    assert "Close the line-ups" in words
    assert words.count("Give the line-up") == 2
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("teams:line_ups_close", args=[team_match.pk]))
    team_match.refresh_from_db()
    assert team_match.boards_made
    assert "Close the line-ups" not in text(page(client, "teams:team_match", team_match.pk))


def test_the_team_match_page_says_decided_early(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=3)
    team_match = _first(division)
    with django_capture_on_commit_callbacks(execute=True):
        _give(division, team_match, True)
        _give(division, team_match, False)
    rng = random.Random(1)
    boards = list(TeamBoard.objects.filter(team_match=team_match).order_by("board"))
    for board in boards:
        team_match.refresh_from_db()
        if team_match.result:
            break
        assert board.match is not None
        with django_capture_on_commit_callbacks(execute=True):
            play_board(division, board.match, rng, "referee")
    team_match.refresh_from_db()
    assert team_match.decided_early  # two boards of three won by one team
    words = text(page(english(client), "teams:team_match", team_match.pk))
    assert "decided early" in words


def test_a_hidden_team_match_of_a_private_tournament_is_absent(client: Client) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=1)
    division.tournament.is_public = False
    division.tournament.save(update_fields=["is_public"])
    team_match = _first(division)
    assert client.get(reverse("teams:team_match", args=[team_match.pk])).status_code == 404


# --- a team's page ------------------------------------------------------------------------


def test_a_teams_page_lists_its_fixtures_and_results(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=3, boards=2, double=False)
    played = _played(division, django_capture_on_commit_callbacks)
    html = page(english(client), "teams:team_detail", played.home_id)
    words = text(html)
    assert "Team matches" in words
    assert division.tournament.name in words
    assert reverse("teams:team_match", args=[played.pk]) in html
    assert f"{played.home_boards}–{played.away_boards}" in words
    fixtures = TeamMatch.objects.filter(tournament=division.tournament, home_id=played.home_id)
    fixtures = fixtures | TeamMatch.objects.filter(
        tournament=division.tournament, away_id=played.home_id
    )
    for fixture in fixtures:
        assert reverse("teams:team_match", args=[fixture.pk]) in html


def test_a_boards_match_page_opens_and_names_its_round(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """A team match round is numbered (it sits in no bracket): its name once looped."""
    division = division_make(season=season_make(), name="Div", teams=2, boards=1)
    team_match = _first(division)
    with django_capture_on_commit_callbacks(execute=True):
        _give(division, team_match, True)
        _give(division, team_match, False)
    board = TeamBoard.objects.get(team_match=team_match)
    assert board.match is not None
    assert board.match.round.name == "Round 1"
    words = text(page(english(client), "web:match_detail", board.match.pk))
    assert "Round 1" in words
