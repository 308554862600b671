"""What the database holds of the teams' rules by itself, written past the services: one
team of a name (its key) per club and season, a name, one team per player and season,
one player per board, boards from 1."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from teams.models import Team, TeamMember
from teams.team_services import team_create
from tests.factories import PlayerFactory
from tests.teams.helpers import squad

pytestmark = pytest.mark.django_db


def refused(**fields: object) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(**fields)


def test_one_team_of_a_name_per_club_and_season() -> None:
    s = squad()
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(season=s.season, club=s.club, name="LAG 1", name_key="lag 1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(season=s.season, club=s.club, name=" ", name_key="")


def test_one_team_per_player_and_season() -> None:
    s = squad()
    other = team_create(season=s.season, name="Lag 2", by=s.keeper)
    player = s.players[0]
    TeamMember.objects.create(team=s.team, season=s.season, player=player, board=1)
    refused(team=other, season=s.season, player=player, board=1)
    refused(team=s.team, season=s.season, player=player, board=2)


def test_one_player_per_board_and_boards_from_one() -> None:
    s = squad()
    TeamMember.objects.create(team=s.team, season=s.season, player=s.players[0], board=1)
    refused(team=s.team, season=s.season, player=s.players[1], board=1)
    refused(team=s.team, season=s.season, player=PlayerFactory.create(club=s.club), board=0)
