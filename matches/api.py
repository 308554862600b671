"""REST API for matches: detail, result entry and correction, walkover, reset and
game-record submissions. Thin: selectors read (404 for what you cannot see),
services write (403 for what your role may not do, 409 for conflicts)."""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django.conf import settings
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIdField, DbIntegerField
from core.conditional import Stamp, api_conditional
from core.errors import PermissionDeniedError, ValidationError
from core.http import lang
from core.parsers import JSONObjectParser
from core.permissions import can_read_records
from games.results import ResultValue
from matches import records, results, selectors, tables, venues, walkovers
from matches.models import (
    GAME_TYPES,
    OUTCOMES,
    PATTERNS,
    ConcededChoice,
    Game,
    Match,
    MatchState,
    SideChoice,
)
from matches.result_values import result_value_from
from matches.serializers import (
    GameOut,
    GameResultOut,
    MatchDetailOut,
    MatchOut,
    SubmissionDetailOut,
    SubmissionOut,
)
from tournaments.api_base import (
    STRICT_BOOLEANS,
    ApiView,
    BooleanFilter,
    IdFilter,
    Ordering,
    Pagination,
    filtered,
    paginate,
)
from tournaments.api_examples import (
    GAME_CORRECT_EXAMPLES,
    GAME_ENTER_EXAMPLES,
    IF_MATCH_EXAMPLE,
)
from tournaments.models import Player, Venue
from tournaments.serializers import staff_context


class MatchFilter(django_filters.FilterSet):
    # A plain number, not a choice of tournaments: a choice filter would answer 400 for
    # ids that do not exist and 200 for private ones, which reveals which ids exist.
    tournament = IdFilter(field_name="tournament_id")
    round = IdFilter(field_name="round__number")
    state = django_filters.ChoiceFilter(choices=MatchState.choices)
    player = IdFilter(method="filter_player")
    flagged = BooleanFilter(method="filter_flagged")
    ordering = Ordering(fields=("id", ("round__number", "round"), "state"))

    class Meta:
        model = Match
        fields = ("tournament", "round", "state", "is_third_place")
        filter_overrides = STRICT_BOOLEANS

    def filter_player(self, queryset: Any, name: str, value: int) -> Any:
        from django.db.models import Q

        return queryset.filter(Q(player1_id=value) | Q(player2_id=value))

    def filter_flagged(self, queryset: Any, name: str, value: bool) -> Any:
        return queryset.exclude(flag="") if value else queryset.filter(flag="")


class MatchListApi(ApiView):
    pagination_class = Pagination
    filterset_class = MatchFilter

    @extend_schema(responses=MatchOut(many=True))
    def get(self, request: Request) -> Response:
        """List matches.

        Matches of the tournaments you may see, filtered by ``tournament`` (id), ``round``
        (number), ``state``, ``player`` (id), ``flagged`` and ``is_third_place``;
        paginated.
        """
        qs = filtered(self.filterset_class, request, selectors.match_list(by=request.user))
        return paginate(self, qs, MatchOut)


class MatchDetailApi(ApiView):
    @extend_schema(responses=MatchDetailOut)
    @api_conditional("api-match", selectors.match_stamp)
    def get(self, request: Request, pk: int, *, stamp: Stamp | None = None) -> Response:
        """Show one match with its games, its events and why it stands as it does.

        ``explanation`` is in the request's language, like every message of the API
        (``Accept-Language``, English by default); ``lang=sv``, ``lang=en`` or ``lang=da``
        overrides it.
        Answers ``If-None-Match`` with 304 while the match is unchanged (``ETag``: the
        match's own version, so entries in other matches leave it as it is).
        """
        match = selectors.match_get(pk=pk, by=request.user)
        language = request.query_params.get("lang")
        if language is None:
            language = lang(request)
        codes = [code for code, _name in settings.LANGUAGES]
        if language not in codes:
            raise ValidationError(
                _("lang must be one of %(languages)s.") % {"languages": ", ".join(codes)},
                code="unknown_language",
            )
        detail = selectors.match_detail(match=match, by=request.user, lang=language)
        return Response(
            MatchDetailOut(detail, context=staff_context(request.user, match.tournament)).data
        )


