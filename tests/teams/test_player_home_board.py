"""A player's home names the team match a board of theirs belongs to and links it, with
the team table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from teams.line_ups import line_ups_close
from teams.models import TeamBoard, TeamMatch
from tests.teams.league_helpers import division_make, season_make

pytestmark = pytest.mark.django_db


def test_a_players_home_names_their_board_and_its_team_match(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Ligan", teams=2, boards=2, double=False)
    tm = TeamMatch.objects.select_related("home", "away", "tournament").get(
        tournament=division.tournament
    )
    with django_capture_on_commit_callbacks(execute=True):
        line_ups_close(team_match=tm, by=division.organiser)
    board = TeamBoard.objects.select_related("match__player2__user").get(team_match=tm, board=2)
    assert board.match is not None and board.match.player2 is not None
    user = board.match.player2.user
    assert user is not None and tm.away is not None
    client = Client(HTTP_ACCEPT_LANGUAGE="sv")
    client.force_login(user)
    html = client.get("/home/").content.decode()
    assert f'href="/team-matches/{tm.pk}/"' in html
    assert f"Bord 2 i {tm.home.name} – {tm.away.name}" in html
    assert f'href="/tournaments/{tm.tournament_id}/#teams-h"' in html
