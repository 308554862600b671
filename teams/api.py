"""REST API for teams and their rosters.

One class per operation, as ``clubs.api``: reads through ``teams.selectors`` (teams and
rosters are public), writes through ``teams.team_services`` (season keepers: 403 for
anyone else) and ``teams.rosters`` (the team's captains and the season keepers). Ratings
are strings with a decimal point, as the rest of the API gives them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import season_selectors
from clubs.models import RATING_DIGITS
from core.bounds import DbIdField
from teams import rosters, selectors, team_services
from teams.models import TEAM_NAME_LENGTH, Team
from teams.permissions import can_keep_teams, is_captain
from teams.rosters import ROSTER_MAX
from tournaments import selectors as tournaments_sel
from tournaments.api_base import ApiView
from tournaments.models import DEFAULT_GAME, Club, game_choices
from tournaments.serializers import ClubOut, PlayerBrief, StaffMemberOut, staff_member

# --- shapes ----------------------------------------------------------------------------


class TeamOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    season = serializers.IntegerField(source="season_id")
    club = ClubOut()
    game = serializers.ChoiceField(game_choices(), help_text="the game whose ratings order it")
    boards_by_rating = serializers.BooleanField(
        help_text="true: the boards follow the ratings (each change of the roster sorts them); "
        "false: a captain ordered them"
    )
    players = serializers.IntegerField(help_text="players on the roster")


class RosterLineOut(serializers.Serializer[Any]):
    board = serializers.IntegerField(help_text="1 = the first board; reserves come last")
    player = PlayerBrief()
    club = ClubOut(allow_null=True, help_text="the player's club now")
    reserve = serializers.BooleanField()
    rating = serializers.DecimalField(
        max_digits=RATING_DIGITS,
        decimal_places=2,
        allow_null=True,
        help_text="the rating the boards are sorted by (the club's rating list in the team's "
        "game, else the imported start, else the given rating); null: none, counted as 1500",
    )


class RosterOut(serializers.Serializer[Any]):
    boards_by_rating = serializers.BooleanField()
    roster = RosterLineOut(many=True)


class TeamDetailOut(TeamOut):
    roster = RosterLineOut(many=True)
    captains = StaffMemberOut(many=True)


def _lines(team: Team) -> list[dict[str, Any]]:
    return [
        {
            "board": line.board,
            "player": line.player,
            "club": line.player.club,
            "reserve": line.reserve,
            "rating": line.rating,
        }
        for line in selectors.team_roster(team=team)
    ]


def _roster(team: Team) -> dict[str, Any]:
    fresh = selectors.team_get(pk=team.pk)
    return {"boards_by_rating": fresh.boards_by_rating, "roster": _lines(fresh)}


def _captains(team: Team, by: Any) -> list[dict[str, Any]]:
    """Everyone sees the captains' display names; ids and user names (login identifiers)
    only the season keepers and the team's captains."""
    full = can_keep_teams(by) or is_captain(by, team)
    return [staff_member(user, full=full) for user in selectors.team_captains(team=team)]


def _team_fields(team: Team, *, players: int) -> dict[str, Any]:
    return {
        "id": team.pk,
        "name": team.name,
        "season_id": team.season_id,
        "club": team.club,
        "game": team.game,
        "boards_by_rating": team.boards_by_rating,
        "players": players,
    }


def _team(team: Team, by: Any) -> dict[str, Any]:
    """A team with its roster and captains, read afresh (after a change)."""
    team = selectors.team_get(pk=team.pk)
    lines = _lines(team)
    return {
        **_team_fields(team, players=len(lines)),
        "roster": lines,
        "captains": _captains(team, by),
    }


# --- teams -----------------------------------------------------------------------------


