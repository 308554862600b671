"""REST API for ratings, seeding by rating and club seasons.

One class per operation, as ``tournaments.api``; reads through selectors (ratings come
from public tournaments only; a player the caller may not see is a 404), writes through
services (which check the role: 403). Decimals (ratings) are strings with a decimal
point, as the rest of the API gives them.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import rating_selectors, season_selectors, season_services
from clubs.models import RATING_DIGITS, EventKind, RatedGame, Season, SeasonEvent
from clubs.rating_formulas import formula_view
from clubs.rating_services import (
    can_choose_club_formula,
    club_rating_formula_set,
    entries_seed_by_rating,
    rating_starts_import,
)
from clubs.results_import import season_results_import
from core.bounds import DbIdField, DbIntegerField, parse_db_id
from core.errors import NotFoundError, ValidationError
from matches.models import Match
from matches.selectors import match_get
from ratings.formulas import DEFAULT_FORMULA, formula_keys
from tournaments import selectors as tournaments_sel
from tournaments.api_base import ApiView, Pagination, paginate
from tournaments.models import Club
from tournaments.serializers import ClubOut, EntryOut, PlayerBrief

GAME_PARAM = OpenApiParameter(
    "game", str, enum=RatedGame.values, description="the rated game (default brade)"
)


FORMULA_PARAM = OpenApiParameter(
    "formula",
    str,
    enum=list(formula_keys()),
    description="the rating formula of the list: fibs (the default) or danish (the Danish "
    "Backgammon Federation's); a formula no club's list uses is not kept (400)",
)


def rated_formula(value: str | None, *, default: str = DEFAULT_FORMULA) -> str:
    """The formula a read asks for (``default`` when not given); 400 for one whose
    ratings are not kept (``rating_selectors.kept_formulas``)."""
    formula = value or default
    kept = rating_selectors.kept_formulas()
    if formula not in kept:
        raise ValidationError(
            _("No rating list is kept by the formula “%(formula)s”; kept: %(formulas)s.")
            % {"formula": formula, "formulas": ", ".join(kept)},
            code="unknown_formula",
        )
    return formula


def rated_game(value: str | None) -> str:
    game = value or RatedGame.BRADE
    if game not in RatedGame.values:
        raise ValidationError(
            _("There are no ratings for “%(game)s”; rated games: %(games)s.")
            % {"game": game, "games": ", ".join(RatedGame.values)},
            code="unknown_game",
        )
    return game


# --- shapes ----------------------------------------------------------------------------


class PlayerWithClubOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubOut(allow_null=True)


class RatingRowOut(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="place in this list (1 = highest rating)")
    player = PlayerWithClubOut()
    game = serializers.CharField()
    formula = serializers.CharField(help_text="the list's rating formula: fibs or danish")
    rating = serializers.DecimalField(max_digits=8, decimal_places=2)
    experience = serializers.IntegerField(help_text="sum of the lengths of the rated matches")
    matches = serializers.IntegerField(help_text="rated matches")


class PlayerRatingOut(serializers.Serializer[Any]):
    game = serializers.CharField()
    rating = serializers.DecimalField(max_digits=8, decimal_places=2)
    experience = serializers.IntegerField()
    matches = serializers.IntegerField()


class RatingEntryOut(serializers.Serializer[Any]):
    match = serializers.IntegerField(source="match_id")
    formula = serializers.CharField()
    tournament = serializers.IntegerField(source="match.tournament_id")
    opponent = PlayerBrief()
    won = serializers.BooleanField()
    before = serializers.DecimalField(max_digits=8, decimal_places=2)
    after = serializers.DecimalField(max_digits=8, decimal_places=2)
    change = serializers.DecimalField(max_digits=8, decimal_places=2)
    experience = serializers.IntegerField(
        help_text="before the match (FIBS's K came from it; the Danish formula does not use it)"
    )
    length = serializers.IntegerField(help_text="the n the match was rated with")
    ended_at = serializers.DateTimeField()


class MatchRatingSideOut(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    before = serializers.DecimalField(max_digits=8, decimal_places=2)
    after = serializers.DecimalField(max_digits=8, decimal_places=2)
    change = serializers.DecimalField(max_digits=8, decimal_places=2)


class MatchRatingOut(serializers.Serializer[Any]):
    rated = serializers.BooleanField()
    game = serializers.CharField(allow_null=True)
    formula = serializers.CharField()
    player1 = MatchRatingSideOut(allow_null=True)
    player2 = MatchRatingSideOut(allow_null=True)


class PointsOut(serializers.Serializer[Any]):
    taking_part = serializers.IntegerField()
    match_won = serializers.IntegerField()
    placings = serializers.DictField(child=serializers.IntegerField(), help_text="place → points")


class SeasonOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = ClubOut()
    start_date = serializers.DateField()
    end_date = serializers.DateField()


class SeasonEventOut(serializers.Serializer[Any]):
    name = serializers.CharField()
    date = serializers.DateField()
    kind = serializers.ChoiceField(choices=EventKind.choices)
    counted = serializers.BooleanField(help_text="false for a private tournament")
    tournament = serializers.IntegerField(allow_null=True, help_text="null: imported from CSV")


class SeasonDetailOut(SeasonOut):
    tournament_points = PointsOut()
    club_night_points = PointsOut()
    events = SeasonEventOut(many=True)


class StandingOut(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = PlayerWithClubOut()
    events = serializers.IntegerField()
    taking_part_points = serializers.IntegerField()
    matches_won = serializers.IntegerField()
    match_points = serializers.IntegerField()
    placing_points = serializers.IntegerField()
    total = serializers.IntegerField()
    head_to_head = serializers.IntegerField(allow_null=True)


def _player(player: Any) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name, "club": player.club}


def _season_detail(season: Season, by: Any) -> dict[str, Any]:
    rules = season_selectors.season_rules(season)

    def points(scheme: Any) -> dict[str, Any]:
        placings = {str(k): v for k, v in sorted(scheme.placings.items())}
        return {
            "taking_part": scheme.taking_part,
            "match_won": scheme.match_won,
            "placings": placings,
        }

    events = [
        {
            "name": e.name,
            "date": e.date,
            "kind": e.kind,
            "counted": e.counted,
            "tournament": e.tournament.pk if e.tournament else None,
        }
        for e in season_selectors.season_events(season=season, by=by)
    ]
    return {
        "id": season.pk,
        "name": season.name,
        "club": season.club,
        "start_date": season.start_date,
        "end_date": season.end_date,
        "tournament_points": points(rules.tournament),
        "club_night_points": points(rules.club_night),
        "events": events,
    }


# --- ratings ---------------------------------------------------------------------------


class RatingListApi(ApiView):
    pagination_class = Pagination

    @extend_schema(
        parameters=[
            GAME_PARAM,
            OpenApiParameter("club", int, description="only the players of this club"),
            FORMULA_PARAM,
        ],
        responses=RatingRowOut(many=True),
    )
    def get(self, request: Request) -> Response:
        """List a game's ratings.

        The rating list of ``game`` (``brade`` by default, or ``backgammon``), highest
        first, of one ``club`` if given; paginated with ``limit`` and ``offset``. Ratings
        are computed over the decided matches of public tournaments (walkovers are not
        rated) by the list's ``formula``: the one asked for, else the club's list's
        (``GET /api/clubs/N/rating-list/``), else FIBS; each row names it. ``rank`` is
        the place in this list. Anyone may read.
        """
        game = rated_game(request.query_params.get("game"))
        club_text = request.query_params.get("club")
        club = parse_db_id(club_text)
        if club_text is not None and club is None:
            raise ValidationError(_("club: give a club's id."), code="invalid")
        formula = rated_formula(
            request.query_params.get("formula"), default=rating_selectors.club_formula(club)
        )
        rows = rating_selectors.rating_list(game=game, club=club, by=request.user, formula=formula)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        start = (paginator.offset or 0) + 1
        data = [
            {
                "rank": start + i,
                "player": _player(r.player),
                "game": r.game,
                "formula": r.formula,
                "rating": r.rating,
                "experience": r.experience,
                "matches": r.matches,
            }
            for i, r in enumerate(page)
        ]
        return paginator.get_paginated_response(RatingRowOut(data, many=True).data)


class PlayerRatingsApi(ApiView):
    @extend_schema(parameters=[FORMULA_PARAM], responses=PlayerRatingOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """Show a player's ratings.

        The player's current rating, experience and number of rated matches by
        ``formula`` (FIBS unless asked) in each game they have a rating in (none before
        their first rated match).
        """
        player = tournaments_sel.player_get(pk=pk, by=request.user)
        formula = rated_formula(request.query_params.get("formula"))
        rows = rating_selectors.player_ratings(player=player, formula=formula)
        return Response(PlayerRatingOut(rows, many=True).data)


class PlayerRatingHistoryApi(ApiView):
    @extend_schema(
        operation_id="players_rating_history",
        parameters=[FORMULA_PARAM],
        responses=RatingEntryOut(many=True),
    )
    def get(self, request: Request, pk: int, game: str) -> Response:
        """List a player's rating history in one game.

        Every rated match of the player in ``game`` by ``formula`` (FIBS unless asked),
        oldest first: the opponent, won or lost, the rating before and after and the
        change, the experience before the match and the length it was rated with.
        """
        player = tournaments_sel.player_get(pk=pk, by=request.user)
        formula = rated_formula(request.query_params.get("formula"))
        entries = rating_selectors.player_history(
            player=player, game=rated_game(game), formula=formula
        )
        return Response(RatingEntryOut(entries, many=True).data)


class MatchRatingApi(ApiView):
    @extend_schema(parameters=[FORMULA_PARAM], responses=MatchRatingOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a match's rating change.

        What the match did to both players' ratings by ``formula`` (FIBS unless asked),
        once it is rated (decided by play in a public tournament); ``rated`` is false
        otherwise.
        """
        match: Match = match_get(pk=pk, by=request.user)
        formula = rated_formula(request.query_params.get("formula"))
        change = rating_selectors.match_rating_change(match=match, formula=formula)
        data: dict[str, Any] = {
            "rated": False,
            "game": None,
            "formula": formula,
            "player1": None,
            "player2": None,
        }
        if change is not None:
            data = {
                "rated": True,
                "game": change.game,
                "formula": formula,
                "player1": change.first,
                "player2": change.second,
            }
        return Response(MatchRatingOut(data).data)


