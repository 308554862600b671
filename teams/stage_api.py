"""REST API of the team stage (a league's division, a team Swiss), in the style of
``teams.api``: one class per resource, an operation per method, nested shapes.

Reads (anyone who may see the tournament): the team table (JSON, and a CSV file in the
reader's language), the team matches by round, one team match with its boards — before
the boards are made, its line-ups as the line-up rules let the caller see them (a hidden
one says ``hidden`` and names nobody). Writes: a line-up (the team's captains and the
organisers), closing the line-ups (organisers), the team rules and the teams entered
(organisers, while a draft). The rules are the services' (``teams.competitions``,
``teams.line_ups``); their refusals come back as the API's errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_exports import FirstRenderer
from clubs.exports import csv_export
from core.bounds import DbIdField
from core.errors import NotFoundError, ValidationError
from core.http import lang
from stages.league import CHAIN_KEYS
from teams import competitions, line_ups, schedule, selectors, stage_selectors
from teams.models import MAX_BOARDS, Team, TeamEntry, TeamMatch, TeamMember
from teams.tables import team_table
from teams.team_handler import is_team_stage
from teams.team_words import chain_name, table_lines
from tournaments import selectors as tournaments_sel
from tournaments.api_base import ApiView
from tournaments.models import Player, Round, Tournament
from tournaments.serializers import ClubOut, PlayerBrief

WHY_KEYS = ("match_points", *CHAIN_KEYS, "lots")
RESULTS = ("home", "away", "draw")

# --- shapes ----------------------------------------------------------------------------


class TeamBrief(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubOut()


class TeamTableRowOut(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    team = TeamBrief()
    played = serializers.IntegerField(help_text="team matches decided")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    board_points = serializers.IntegerField(help_text="boards won")
    points_for = serializers.IntegerField(help_text="games (bräde) or points won at the boards")
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    tiebreak_for = serializers.IntegerField(help_text="skiljepoäng won (0 in backgammon)")
    tiebreak_against = serializers.IntegerField()
    why = serializers.ChoiceField(
        WHY_KEYS,
        allow_null=True,
        help_text="what put the team above the next one: match points, a tiebreak of the "
        "chain or the drawing of lots; null on the last row",
    )


class MatchPointsOut(serializers.Serializer[Any]):
    win = serializers.IntegerField()
    draw = serializers.IntegerField()
    loss = serializers.IntegerField()


class TeamTableOut(serializers.Serializer[Any]):
    boards = serializers.IntegerField(help_text="boards per team match")
    match_points = MatchPointsOut()
    chain = serializers.ListField(
        child=serializers.ChoiceField(CHAIN_KEYS), help_text="the tiebreaks after match points"
    )
    rows = TeamTableRowOut(many=True)


class TeamMatchOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number", help_text="the round's number")
    number = serializers.IntegerField(help_text="its place in the round, 0 the first")
    home = TeamBrief()
    away = TeamBrief(allow_null=True, help_text="null: the home team's bye (a team Swiss)")
    date = serializers.DateField(allow_null=True, help_text="the day it is played")
    line_up_deadline = serializers.DateTimeField(allow_null=True)
    boards_made = serializers.BooleanField(help_text="the line-ups are closed, the boards made")
    home_boards = serializers.IntegerField(help_text="boards the home team won")
    away_boards = serializers.IntegerField()
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    undecided = serializers.IntegerField(help_text="boards not decided yet")
    result = serializers.ChoiceField(RESULTS, allow_null=True, help_text="null: not decided")
    decided_early = serializers.BooleanField(
        help_text="decided with boards still to play: the other team could not catch up"
    )
    decided_at = serializers.DateTimeField(allow_null=True)


class BoardOut(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    home = PlayerBrief(allow_null=True, help_text="null: nobody came for the home team")
    away = PlayerBrief(allow_null=True)
    match = serializers.IntegerField(allow_null=True, help_text="the board's match; null: none")
    state = serializers.CharField(allow_null=True, help_text="the match's state")
    home_points = serializers.IntegerField(allow_null=True)
    away_points = serializers.IntegerField(allow_null=True)
    winner = serializers.ChoiceField(("home", "away"), allow_null=True)


class LineUpOut(serializers.Serializer[Any]):
    team = serializers.IntegerField()
    given = serializers.BooleanField(help_text="its captain (or an organiser) gave it")
    hidden = serializers.BooleanField(
        help_text="not shown to the caller until both are in or the deadline has passed"
    )
    players = serializers.ListField(
        child=PlayerBrief(allow_null=True), help_text="per board, board 1 first; null: nobody"
    )


class TeamMatchDetailOut(TeamMatchOut):
    boards = BoardOut(many=True, help_text="once the boards are made")
    line_ups = LineUpOut(many=True, help_text="before the boards are made")


class TeamRulesOut(serializers.Serializer[Any]):
    boards = serializers.IntegerField()
    win_points = serializers.IntegerField()
    draw_points = serializers.IntegerField()
    loss_points = serializers.IntegerField()
    chain = serializers.ListField(child=serializers.ChoiceField(CHAIN_KEYS))
    season = serializers.IntegerField(
        source="season_id", allow_null=True, help_text="its teams' season, set by the first"
    )


class TeamEntryOut(serializers.Serializer[Any]):
    number = serializers.IntegerField(allow_null=True, help_text="its number in the draw")
    team = TeamBrief()


# --- reading ---------------------------------------------------------------------------


def _tournament(request: Request, pk: int) -> Tournament:
    """The tournament, played by teams: another has no team table, rules or team matches
    to show or change (404, as a resource that is not there)."""
    tournament = tournaments_sel.tournament_get(pk=pk, by=request.user)
    if not is_team_stage(tournament):
        raise NotFoundError(
            _("This tournament is not played by teams."), code="not_played_by_teams"
        )
    return tournament


def _result(team_match: TeamMatch) -> str | None:
    return team_match.result or None


def _match_fields(team_match: TeamMatch) -> dict[str, Any]:
    return {
        "id": team_match.pk,
        "round": team_match.round,
        "number": team_match.number,
        "home": team_match.home,
        "away": team_match.away,
        "date": team_match.date,
        "line_up_deadline": team_match.line_up_deadline,
        "boards_made": team_match.boards_made,
        "home_boards": team_match.home_boards,
        "away_boards": team_match.away_boards,
        "home_points": team_match.home_points,
        "away_points": team_match.away_points,
        "undecided": team_match.undecided,
        "result": _result(team_match),
        "decided_early": team_match.decided_early,
        "decided_at": team_match.decided_at,
    }


def _board(line: stage_selectors.BoardLine) -> dict[str, Any]:
    match = line.match
    if match is None:
        return {
            "board": line.board,
            "home": None,
            "away": None,
            "match": None,
            "state": None,
            "home_points": None,
            "away_points": None,
            "winner": None,
        }
    home_points, away_points = (
        (match.points1, match.points2) if line.home_first else (match.points2, match.points1)
    )
    winner = None
    if match.winner_id is not None:
        home_id = line.home.pk if line.home is not None else None
        winner = "home" if match.winner_id == home_id else "away"
    return {
        "board": line.board,
        "home": line.home,
        "away": line.away,
        "match": match.pk,
        "state": match.state,
        "home_points": home_points,
        "away_points": away_points,
        "winner": winner,
    }


def _detail(team_match: TeamMatch, by: Any) -> dict[str, Any]:
    view = stage_selectors.team_match_view(team_match=team_match, by=by)
    return {
        **_match_fields(team_match),
        "boards": [_board(b) for b in view.boards],
        "line_ups": [
            {"team": lu.team.pk, "given": lu.given, "hidden": lu.hidden, "players": lu.players}
            for lu in view.line_ups
        ],
    }


def _table(tournament: Tournament) -> dict[str, Any]:
    competition = competitions.competition_of(tournament)
    table = team_table(tournament=tournament)
    rows = [
        {
            "place": r.place,
            "team": table.teams[r.team],
            "played": r.played,
            "won": r.won,
            "drawn": r.drawn,
            "lost": r.lost,
            "match_points": r.match_points,
            "board_points": r.board_points,
            "points_for": r.points_for,
            "points_against": r.points_against,
            "points_difference": r.points_difference,
            "tiebreak_for": r.tiebreak_for,
            "tiebreak_against": r.tiebreak_against,
            "why": r.why,
        }
        for r in table.rows
    ]
    return {
        "boards": competition.boards,
        "match_points": {
            "win": table.points.win,
            "draw": table.points.draw,
            "loss": table.points.loss,
        },
        "chain": list(table.chain),
        "rows": rows,
    }


def _csv_file(
    request: Request, filename: str, titles: Sequence[str], lines: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A team stage's CSV file: ``titles`` (in the reader's language) over ``lines``, a
    cell per title, written as the site's other CSV files (``clubs.exports``)."""
    rows = [dict(zip(titles, line, strict=True)) for line in lines]
    return csv_export(filename, titles, rows, lang=lang(request))


