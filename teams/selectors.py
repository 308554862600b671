"""Reads for teams: a season's teams, a team, its roster in board order with the ratings
that order it, its captains, and the players a captain may add.

Teams and rosters are public, as a season's standings are. Decision: a roster names its
players to everyone — a team sheet is public in any league, and it tells that the player
plays for the team, nothing of any tournament; a link to a player's own page is given
only to a reader who may see that page (``tournaments.permissions``), as elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Season
from clubs.rating_selectors import club_formula, ratings_for_ordering
from core.errors import NotFoundError
from core.permissions import AuthUser, User
from teams.models import Team, TeamBoard, TeamMember
from tournaments.models import Player
from tournaments.permissions import players_visible_to

__all__ = [
    "RosterLine",
    "TeamLine",
    "addable_players",
    "roster_player_get",
    "season_teams",
    "team_boards_of",
    "team_captains",
    "team_get",
    "team_of",
    "team_roster",
    "visible_player_ids",
]


@dataclass(frozen=True)
class TeamLine:
    """A team as a season's list shows it: with its number of players."""

    team: Team
    players: int


def season_teams(*, season: Season) -> list[TeamLine]:
    """The season's teams by club and name, each with its number of players. One query."""
    rows = (
        Team.objects.filter(season=season)
        .select_related("club", "season__club")
        .annotate(players=Count("members"))
        .order_by("club__name", "name", "pk")
    )
    return [TeamLine(team, team.players) for team in rows]  # type: ignore[attr-defined]


def team_get(*, pk: int) -> Team:
    team = Team.objects.select_related("club", "season__club").filter(pk=pk).first()
    if team is None:
        raise NotFoundError(_("No team #%(id)s.") % {"id": pk}, code="team_not_found")
    return team


@dataclass(frozen=True)
class RosterLine:
    """One board of a roster: the player, whether a reserve, and the rating the boards
    are ordered by (``teams.rosters`` T5; None: no rating, counted as 1500)."""

    board: int
    player: Player
    reserve: bool
    rating: Decimal | None


def team_roster(*, team: Team) -> list[RosterLine]:
    """The roster in board order, with the ratings by which ``roster_sort_by_rating``
    would order it (the club's list's formula, in the team's game). Four queries
    whatever the size: the members with their players and clubs, the club's formula, the
    computed ratings and the imported starts."""
    members = list(
        TeamMember.objects.filter(team=team).select_related("player__club").order_by("board")
    )
    players = [m.player for m in members]
    ratings = ratings_for_ordering(team.game, players, formula=club_formula(team.club_id))
    return [RosterLine(m.board, m.player, m.reserve, ratings.get(m.player_id)) for m in members]


def roster_player_get(*, team: Team, pk: int) -> Player:
    """The player ``pk`` on the team's roster, or ``NotFoundError`` (``not_on_roster``)."""
    member = TeamMember.objects.filter(team=team, player_id=pk).select_related("player").first()
    if member is None:
        raise NotFoundError(
            _("No player #%(id)s on this team's roster.") % {"id": pk}, code="not_on_roster"
        )
    return member.player


def team_of(*, season_id: int, player: Player) -> Team | None:
    """The team ``player`` plays for in the season, or None (``teams.rosters`` T1)."""
    member = (
        TeamMember.objects.filter(season_id=season_id, player=player).select_related("team").first()
    )
    return None if member is None else member.team


def team_captains(*, team: Team) -> list[AuthUser]:
    """The team's captains, with their linked players (their display names), by id."""
    return list(team.captains.select_related("player").order_by("pk"))


def addable_players(*, team: Team, by: User) -> QuerySet[Player]:
    """The players of the team's club that ``by`` may see and no team of the season has
    (``teams.rosters`` T1, T2), by name."""
    taken = TeamMember.objects.filter(season_id=team.season_id).values("player_id")
    return (
        players_visible_to(by)
        .filter(club_id=team.club_id)
        .exclude(pk__in=taken)
        .order_by("name", "pk")
    )


def visible_player_ids(*, players: list[Player], by: User) -> set[int]:
    """Which of ``players`` ``by`` may see (their pages are links). One query."""
    ids = [p.pk for p in players]
    return set(players_visible_to(by).filter(pk__in=ids).values_list("pk", flat=True))


def team_boards_of(match_ids: Sequence[int]) -> dict[int, TeamBoard]:
    """The team match's board each of these matches is (a player's home names the team
    match and links it, and from there the team table), by match id; one query."""
    return {
        board.match_id: board
        for board in TeamBoard.objects.filter(match_id__in=match_ids).select_related(
            "team_match__home", "team_match__away"
        )
        if board.match_id is not None
    }