class TournamentSeedByRatingApi(ApiView):
    class SeedByRatingInput(serializers.Serializer[Any]):
        count = DbIntegerField(
            required=False, allow_null=True, min_value=0, help_text="seeds to give (default all)"
        )
        formula = serializers.CharField(
            required=False,
            max_length=16,
            default=DEFAULT_FORMULA,
            help_text="the rating list to seed by: fibs (default) or a kept one (danish)",
        )

    @extend_schema(request=SeedByRatingInput, responses=EntryOut(many=True))
    def post(self, request: Request, pk: int) -> Response:
        """Seed the entries by rating.

        Organisers only, before the draw: the active entries get seeds 1, 2, … by their
        rating in the tournament's game by ``formula`` (FIBS unless a kept one is chosen),
        highest first (``count`` of them, or all); the rest are unseeded. No rating counts
        as 1500; players on the same rating are ordered by a draw from the tournament's
        id, so seeding twice gives the same seeds.
        Then draw as usual (``POST /api/tournaments/N/draw/``).
        """
        tournament = tournaments_sel.tournament_get(pk=pk, by=request.user)
        data = self.SeedByRatingInput(data=request.data)
        data.is_valid(raise_exception=True)
        entries = entries_seed_by_rating(
            tournament=tournament,
            by=request.user,
            count=data.validated_data.get("count"),
            formula=data.validated_data["formula"],
        )
        entries.sort(key=lambda e: (e.seed is None, e.seed or 0, e.pk))
        return Response(EntryOut(entries, many=True, context={"request": request}).data)


