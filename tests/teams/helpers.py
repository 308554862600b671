"""Shared set-up for the teams tests: a club's season with a season keeper, a captain
and players with bräde ratings on the club's list."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from clubs.models import PlayerRating, Season
from clubs.season_services import season_create
from teams.models import Team, TeamMember
from teams.team_services import team_captains_set, team_create
from tests.clubs.test_seasons import keeper
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Club, Player

__all__ = ["Squad", "boards", "keeper", "rate", "squad"]


@dataclass
class Squad:
    club: Club
    season: Season
    team: Team
    keeper: Any
    captain: Any
    players: list[Player]  # of the club, not on any roster yet


def rate(player: Player, rating: str, *, game: str = "brade", formula: str = "fibs") -> None:
    PlayerRating.objects.create(
        game=game, formula=formula, player=player, rating=Decimal(rating), experience=5
    )


def squad(ratings: tuple[str | None, ...] = ("1510", "1620", "1480", "1700")) -> Squad:
    """A club, its 2027 season, a team of it with a captain, and one club player per
    rating given (None: no rating)."""
    club = ClubFactory.create(name="Brädklubben Norr")
    by = keeper()
    season = season_create(
        club=club,
        name="Säsong 2027",
        start_date=datetime.date(2027, 1, 1),
        end_date=datetime.date(2027, 12, 31),
        by=by,
    )
    team = team_create(season=season, name="Lag 1", by=by)
    captain = UserFactory.create(username="kapten")
    team_captains_set(team=team, captains=[captain], by=by)
    players = []
    for i, rating in enumerate(ratings):
        player = PlayerFactory.create(name=f"Spelare {chr(65 + i)}", club=club)
        if rating is not None:
            rate(player, rating)
        players.append(player)
    return Squad(club, season, team, by, captain, players)


def boards(team: Team) -> list[tuple[int, str, bool]]:
    """The roster as stored: (board, player's name, reserve), board 1 first."""
    return [
        (m.board, m.player.name, m.reserve)
        for m in TeamMember.objects.filter(team=team).select_related("player").order_by("board")
    ]
