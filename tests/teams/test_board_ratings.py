"""A board of a team match counts in the rating list as an individual match does: its
players' ratings change with its result, and a walkover board (nobody came) does not."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.rating_selectors import rating_changes
from matches.models import MatchState
from teams.line_ups import line_up_give
from teams.models import TeamBoard, TeamMatch, TeamMember
from tests.teams.league_helpers import division_make, play_board, season_make

pytestmark = pytest.mark.django_db


def test_a_board_is_rated_as_an_individual_match_and_a_walkover_board_is_not(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Ligan", teams=2, boards=2, double=False)
    tm = TeamMatch.objects.select_related("home", "away", "tournament").get(
        tournament=division.tournament
    )
    assert tm.away is not None
    home = [m.player for m in TeamMember.objects.filter(team=tm.home).order_by("board")]
    away = [m.player for m in TeamMember.objects.filter(team=tm.away).order_by("board")]
    with django_capture_on_commit_callbacks(execute=True):
        line_up_give(team_match=tm, team=tm.home, players=[home[0], None], by=division.organiser)
        line_up_give(team_match=tm, team=tm.away, players=away[:2], by=division.organiser)
    played, empty = (b.match for b in TeamBoard.objects.filter(team_match=tm).order_by("board"))
    assert played is not None and empty is not None and empty.state == MatchState.BYE
    with django_capture_on_commit_callbacks(execute=True):
        play_board(division, played, random.Random(1), "referee")
    played.refresh_from_db()
    assert played.winner_id is not None
    for player in (played.player1, played.player2):
        assert player is not None
        change = rating_changes(player=player, matches=[played.pk]).get(played.pk)
        assert change is not None and change != 0
    assert rating_changes(player=away[1], matches=[empty.pk]) == {}
