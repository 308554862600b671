"""The big screen of a team stage: its boards by table, the team matches with their board
scores, and the team table, updated as the boards are played."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from teams.models import TeamMatch
from tests.teams.league_helpers import division_make, season_make, team_match_play
from web.views.screen import screen_context

pytestmark = pytest.mark.django_db


def test_the_screen_shows_the_team_matches_and_the_table_as_boards_are_played(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Ligan", teams=2, boards=4, double=False)
    tm = TeamMatch.objects.select_related("tournament").get(tournament=division.tournament)
    kinds = [p.kind for p in screen_context(division.tournament, by=AnonymousUser())["panels"]]
    assert kinds == ["team_table", "team_matches"]  # no boards yet
    team_match_play(division, tm, random.Random(3), django_capture_on_commit_callbacks)
    tm.refresh_from_db()
    panels = screen_context(division.tournament, by=AnonymousUser())["panels"]
    assert [p.kind for p in panels] == ["pairings", "team_table", "team_matches"]
    assert len(panels[0].rows) == 4  # the four boards, by table
    table = panels[1].rows
    assert [row.match_points for row, _team in table] == sorted(
        (row.match_points for row, _team in table), reverse=True
    )
    assert sum(row.board_points for row, _team in table) == 4
    page = Client(HTTP_ACCEPT_LANGUAGE="sv").get(f"/tournaments/{division.tournament.pk}/screen/")
    html = page.content.decode()
    assert "Lagtabell" in html
    assert f'data-team-match="{tm.pk}"' in html
    assert f"{tm.home_boards}–{tm.away_boards}" in html
