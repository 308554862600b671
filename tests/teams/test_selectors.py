"""The teams' reads: a roster with its ratings and a season's teams in the same few
queries whatever their size, the players a captain may add, the team a player plays for."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from teams.rosters import roster_player_add
from teams.selectors import addable_players, season_teams, team_of, team_roster
from teams.team_services import team_create
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.teams.helpers import rate, squad

pytestmark = pytest.mark.django_db


def queries(read: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        read()
    return len(ctx.captured_queries)


def test_a_roster_and_a_seasons_teams_are_read_in_as_many_queries_at_any_size() -> None:
    s = squad(("1600", "1500"))
    for player in s.players:
        roster_player_add(team=s.team, player=player, by=s.keeper)
    small = (
        queries(lambda: team_roster(team=s.team)),
        queries(lambda: season_teams(season=s.season)),
    )
    for i in range(12):
        player = PlayerFactory.create(club=s.club)
        rate(player, f"{1400 + i}")
        roster_player_add(team=s.team, player=player, by=s.keeper)
        team_create(season=s.season, name=f"Lag {i + 2}", by=s.keeper)
    large = (
        queries(lambda: team_roster(team=s.team)),
        queries(lambda: season_teams(season=s.season)),
    )
    assert small == large == (4, 1)
    assert len(team_roster(team=s.team)) == 14 and len(season_teams(season=s.season)) == 13


def test_the_players_to_add_are_the_clubs_visible_ones_without_a_team() -> None:
    s = squad()
    a, b, c, _d = s.players
    roster_player_add(team=s.team, player=a, by=s.keeper)
    other = team_create(season=s.season, name="Lag 2", by=s.keeper)
    roster_player_add(team=other, player=b, by=s.keeper)
    EntryFactory.create(tournament=TournamentFactory.create(is_public=False), player=c)
    PlayerFactory.create(name="Annan klubb")
    names = [p.name for p in addable_players(team=s.team, by=s.captain)]
    assert names == ["Spelare D"]
    assert [p.name for p in addable_players(team=s.team, by=s.keeper)] == ["Spelare D"]
    assert team_of(season_id=s.season.pk, player=b) == other
    assert team_of(season_id=s.season.pk, player=c) is None
