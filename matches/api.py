"""REST API for matches: detail, result entry and correction, walkover, reset and
game-record submissions. Thin: selectors read (404 for what you cannot see),
services write (403 for what your role may not do, 409 for conflicts)."""

from __future__ import annotations

from typing import Any

import django_filters
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from matches import selectors, services
from matches.errors import NotFoundError, PermissionDeniedError, ValidationError
from matches.models import Game, Match, MatchState, OutcomeChoice, PatternChoice, SideChoice
from matches.serializers import (
    GameOut,
    GameResultOut,
    MatchDetailOut,
    MatchOut,
    SubmissionDetailOut,
    SubmissionOut,
)
from tournaments.api_base import ApiView, filtered, paginate
from tournaments.models import Player
from tournaments.permissions import can_read_records


class MatchFilter(django_filters.FilterSet):
    # A plain number, not a choice of tournaments: a choice filter would answer 400 for
    # ids that do not exist and 200 for private ones, which reveals which ids exist.
    tournament = django_filters.NumberFilter(field_name="tournament_id")
    round = django_filters.NumberFilter(field_name="round__number")
    state = django_filters.ChoiceFilter(choices=MatchState.choices)
    player = django_filters.NumberFilter(method="filter_player")
    flagged = django_filters.BooleanFilter(method="filter_flagged")

    class Meta:
        model = Match
        fields = ("tournament", "round", "state", "is_third_place")

    def filter_player(self, queryset: Any, name: str, value: int) -> Any:
        from django.db.models import Q

        return queryset.filter(Q(player1_id=value) | Q(player2_id=value))

    def filter_flagged(self, queryset: Any, name: str, value: bool) -> Any:
        return queryset.exclude(flag="") if value else queryset.filter(flag="")


class MatchListApi(ApiView):
    @extend_schema(responses=MatchOut(many=True))
    def get(self, request: Request) -> Response:
        qs = filtered(MatchFilter, request, selectors.match_list(by=request.user))
        return paginate(self, qs, MatchOut)