class ResultInput(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(
        SideChoice.choices, required=False, help_text="W = player1, B = player2"
    )
    winner_player = DbIdField(required=False, help_text="the winner's player id, instead of winner")
    outcome = serializers.ChoiceField(
        OUTCOMES, help_text="how the game was won: a code of the tournament's game"
    )
    pattern = serializers.ChoiceField(PATTERNS, required=False, allow_null=True, help_text="bräde")
    munk = serializers.BooleanField(default=False, help_text="bräde")
    cube = DbIntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="backgammon: the cube's value (a drop: before the refused double)",
    )
    conceded = serializers.ChoiceField(
        ConcededChoice.choices,
        required=False,
        allow_null=True,
        help_text="backgammon: what a resignation conceded",
    )
    game_type = serializers.ChoiceField(
        GAME_TYPES, required=False, allow_null=True, help_text="Kungabräde: the game type"
    )
    note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


def _winner_side(match: Match, data: dict[str, Any]) -> str:
    if data.get("winner"):
        return str(data["winner"])
    player = data.get("winner_player")
    if player is None:
        raise ValidationError(
            _("Say who won: winner (W or B) or winner_player (a player id)."), code="no_winner"
        )
    if player == match.player1_id:
        return "W"
    if player == match.player2_id:
        return "B"
    raise ValidationError(
        _("Player #%(player)s does not play in this match.") % {"player": player},
        code="not_in_match",
    )


def result_input(match: Match, data: dict[str, Any]) -> ResultValue:
    """The result of a validated ``ResultInput`` as the services take it (the winner named
    by its side or its player; each game's own fields, its family refusing the others)."""
    return result_value_from({**data, "winner": _winner_side(match, data)})


class GameListApi(ApiView):
    class GameListInput(ResultInput):
        number = DbIntegerField(min_value=1, help_text="the game being entered")
        starter = serializers.ChoiceField(
            SideChoice.choices, required=False, allow_null=True, help_text="game 1 only (tek)"
        )

    @extend_schema(responses=GameOut(many=True))
    @api_conditional("api-games", selectors.match_stamp)
    def get(self, request: Request, pk: int, *, stamp: Stamp | None = None) -> Response:
        """List a match's games, each with its result version and ``etag``.

        The list itself answers ``If-None-Match`` with 304 while the match is unchanged."""
        match = selectors.match_get(pk=pk, by=request.user)
        games = selectors.game_list(match=match)
        return Response(GameOut(games, many=True, context={"match": match}).data)

    @extend_schema(request=GameListInput, responses={201: GameOut}, examples=GAME_ENTER_EXAMPLES)
    def post(self, request: Request, pk: int) -> Response:
        """Enter the result of the next game of a match.

        The match's referees and the tournament's organisers. Games are entered in order
        (``number``); ``starter`` (tek) only for game 1, later games are started by the
        previous game's loser (R2). 201 with the game; the match is scored at once and a
        decided match sends its winner on. 409 when the game exists already (code
        ``game_exists``) or the match was decided before this game (code
        ``match_decided``), with the current state of the match.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.GameListInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = results.game_result_enter(
            match=match,
            number=v["number"],
            result=result_input(match, v),
            starter=v.get("starter"),
            by=request.user,
            note=v["note"],
        )
        return Response(
            GameOut(game, context={"match": match}).data, status=status.HTTP_201_CREATED
        )


def _game(match: Match, number: int) -> Game:
    return selectors.game_get(match=match, number=number)


# A game's ETag; the quotes may be left out (``game-12-v2``, as people type it by hand).
_ETAG = re.compile(r'"game-(\d+)-v(\d+)"|game-(\d+)-v(\d+)')

ETAG_HEADER = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200],
    description='The game\'s current result version, e.g. "game-12-v2"; send it back in '
    "If-Match to correct that version.",
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the game (from its GET, or 'etag' in the game lists) whose "
    "result this correction replaces. A correction must name its version: this header or "
    "'version' in the body; without either the answer is 428. A version that is no longer "
    "the confirmed one (someone corrected the game meanwhile) gets 409 with the current "
    "result. The quotes may be left out (game-12-v2). '*' names no version.",
    examples=[IF_MATCH_EXAMPLE],
)


def _expected_version(request: Request, game: Game, body_version: int | None) -> int | None:
    """The version a correction names: from ``If-Match`` or the body's ``version``.

    Decisions: ``If-Match`` must hold one entity tag (a list is a 400: a correction
    replaces one version); the tag may come without its quotes (``game-12-v2``: people
    type it so, and it names the version as plainly); ``*`` names no version (so 428
    unless the body names one);
    a tag that is not this game's current form (weak, another game's — one voided by a
    reset —, or garbage) names version 0, which never matches, so it gets the 409 with
    the current result, as a failed If-Match should. Both given and different: 400.
    Stale tags answer 409 (with the current result, like every conflict here) rather
    than HTTP's 412, so clients handle one status for "someone was first"."""
    header = request.headers.get("If-Match")
    named: int | None = None
    if header is not None:
        tags = [tag.strip() for tag in header.split(",") if tag.strip()]
        if len(tags) > 1:
            raise ValidationError(
                _("If-Match must hold one ETag: the version being corrected."),
                code="if_match_many",
            )
        if tags and tags[0] != "*":
            found = _ETAG.fullmatch(tags[0])
            game_id, version = (found[1] or found[3], found[2] or found[4]) if found else ("", "")
            named = int(version) if found and int(game_id) == game.pk else 0
    if named is not None and body_version is not None and named != body_version:
        raise ValidationError(
            _("If-Match and 'version' name different versions; send one."),
            code="version_mismatch",
        )
    return named if named is not None else body_version