class TeamTableApi(ApiView):
    @extend_schema(responses=TeamTableOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team competition's table.

        The teams by match points, then the competition's chain of tiebreaks, then the
        drawing of lots; each row says what put the team above the next one (``why``).
        Only decided team matches count. Anyone who may see the tournament; 400
        ``team_rules`` for a tournament not played by teams.
        """
        return Response(TeamTableOut(_table(_tournament(request, pk))).data)


class TeamTableCsvApi(ApiView):
    content_negotiation_class = FirstRenderer

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="place, team, club, played, won, drawn, lost, match points, "
                "board points, points won and lost, why above the next",
            )
        }
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """Download a team competition's table as CSV.

        The table's rows in the caller's language (``Accept-Language``), UTF-8 with a
        byte-order mark, ';' between cells, as the site's other CSV files
        (``tournament-N-team-table.csv``).
        """
        tournament = _tournament(request, pk)
        table = team_table(tournament=tournament)
        titles = [
            _("Place"),
            _("Team"),
            _("Club"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            chain_name("match_points"),
            chain_name("board_points"),
            _("Points won"),
            _("Points lost"),
            _("Why this order"),
        ]
        lines = [
            (
                line.row.place,
                line.team.name,
                line.team.club.name,
                line.row.played,
                line.row.won,
                line.row.drawn,
                line.row.lost,
                line.row.match_points,
                line.row.board_points,
                line.row.points_for,
                line.row.points_against,
                line.why,
            )
            for line in table_lines(table.rows, table.teams)
        ]
        return _csv_file(request, f"tournament-{tournament.pk}-team-table.csv", titles, lines)


class TeamFixturesCsvApi(ApiView):
    content_negotiation_class = FirstRenderer

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="round, home, away, the home club (the venue), boards won by "
                "each, the result and whether it was decided early",
            )
        }
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """Download a team competition's fixtures and results as CSV.

        Every team match round by round (a club prints it for its notice board or loads
        it into a calendar), in the caller's language (``Accept-Language``), UTF-8 with a
        byte-order mark, ';' between cells, the file named after the tournament.
        """
        tournament = _tournament(request, pk)
        results = {
            "home": _("home team won"),
            "away": _("away team won"),
            "draw": _("drawn"),
        }
        titles = [
            _("Round"),
            _("Day played"),
            _("Home"),
            _("Away"),
            _("Venue"),
            _("Home boards"),
            _("Away boards"),
            _("Result"),
            _("Decided early"),
        ]
        lines = [
            (
                r.round.number,
                m.date.isoformat() if m.date else "",
                m.home.name,
                m.away.name if m.away else _("bye"),
                m.home.club.name,
                m.home_boards if m.boards_made else "",
                m.away_boards if m.boards_made else "",
                results.get(m.result, ""),
                _("yes") if m.decided_early else "",
            )
            for r in stage_selectors.team_rounds(tournament=tournament)
            for m in r.matches
        ]
        return _csv_file(request, f"tournament-{tournament.pk}-team-matches.csv", titles, lines)


class TeamMatchListApi(ApiView):
    @extend_schema(responses=TeamMatchOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List a team competition's team matches.

        Round by round, each with its home and away team, its board score and whether it
        is decided (and decided early). Anyone who may see the tournament.
        """
        tournament = _tournament(request, pk)
        matches = [
            _match_fields(m)
            for r in stage_selectors.team_rounds(tournament=tournament)
            for m in r.matches
        ]
        return Response(TeamMatchOut(matches, many=True).data)


class TeamMatchDetailApi(ApiView):
    @extend_schema(responses=TeamMatchDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team match with its boards.

        Once the boards are made: each board's players, its match, state and points.
        Before: the two line-ups, each hidden from the other team and the public
        (``hidden``, no players) until both are in or the deadline has passed; a team's
        captains and the organisers see it at once.
        """
        team_match = stage_selectors.team_match_get(pk=pk, by=request.user)
        return Response(TeamMatchDetailOut(_detail(team_match, request.user)).data)


# --- writing ---------------------------------------------------------------------------


class LineUpApi(ApiView):
    class LineUpInput(serializers.Serializer[Any]):
        team = DbIdField(help_text="the home or the away team")
        players = serializers.ListField(
            child=DbIdField(allow_null=True),
            max_length=MAX_BOARDS,
            help_text="a player of the team's roster per board, board 1 first; null: nobody "
            "(a walkover to the other team)",
        )

    @extend_schema(request=LineUpInput, responses=TeamMatchDetailOut)
    def post(self, request: Request, pk: int) -> Response:
        """Give a team's line-up for a team match.

        The team's captains (until the deadline) and the organisers (403 otherwise), while
        the boards are not made (409 ``boards_made``; 409 ``line_up_late`` after the
        deadline). One entry per board, each a player of the team's roster at most once
        (400 ``line_up``). When both line-ups are in, the boards are made at once.
        """
        team_match = stage_selectors.team_match_get(pk=pk, by=request.user)
        data = self.LineUpInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = selectors.team_get(pk=data.validated_data["team"])
        ids = data.validated_data["players"]
        roster = {
            m.player_id: m.player
            for m in TeamMember.objects.filter(team=team).select_related("player")
        }
        strangers = [str(i) for i in ids if i is not None and i not in roster]
        if strangers:
            raise ValidationError(
                _("Not on %(team)s's roster: %(names)s.")
                % {"team": team.name, "names": ", ".join(f"#{s}" for s in strangers)},
                code="line_up",
            )
        players: list[Player | None] = [None if i is None else roster[i] for i in ids]
        line_ups.line_up_give(team_match=team_match, team=team, players=players, by=request.user)
        team_match = stage_selectors.team_match_get(pk=pk, by=request.user)
        return Response(TeamMatchDetailOut(_detail(team_match, request.user)).data)


class LineUpsCloseApi(ApiView):
    @extend_schema(request=None, responses=TeamMatchDetailOut)
    def post(self, request: Request, pk: int) -> Response:
        """Close a team match's line-ups and make its boards.

        Organisers only. A team that gave no line-up plays its roster's first regular
        boards in board order. 409 ``boards_made`` when they are made already.
        """
        team_match = stage_selectors.team_match_get(pk=pk, by=request.user)
        line_ups.line_ups_close(team_match=team_match, by=request.user)
        team_match = stage_selectors.team_match_get(pk=pk, by=request.user)
        return Response(TeamMatchDetailOut(_detail(team_match, request.user)).data)


class TeamRoundScheduleApi(ApiView):
    class ScheduleInput(serializers.Serializer[Any]):
        date = serializers.DateField(allow_null=True, help_text="the day the round is played")
        line_up_deadline = serializers.DateTimeField(
            allow_null=True, help_text="the captains give their line-ups until then"
        )

    @extend_schema(request=ScheduleInput, responses=TeamMatchOut(many=True))
    def patch(self, request: Request, pk: int, number: int) -> Response:
        """Set a round's day and its line-ups' deadline.

        Organisers only (403 otherwise). Both are set on every team match of the round (a
        team match whose boards are made keeps its deadline); either may be null. The
        deadline may not fall after the day's end (400 ``deadline_after_day``).
        """
        tournament = _tournament(request, pk)
        rnd = Round.objects.filter(tournament=tournament, number=number).first()
        if rnd is None:
            raise NotFoundError(_("No round %(number)d.") % {"number": number})
        data = self.ScheduleInput(data=request.data)
        data.is_valid(raise_exception=True)
        matches = schedule.team_round_schedule(
            round=rnd,
            date=data.validated_data.get("date"),
            deadline=data.validated_data.get("line_up_deadline"),
            by=request.user,
        )
        for tm in matches:
            tm.round = rnd
        return Response(TeamMatchOut([_match_fields(m) for m in matches], many=True).data)


class TeamRulesApi(ApiView):
    class RulesInput(serializers.Serializer[Any]):
        boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, required=False)
        win_points = serializers.IntegerField(min_value=0, max_value=100, required=False)
        draw_points = serializers.IntegerField(min_value=0, max_value=100, required=False)
        loss_points = serializers.IntegerField(min_value=0, max_value=100, required=False)
        chain = serializers.ListField(
            child=serializers.ChoiceField(CHAIN_KEYS),
            max_length=len(CHAIN_KEYS),
            required=False,
            help_text="the tiebreaks after match points, in order, each at most once",
        )

    @extend_schema(responses=TeamRulesOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a team competition's rules.

        Its boards per team match, the match points of a team match won, drawn and lost,
        and the tiebreaks after match points. Anyone who may see the tournament.
        """
        competition = competitions.competition_of(_tournament(request, pk))
        return Response(TeamRulesOut(competition).data)

    @extend_schema(request=RulesInput, responses=TeamRulesOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a team competition's rules.

        Organisers only, while a draft. What is left out stays. A win must be worth more
        than a draw, a draw at least a loss (400 ``team_rules``).
        """
        tournament = _tournament(request, pk)
        data = self.RulesInput(data=request.data)
        data.is_valid(raise_exception=True)
        competition = competitions.competition_rules_set(
            tournament=tournament, by=request.user, **data.validated_data
        )
        return Response(TeamRulesOut(competition).data)


def _entries(tournament: Tournament) -> list[TeamEntry]:
    return list(
        TeamEntry.objects.filter(tournament=tournament)
        .select_related("team__club")
        .order_by("number", "id")
    )


class TeamEntryListApi(ApiView):
    class EntryInput(serializers.Serializer[Any]):
        team = DbIdField(help_text="a team of the competition's game and season")

    @extend_schema(responses=TeamEntryOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List the teams entered in a team competition.

        In their order in the draw. Anyone who may see the tournament.
        """
        return Response(TeamEntryOut(_entries(_tournament(request, pk)), many=True).data)

    @extend_schema(request=EntryInput, responses={201: TeamEntryOut(many=True)})
    def post(self, request: Request, pk: int) -> Response:
        """Enter a team in a team competition.

        Organisers only, while a draft. The team plays the tournament's game and is of
        the competition's season (the first team entered sets it): 400 ``team_entry``;
        409 ``team_entered`` when it is in already.
        """
        tournament = _tournament(request, pk)
        data = self.EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        team: Team = selectors.team_get(pk=data.validated_data["team"])
        competitions.team_entry_add(tournament=tournament, team=team, by=request.user)
        return Response(
            TeamEntryOut(_entries(tournament), many=True).data, status=status.HTTP_201_CREATED
        )


class TeamEntryDetailApi(ApiView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, team: int) -> Response:
        """Take a team out of a team competition.

        Organisers only, while a draft; the other teams keep their order. 404
        ``team_not_entered`` for a team not in it.
        """
        tournament = _tournament(request, pk)
        entry = TeamEntry.objects.filter(tournament=tournament, team_id=team).first()
        if entry is None:
            raise NotFoundError(
                _("Team #%(id)s is not entered.") % {"id": team}, code="team_not_entered"
            )
        entry.tournament = tournament
        competitions.team_entry_remove(entry=entry, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