class MatchDetailApi(ApiView):
    @extend_schema(responses=MatchDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        lang = request.query_params.get("lang", "sv")
        if lang not in ("sv", "en"):
            raise ValidationError("lang must be sv or en.")
        detail = selectors.match_detail(match=match, by=request.user, lang=lang)
        return Response(MatchDetailOut(detail).data)


class ResultInput(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(
        SideChoice.choices, required=False, help_text="W = player1, B = player2"
    )
    winner_player = serializers.IntegerField(
        required=False, help_text="the winner's player id, instead of winner"
    )
    outcome = serializers.ChoiceField(OutcomeChoice.choices)
    pattern = serializers.ChoiceField(PatternChoice.choices, required=False, allow_null=True)
    munk = serializers.BooleanField(default=False)
    note = serializers.CharField(max_length=500, required=False, default="")


def _winner_side(match: Match, data: dict[str, Any]) -> str:
    if data.get("winner"):
        return str(data["winner"])
    player = data.get("winner_player")
    if player is None:
        raise ValidationError("Say who won: winner (W or B) or winner_player (a player id).")
    if player == match.player1_id:
        return "W"
    if player == match.player2_id:
        return "B"
    raise ValidationError(f"Player #{player} does not play in this match.")


class GameListApi(ApiView):
    class GameListInput(ResultInput):
        number = serializers.IntegerField(min_value=1, help_text="the game being entered")
        starter = serializers.ChoiceField(
            SideChoice.choices, required=False, allow_null=True, help_text="game 1 only (tek)"
        )

    @extend_schema(responses=GameOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        games = selectors.game_list(match=match)
        return Response(GameOut(games, many=True, context={"match": match}).data)

    @extend_schema(request=GameListInput, responses={201: GameOut})
    def post(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.GameListInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = services.game_result_enter(
            match=match,
            number=v["number"],
            winner=_winner_side(match, v),
            outcome=v["outcome"],
            pattern=v.get("pattern"),
            munk=v["munk"],
            starter=v.get("starter"),
            note=v["note"],
            by=request.user,
        )
        return Response(
            GameOut(game, context={"match": match}).data, status=status.HTTP_201_CREATED
        )


def _game(match: Match, number: int) -> Game:
    game = match.games.filter(number=number, voided_at__isnull=True).first()
    if game is None:
        raise NotFoundError(f"Game {number} of this match has not been entered.")
    return game


class GameDetailApi(ApiView):
    @extend_schema(responses=GameOut)
    def get(self, request: Request, pk: int, number: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        return Response(GameOut(_game(match, number), context={"match": match}).data)

    @extend_schema(request=ResultInput, responses=GameOut, summary="Correct a game's result")
    def put(self, request: Request, pk: int, number: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        game = _game(match, number)
        data = ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = services.game_result_correct(
            game=game,
            winner=_winner_side(match, v),
            outcome=v["outcome"],
            pattern=v.get("pattern"),
            munk=v["munk"],
            note=v["note"],
            by=request.user,
        )
        match.refresh_from_db()
        return Response(GameOut(game, context={"match": match}).data)


class GameVersionsApi(ApiView):
    @extend_schema(responses=GameResultOut(many=True))
    def get(self, request: Request, pk: int, number: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        if not can_read_records(request.user, match):
            raise PermissionDeniedError(
                "Result versions are shown to the match's players, referees and organisers."
            )
        game = _game(match, number)
        versions = game.results.select_related("entered_by").order_by("version")
        return Response(GameResultOut(versions, many=True).data)


class MatchWalkoverApi(ApiView):
    class MatchWalkoverInput(serializers.Serializer[Any]):
        winner_player = serializers.IntegerField()
        reason = serializers.CharField(max_length=500, required=False, default="")

    @extend_schema(request=MatchWalkoverInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchWalkoverInput(data=request.data)
        data.is_valid(raise_exception=True)
        winner = Player.objects.filter(pk=data.validated_data["winner_player"]).first()
        if winner is None:
            raise ValidationError("No such player.")
        match = services.match_walkover(
            match=match, winner=winner, by=request.user, reason=data.validated_data["reason"]
        )
        return Response(MatchOut(selectors.match_get(pk=match.pk, by=request.user)).data)


class MatchResetApi(ApiView):
    class MatchResetInput(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=500)

    @extend_schema(request=MatchResetInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchResetInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_reset(match=match, by=request.user, reason=data.validated_data["reason"])
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


class MatchFlagClearApi(ApiView):
    class MatchFlagClearInput(serializers.Serializer[Any]):
        note = serializers.CharField(max_length=500, required=False, default="")

    @extend_schema(request=MatchFlagClearInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchFlagClearInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_flag_clear(match=match, by=request.user, note=data.validated_data["note"])
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


class RecordListApi(ApiView):
    """Submit a game record as JSON ``{"text": "…"}`` or as a multipart ``file``."""

    parser_classes = (JSONParser, MultiPartParser, FormParser)

    class RecordListInput(serializers.Serializer[Any]):
        text = serializers.CharField(required=False, trim_whitespace=False)
        file = serializers.FileField(required=False)

    @extend_schema(responses=SubmissionOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        if not can_read_records(request.user, match):
            raise PermissionDeniedError(
                "Game records are shown to the match's players, referees and organisers."
            )
        return paginate(self, selectors.submission_list(match=match), SubmissionOut)

    @extend_schema(request=RecordListInput, responses={202: SubmissionDetailOut})
    def post(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.RecordListInput(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data.get("file")
        text: str | bytes | None = data.validated_data.get("text")
        if upload is not None:
            if upload.size > services.RECORD_MAX_BYTES:
                raise ValidationError(
                    f"The file is {upload.size:,} bytes; the limit is 1 MB "
                    f"({services.RECORD_MAX_BYTES:,} bytes)."
                )
            text = upload.read()
        if not text:
            raise ValidationError("Send the record as text (JSON field 'text') or as a 'file'.")
        sub = services.game_record_submit(match=match, text=text, by=request.user)
        sub.refresh_from_db()
        return Response(SubmissionDetailOut(sub).data, status=status.HTTP_202_ACCEPTED)


class RecordDetailApi(ApiView):
    @extend_schema(responses=SubmissionDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(SubmissionDetailOut(selectors.submission_get(pk=pk, by=request.user)).data)