class GameDetailApi(ApiView):
    """A game: GET shows it with its ``ETag``; PUT corrects its result and must name the
    version it corrects (``If-Match`` or ``version``), so no correction is lost."""

    class GameCorrectInput(ResultInput):
        version = DbIntegerField(
            min_value=1,
            required=False,
            help_text="the version being corrected ('version' from GET), for clients that "
            "cannot send If-Match",
        )

    @extend_schema(responses=GameOut, parameters=[ETAG_HEADER])
    def get(self, request: Request, pk: int, number: int) -> Response:
        """Show one game, with its ``ETag`` for a correction."""
        match = selectors.match_get(pk=pk, by=request.user)
        out = GameOut(_game(match, number), context={"match": match}).data
        return Response(out, headers={"ETag": out["etag"]})

    @extend_schema(
        request=GameCorrectInput,
        responses={
            200: GameOut,
            409: OpenApiResponse(
                description="The version named is no longer the confirmed one (code "
                "'stale_version'; 'game' and 'match' hold the current result), or the "
                "match cannot be corrected now."
            ),
            428: OpenApiResponse(
                description="No version named: send If-Match or 'version' "
                "(code 'precondition_required')."
            ),
        },
        parameters=[IF_MATCH_HEADER, ETAG_HEADER],
        examples=GAME_CORRECT_EXAMPLES,
        summary="Correct a game's result",
    )
    def put(self, request: Request, pk: int, number: int) -> Response:
        """Correct a game's result.

        The match's referees and the tournament's organisers. Name the version you correct
        (``If-Match`` or ``version``); the correction is kept as a new version, and the
        match is scored again.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        game = _game(match, number)
        data = self.GameCorrectInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = results.game_result_correct(
            game=game,
            expected_version=_expected_version(request, game, v.get("version")),
            result=result_input(match, v),
            by=request.user,
            note=v["note"],
        )
        match.refresh_from_db()
        out = GameOut(_game(match, number), context={"match": match}).data
        return Response(out, headers={"ETag": out["etag"]})


class GameVersionsApi(ApiView):
    @extend_schema(responses=GameResultOut(many=True))
    def get(self, request: Request, pk: int, number: int) -> Response:
        """List every entered version of one game's result, oldest first.

        Shown to the match's players, referees and organisers (403 otherwise).
        """
        match = selectors.match_get(pk=pk, by=request.user)
        if not can_read_records(request.user, match):
            raise PermissionDeniedError(
                _("Result versions are shown to the match's players, referees and organisers.")
            )
        game = _game(match, number)
        versions = game.results.select_related(
            "entered_by__player", "confirmed_by__player"
        ).order_by("version")
        people = staff_context(request.user, match.tournament)
        return Response(GameResultOut(versions, many=True, context=people).data)


class MatchWalkoverApi(ApiView):
    class MatchWalkoverInput(serializers.Serializer[Any]):
        winner_player = DbIdField()
        reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    @extend_schema(request=MatchWalkoverInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        """Give a match as a walkover (scoring.md S6).

        The match's referees and the tournament's organisers; ``winner_player`` (one of the
        match's players) advances, ``reason`` is kept in the audit log.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchWalkoverInput(data=request.data)
        data.is_valid(raise_exception=True)
        winner = Player.objects.filter(pk=data.validated_data["winner_player"]).first()
        if winner is None:
            raise ValidationError(_("No such player."), code="unknown_player")
        match = walkovers.match_walkover(
            match=match, winner=winner, by=request.user, reason=data.validated_data["reason"]
        )
        return Response(MatchOut(selectors.match_get(pk=match.pk, by=request.user)).data)


class MatchTableApi(ApiView):
    class MatchTableInput(serializers.Serializer[Any]):
        table = DbIntegerField(allow_null=True, min_value=1, max_value=tables.MAX_TABLE)

    @extend_schema(request=MatchTableInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        """Set the table (board) a match is played at, or clear it with ``null``.

        The tournament's organisers; 409 ``table_taken`` when another match of the round
        still played at the board has that table.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchTableInput(data=request.data)
        data.is_valid(raise_exception=True)
        tables.match_table_set(match=match, table=data.validated_data["table"], by=request.user)
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


class MatchVenueApi(ApiView):
    class MatchVenueInput(serializers.Serializer[Any]):
        venue = DbIdField(allow_null=True, help_text="one of the tournament's venues, or null")

    @extend_schema(request=MatchVenueInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        """Move a match to another of the tournament's venues.

        The tournament's organisers; the match takes the first table free at that venue
        in its round. Refused for a bye or walkover (400 ``no_table``) and a decided match
        (409 ``match_over``); 400 ``unknown_venue`` for a venue of another tournament.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchVenueInput(data=request.data)
        data.is_valid(raise_exception=True)
        venue = None
        if data.validated_data["venue"] is not None:
            venue = Venue.objects.filter(
                pk=data.validated_data["venue"], tournament_id=match.tournament_id
            ).first()
            if venue is None:
                raise ValidationError(_("The tournament has no such venue."), code="unknown_venue")
        venues.match_venue_set(match=match, venue=venue, by=request.user)
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


class MatchResetApi(ApiView):
    class MatchResetInput(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=500)

    @extend_schema(request=MatchResetInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        """Reset a match: void its games and result so it can be played again.

        Organisers only, with a ``reason``; everything is kept and audited. A decided
        match's winner is taken out of the next match, which must not have started.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchResetInput(data=request.data)
        data.is_valid(raise_exception=True)
        results.match_reset(match=match, by=request.user, reason=data.validated_data["reason"])
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


class MatchFlagClearApi(ApiView):
    class MatchFlagClearInput(serializers.Serializer[Any]):
        note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    @extend_schema(request=MatchFlagClearInput, responses=MatchOut)
    def post(self, request: Request, pk: int) -> Response:
        """Clear a match's flag after checking it.

        A match is flagged when a verified game record disagrees with the entered results;
        the match's referees and the tournament's organisers clear the flag once checked.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchFlagClearInput(data=request.data)
        data.is_valid(raise_exception=True)
        records.match_flag_clear(match=match, by=request.user, note=data.validated_data["note"])
        return Response(MatchOut(selectors.match_get(pk=pk, by=request.user)).data)


@extend_schema_field(OpenApiTypes.BINARY)
class UploadField(serializers.FileField):
    """A file sent as a part of a multipart body (binary in the schema, not a URL)."""


class RecordListApi(ApiView):
    """Submit a game record as JSON ``{"text": "…"}`` or as a multipart ``file``."""

    parser_classes = (JSONObjectParser, MultiPartParser, FormParser)
    pagination_class = Pagination

    class RecordListInput(serializers.Serializer[Any]):
        text = serializers.CharField(required=False, trim_whitespace=False)
        file = serializers.FileField(required=False)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # NUL is left to the service, which names the line and column of every control
            # character, as for a file (DRF's CharField would refuse NUL without saying where).
            super().__init__(*args, **kwargs)
            text = self.fields["text"]
            text.validators = [
                v for v in text.validators if not isinstance(v, ProhibitNullCharactersValidator)
            ]

    @extend_schema(responses=SubmissionOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List the game records submitted for a match.

        Shown to the match's players, referees and organisers (403 otherwise); paginated.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        if not can_read_records(request.user, match):
            raise PermissionDeniedError(
                _("Game records are shown to the match's players, referees and organisers.")
            )
        return paginate(
            self,
            selectors.submission_list(match=match),
            SubmissionOut,
            context=staff_context(request.user, match.tournament),
        )

    class RecordTextInput(serializers.Serializer[Any]):
        text = serializers.CharField(trim_whitespace=False, help_text="the record as text")

    class RecordFileInput(serializers.Serializer[Any]):
        file = UploadField(help_text="the record as a file (.txt, .mat), at most 1 MB")

    @extend_schema(
        request={"application/json": RecordTextInput, "multipart/form-data": RecordFileInput},
        responses={202: SubmissionDetailOut},
    )
    def post(self, request: Request, pk: int) -> Response:
        """Submit a game record (partiprotokoll) for verification.

        The match's players, referees and organisers. 202: the record is stored as
        ``pending`` and the rules engine replays it in the background; follow it with
        ``GET /api/records/{id}/``. At most 1 MB.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.RecordListInput(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data.get("file")
        text: str | bytes | None = data.validated_data.get("text")
        if upload is not None:
            if upload.size > records.RECORD_MAX_BYTES:
                raise ValidationError(
                    _(
                        "The record is %(size)s bytes; the limit is 1 MB (%(limit)s bytes). "
                        "Submit one match per file."
                    )
                    % {
                        "size": number_format(upload.size, force_grouping=True),
                        "limit": number_format(records.RECORD_MAX_BYTES, force_grouping=True),
                    },
                    code="too_big",
                )
            text = upload.read()
        if not text:
            raise ValidationError(
                _("Send the record as text (JSON field 'text') or as a 'file'."), code="empty"
            )
        sub = records.game_record_submit(match=match, text=text, by=request.user)
        sub.refresh_from_db()
        people = staff_context(request.user, match.tournament)
        return Response(
            SubmissionDetailOut(sub, context=people).data, status=status.HTTP_202_ACCEPTED
        )


class RecordDetailApi(ApiView):
    @extend_schema(responses=SubmissionDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a submitted game record and its verdict.

        ``pending`` (or ``verifying``) until the engine has replayed it; then
        ``verified``, ``entered`` (results entered from it), ``mismatch`` (disagrees with
        the entered results), ``invalid`` (with the engine's error, game and line) or
        ``failed``. Shown to the match's players, referees and organisers.
        """
        sub = selectors.submission_get(pk=pk, by=request.user)
        people = staff_context(request.user, sub.match.tournament)
        return Response(SubmissionDetailOut(sub, context=people).data)