class SeasonTeamListApi(ApiView):
    class TeamCreateInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=TEAM_NAME_LENGTH)
        club = serializers.PrimaryKeyRelatedField(
            queryset=Club.objects.all(),
            required=False,
            allow_null=True,
            default=None,
            help_text="the team's club; left out: the season's",
        )
        game = serializers.ChoiceField(
            game_choices(), default=DEFAULT_GAME, help_text="the game whose ratings order it"
        )

    @extend_schema(responses=TeamOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List a season's teams.

        By club and name, each with its number of players and whether its boards follow
        the ratings. Anyone may read.
        """
        season = season_selectors.season_get(pk=pk)
        teams = [
            _team_fields(line.team, players=line.players)
            for line in selectors.season_teams(season=season)
        ]
        return Response(TeamOut(teams, many=True).data)

    @extend_schema(request=TeamCreateInput, responses={201: TeamDetailOut})
    def post(self, request: Request, pk: int) -> Response:
        """Create a team in a season.

        Season keepers only (403 otherwise): a name (unique per club and season, in any
        case and spacing: 409 ``team_name_taken``), the club (the season's if left out)
        and the game whose ratings order its boards (bräde if left out). The roster starts
        empty, its boards following the ratings.
        """
        season = season_selectors.season_get(pk=pk)
        data = self.TeamCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_create(season=season, by=request.user, **data.validated_data)
        return Response(
            TeamDetailOut(_team(team, request.user)).data,
            status=status.HTTP_201_CREATED,
        )


class TeamDetailApi(ApiView):
    class TeamRenameInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=TEAM_NAME_LENGTH)

    @extend_schema(responses=TeamDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team: its roster in board order and its captains.

        Each board with its player, their club, whether a reserve and the rating the
        boards are sorted by. Anyone may read; the captains' ids and user names are shown
        only to the season keepers and the team's captains.
        """
        team = selectors.team_get(pk=pk)
        return Response(TeamDetailOut(_team(team, request.user)).data)

    @extend_schema(request=TeamRenameInput, responses=TeamDetailOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Rename a team.

        Season keepers only. 409 ``team_name_taken`` if the club has a team of that name
        in the season.
        """
        team = selectors.team_get(pk=pk)
        data = self.TeamRenameInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_rename(
            team=team, name=data.validated_data["name"], by=request.user
        )
        return Response(TeamDetailOut(_team(team, request.user)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        """Delete a team.

        Season keepers only: the team and its roster are gone; its players may join
        another team of the season.
        """
        team = selectors.team_get(pk=pk)
        team_services.team_delete(team=team, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamCaptainsApi(ApiView):
    class CaptainsInput(serializers.Serializer[Any]):
        captains = serializers.PrimaryKeyRelatedField(
            queryset=get_user_model().objects.all(),
            many=True,
            help_text="user ids; the list replaces the team's captains",
        )

    class CaptainsOut(serializers.Serializer[Any]):
        captains = StaffMemberOut(many=True)

    @extend_schema(responses=CaptainsOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team's captains.

        Everyone sees their display names; ids and user names (login identifiers) only
        the season keepers and the team's captains.
        """
        team = selectors.team_get(pk=pk)
        return Response(self.CaptainsOut({"captains": _captains(team, request.user)}).data)

    @extend_schema(request=CaptainsInput, responses=CaptainsOut)
    def put(self, request: Request, pk: int) -> Response:
        """Name a team's captains.

        Season keepers only. The captains (any users) keep the team's roster.
        """
        team = selectors.team_get(pk=pk)
        data = self.CaptainsInput(data=request.data)
        data.is_valid(raise_exception=True)
        team_services.team_captains_set(
            team=team, captains=data.validated_data["captains"], by=request.user
        )
        return Response(self.CaptainsOut({"captains": _captains(team, request.user)}).data)


# --- the roster ------------------------------------------------------------------------


class TeamPlayerListApi(ApiView):
    class PlayerAddInput(serializers.Serializer[Any]):
        player = DbIdField(help_text="a player of the team's club")
        reserve = serializers.BooleanField(default=False)

    @extend_schema(request=PlayerAddInput, responses={201: RosterOut})
    def post(self, request: Request, pk: int) -> Response:
        """Add a player to a team's roster.

        The team's captains and the season keepers (403 otherwise). The player is one of
        the team's club (400 ``player_of_another_club``) and plays for no other team of
        the season (409 ``player_in_a_team``); at most 50 on a roster (400
        ``roster_full``). The player's board: by rating while the boards follow the
        ratings, else after the last regular board (a reserve: after the last reserve).
        """
        team = selectors.team_get(pk=pk)
        data = self.PlayerAddInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = tournaments_sel.player_get(pk=data.validated_data["player"], by=request.user)
        rosters.roster_player_add(
            team=team, player=player, reserve=data.validated_data["reserve"], by=request.user
        )
        return Response(RosterOut(_roster(team)).data, status=status.HTTP_201_CREATED)


class TeamPlayerDetailApi(ApiView):
    class ReserveInput(serializers.Serializer[Any]):
        reserve = serializers.BooleanField(
            help_text="true: the first reserve; false: the last regular board"
        )

    @extend_schema(request=ReserveInput, responses=RosterOut)
    def patch(self, request: Request, pk: int, player: int) -> Response:
        """Mark a player on a roster a reserve, or a regular player.

        The team's captains and the season keepers. A new reserve becomes the first
        reserve, a new regular player the last regular board (sorted again while the
        boards follow the ratings). 404 ``not_on_roster`` for a player not on it.
        """
        team = selectors.team_get(pk=pk)
        data = self.ReserveInput(data=request.data)
        data.is_valid(raise_exception=True)
        found = selectors.roster_player_get(team=team, pk=player)
        rosters.roster_reserve_set(
            team=team, player=found, reserve=data.validated_data["reserve"], by=request.user
        )
        return Response(RosterOut(_roster(team)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, player: int) -> Response:
        """Take a player off a team's roster.

        The team's captains and the season keepers. The boards after theirs move up one.
        """
        team = selectors.team_get(pk=pk)
        found = selectors.roster_player_get(team=team, pk=player)
        rosters.roster_player_remove(team=team, player=found, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamBoardsApi(ApiView):
    class OrderInput(serializers.Serializer[Any]):
        order = serializers.ListField(
            child=DbIdField(),
            max_length=ROSTER_MAX,
            help_text="every player on the roster, by id, board 1 first",
        )
        reserves = serializers.ListField(
            child=DbIdField(),
            max_length=ROSTER_MAX,
            required=False,
            help_text="the reserves' ids (left out: as they are); they come last in the order",
        )

    @extend_schema(responses=RosterOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team's roster in board order.

        Whether the boards follow the ratings, and each board with its player, their club,
        whether a reserve and their rating. Anyone may read.
        """
        team = selectors.team_get(pk=pk)
        return Response(RosterOut(_roster(team)).data)

    @extend_schema(request=OrderInput, responses=RosterOut)
    def put(self, request: Request, pk: int) -> Response:
        """Order a team's boards.

        The team's captains and the season keepers. The whole order at once: every player
        on the roster once and nobody else (400 ``order_not_the_roster``, naming the
        ``missing``, ``unknown`` and ``repeated`` ids), the reserves after the regular
        boards (400 ``reserve_before_regular``). The boards then stop following the
        ratings until they are sorted by rating again.
        """
        team = selectors.team_get(pk=pk)
        data = self.OrderInput(data=request.data)
        data.is_valid(raise_exception=True)
        rosters.roster_order_set(
            team=team,
            order=data.validated_data["order"],
            reserves=data.validated_data.get("reserves"),
            by=request.user,
        )
        return Response(RosterOut(_roster(team)).data)


class TeamBoardsByRatingApi(ApiView):
    @extend_schema(request=None, responses=RosterOut)
    def post(self, request: Request, pk: int) -> Response:
        """Sort a team's boards by rating.

        The team's captains and the season keepers. The regular players by rating, highest
        first, then the reserves; players on the same rating in an order drawn from the
        team, the same each time. From then on every change of the roster sorts again.
        """
        team = selectors.team_get(pk=pk)
        rosters.roster_sort_by_rating(team=team, by=request.user)
        return Response(RosterOut(_roster(team)).data)