class FormulaOut(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="fibs or danish")
    name = serializers.CharField(help_text="in the reader's language")


class ClubRatingListApi(ApiView):
    class ClubRatingListInput(serializers.Serializer[Any]):
        formula = serializers.ChoiceField(
            choices=formula_keys(), help_text="fibs or danish (the Danish federation's)"
        )

    class ClubRatingListOut(serializers.Serializer[Any]):
        club = ClubOut()
        formula = FormulaOut(help_text="the formula the club's rating list uses")
        formulas = FormulaOut(many=True, help_text="the formulas a list may use")
        can_choose = serializers.BooleanField(help_text="the caller may choose the formula")

    def _out(self, request: Request, club: Club) -> Response:
        own = rating_selectors.club_formula(club.pk)
        data = {
            "club": club,
            "formula": formula_view(own),
            "formulas": [formula_view(key) for key in formula_keys()],
            "can_choose": can_choose_club_formula(by=request.user),
        }
        return Response(self.ClubRatingListOut(data).data)

    @extend_schema(operation_id="clubs_rating_list_show", responses=ClubRatingListOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show the formula of a club's rating list.

        FIBS unless the club chose another (the Danish Backgammon Federation's); the
        club's list (``GET /api/ratings/?club=N``) uses it. Anyone may read.
        """
        return self._out(request, _club_or_404(pk))

    @extend_schema(
        operation_id="clubs_rating_list_set",
        request=ClubRatingListInput,
        responses=ClubRatingListOut,
    )
    def put(self, request: Request, pk: int) -> Response:
        """Choose the formula of a club's rating list.

        The clubs' secretaries only (the season keepers; 403 otherwise). A formula no
        club used before is computed at once for every game, from all the rated matches,
        and kept from then on beside FIBS.
        """
        club = _club_or_404(pk)
        data = self.ClubRatingListInput(data=request.data)
        data.is_valid(raise_exception=True)
        club_rating_formula_set(club=club, formula=data.validated_data["formula"], by=request.user)
        return self._out(request, club)


def _club_or_404(pk: int) -> Club:
    club = Club.objects.filter(pk=pk).first()
    if club is None:
        raise NotFoundError(_("There is no club #%(id)s.") % {"id": pk})
    return club


# A starting rating as sent: a number of at most six digits and two decimals (the
# stored rating's ``RATING_DIGITS``), as text or a JSON number.
START_RATING_PATTERN = r"^[0-9]{1,6}(\.[0-9]{1,2})?$"


@extend_schema_field(
    {
        "type": "string",
        "pattern": START_RATING_PATTERN,
        "nullable": True,
        "description": 'the starting rating (e.g. "1612.5"); null removes the player\'s '
        "starting rating",
    }
)
class StartRatingField(serializers.DecimalField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_digits=RATING_DIGITS, decimal_places=2, min_value=0, allow_null=True, **kwargs
        )


class RatingStartInput(serializers.Serializer[Any]):
    player = DbIdField()
    rating = StartRatingField()
    experience = DbIntegerField(
        min_value=0, default=0, help_text="the rated matches the rating stands for"
    )


class RatingStartsApi(ApiView):
    class RatingStartsInput(serializers.Serializer[Any]):
        game = serializers.ChoiceField(choices=RatedGame.choices, default=RatedGame.BRADE)
        note = serializers.CharField(
            max_length=200,
            required=False,
            default="",
            allow_blank=True,
            help_text="where the ratings come from",
        )
        starts = RatingStartInput(many=True)

    class RatingStartsOut(serializers.Serializer[Any]):
        game = serializers.CharField()
        matches = serializers.IntegerField(help_text="rated matches")
        players = serializers.IntegerField(help_text="players with a rating")
        ratings_written = serializers.IntegerField(help_text="current ratings added or changed")

    @extend_schema(request=RatingStartsInput, responses=RatingStartsOut)
    def post(self, request: Request) -> Response:
        """Import starting ratings.

        Keepers of the player register only (403 otherwise). Each player's rating
        brought from elsewhere (another club's list) is where their rating of the game
        starts, instead of 1500 with no experience; ``rating`` null removes it. All or
        nothing, each player once; the game's ratings are recomputed at once.
        """
        data = self.RatingStartsInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        rows = [(s["player"], s["rating"], s["experience"]) for s in given["starts"]]
        summary = rating_starts_import(
            game=given["game"], rows=rows, by=request.user, note=given["note"]
        )
        out = {
            "game": summary.game,
            "matches": summary.matches,
            "players": summary.players,
            "ratings_written": summary.ratings_written,
        }
        return Response(self.RatingStartsOut(out).data)


# --- seasons ---------------------------------------------------------------------------


class SeasonListApi(ApiView):
    pagination_class = Pagination

    class SeasonCreateInput(serializers.Serializer[Any]):
        club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
        name = serializers.CharField(max_length=200)
        start_date = serializers.DateField()
        end_date = serializers.DateField()
        tournament_taking_part = DbIntegerField(min_value=0, default=0)
        tournament_match_won = DbIntegerField(min_value=0, default=0)
        tournament_placings = serializers.DictField(
            child=DbIntegerField(min_value=0), default=dict, help_text="place → points"
        )
        club_night_taking_part = DbIntegerField(min_value=0, default=0)
        club_night_match_won = DbIntegerField(min_value=0, default=0)
        club_night_placings = serializers.DictField(
            child=DbIntegerField(min_value=0), default=dict, help_text="place → points"
        )

    @extend_schema(responses=SeasonOut(many=True))
    def get(self, request: Request) -> Response:
        """List seasons.

        Every club's seasons, newest first; paginated with ``limit`` and ``offset``.
        Anyone may read: a season counts public tournaments only.
        """
        return paginate(self, season_selectors.season_list(), SeasonOut)

    @extend_schema(request=SeasonCreateInput, responses={201: SeasonDetailOut})
    def post(self, request: Request) -> Response:
        """Create a season.

        Season keepers only (superusers, and users given "Can change season" on the
        admin site): a club, a name, the dates and the points rules — per kind of event
        (tournament, club night) points for taking part, per match won and per placing
        (``{"1": 10, …}``).
        """
        data = self.SeasonCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_services.season_create(by=request.user, **data.validated_data)
        return Response(
            SeasonDetailOut(_season_detail(season, request.user)).data,
            status=status.HTTP_201_CREATED,
        )


class SeasonDetailInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=200, required=False)
    start_date = serializers.DateField(required=False)
    end_date = serializers.DateField(required=False)
    tournament_taking_part = DbIntegerField(min_value=0, required=False)
    tournament_match_won = DbIntegerField(min_value=0, required=False)
    tournament_placings = serializers.DictField(
        child=DbIntegerField(min_value=0), required=False, help_text="place → points"
    )
    club_night_taking_part = DbIntegerField(min_value=0, required=False)
    club_night_match_won = DbIntegerField(min_value=0, required=False)
    club_night_placings = serializers.DictField(
        child=DbIntegerField(min_value=0), required=False, help_text="place → points"
    )


class SeasonDetailApi(ApiView):
    @extend_schema(responses=SeasonDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a season: its rules and events.

        The points rules per kind of event and the events by date: the site's
        tournaments (private ones only to who may see them, marked not counted) and the
        events imported from CSV.
        """
        season = season_selectors.season_get(pk=pk)
        return Response(SeasonDetailOut(_season_detail(season, request.user)).data)

    @extend_schema(request=SeasonDetailInput, responses=SeasonDetailOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a season's name, dates or points rules.

        Season keepers only (403 otherwise), as on the season's page. Each field left
        out stays as it is; the points rules are those of creating a season. The
        standings follow at once. 409 if the club has another season of that name.
        """
        season = season_selectors.season_get(pk=pk)
        data = SeasonDetailInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        season = season_services.season_update(
            season=season, by=request.user, **data.validated_data
        )
        return Response(SeasonDetailOut(_season_detail(season, request.user)).data)


class SeasonEventListApi(ApiView):
    class SeasonEventInput(serializers.Serializer[Any]):
        tournament = DbIdField()
        kind = serializers.ChoiceField(choices=EventKind.choices, default=EventKind.TOURNAMENT)

    @extend_schema(request=SeasonEventInput, responses={201: SeasonEventOut})
    def post(self, request: Request, pk: int) -> Response:
        """Add a tournament to a season.

        Season keepers only: the tournament (one the caller may see) counts in the
        season as a tournament or a club night (``kind``). 409 if it is there already.
        """
        season = season_selectors.season_get(pk=pk)
        data = self.SeasonEventInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournaments_sel.tournament_get(
            pk=data.validated_data["tournament"], by=request.user
        )
        event: SeasonEvent = season_services.season_event_add(
            season=season, tournament=tournament, by=request.user, kind=data.validated_data["kind"]
        )
        out = {
            "name": tournament.name,
            "date": tournament.start_date,
            "kind": event.kind,
            "counted": tournament.is_public,
            "tournament": tournament.pk,
        }
        return Response(SeasonEventOut(out).data, status=status.HTTP_201_CREATED)


class SeasonEventDetailApi(ApiView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, tournament: int) -> Response:
        """Remove a tournament from a season.

        Season keepers only (403 otherwise): the tournament no longer counts in the
        season's standings. 404 if it is not in the season (or not one you may see).
        """
        season = season_selectors.season_get(pk=pk)
        season_services.season_event_remove_tournament(
            season=season, tournament_id=tournament, by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonStandingsApi(ApiView):
    @extend_schema(responses=StandingOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List a season's standings.

        The points table, first place first: per player the events taken part in, the
        points for taking part, the matches won and their points, the placing points and
        the total. Ties: most matches won, then head-to-head among the tied players
        (``head_to_head``); players still level share the place (``shared``).
        """
        season = season_selectors.season_get(pk=pk)
        standings = season_selectors.season_standings(season=season)
        rows = [
            {
                "place": line.row.place,
                "shared": line.row.shared,
                "player": _player(line.player),
                "events": line.row.events,
                "taking_part_points": line.row.taking_part_points,
                "matches_won": line.row.matches_won,
                "match_points": line.row.match_points,
                "placing_points": line.row.placing_points,
                "total": line.row.total,
                "head_to_head": line.row.head_to_head,
            }
            for line in standings.lines
        ]
        return Response(StandingOut(rows, many=True).data)


class SeasonImportApi(ApiView):
    class SeasonImportInput(serializers.Serializer[Any]):
        csv = serializers.CharField(
            trim_whitespace=False,
            max_length=2_000_000,
            help_text="the CSV text (header: date, event, player1, player2, winner, …)",
        )

    class SeasonImportOutput(serializers.Serializer[Any]):
        events = serializers.IntegerField()
        matches = serializers.IntegerField()
        players_created = serializers.IntegerField()

    @extend_schema(request=SeasonImportInput, responses={201: SeasonImportOutput})
    def post(self, request: Request, pk: int) -> Response:
        """Import a previous season's results from CSV.

        Season keepers only. One match per row (columns ``date``, ``event``,
        ``player1``, ``player2``, ``winner``; optional ``kind``, ``length``,
        ``walkover``, ``place1``, ``place2``). All or nothing: a 400 with code
        ``import_invalid`` lists every problem by row in ``problems``. Players are
        found by name (any case, Unicode form and spacing), the season's club's first;
        a new name joins the club once, however many imports name it at once.
        """
        season = season_selectors.season_get(pk=pk)
        data = self.SeasonImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        summary = season_results_import(
            season=season, data=data.validated_data["csv"].encode("utf-8"), by=request.user
        )
        out = {
            "events": summary.events,
            "matches": summary.matches,
            "players_created": summary.players_created,
        }
        return Response(self.SeasonImportOutput(out).data, status=status.HTTP_201_CREATED)
