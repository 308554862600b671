"""REST API for clubs, players, tournaments, entries and rounds (the bracket, placings and
a player's matches: ``matches.api_rounds``).

One class per operation (HackSoft style) with nested input serializers; every
view reads through a selector (visibility: a private tournament is a 404 to
outsiders) and writes through a service (which checks the role: 403).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIdField, DbIntegerField
from core.errors import NotFoundError, ValidationError
from core.parsers import CSVTextParser, JSONObjectParser
from core.permissions import is_referee
from formats.registry import choices as format_choices
from formats.registry import formats
from tournaments import format_change, selectors
from tournaments.api_base import (
    STRICT_BOOLEANS,
    ApiView,
    IdFilter,
    Ordering,
    Pagination,
    filtered,
    paginate,
)
from tournaments.api_examples import TOURNAMENT_LIST_EXAMPLES
from tournaments.api_options import option_input_fields, with_option_fields
from tournaments.entries import entries_csv_import, entry_add, entry_seed_set, entry_withdraw
from tournaments.models import (
    DEFAULT_FORMAT,
    DEFAULT_GAME,
    Club,
    Entry,
    Player,
    ResignationPolicyName,
    ResultsBy,
    Round,
    RuleSetName,
    ScaleName,
    Tournament,
    TournamentStatus,
    game_choices,
)
from tournaments.permissions import visible_tournaments
from tournaments.players import club_create, player_create, player_update
from tournaments.round_lengths import round_length_set
from tournaments.serializers import (
    ClubOut,
    EntryOut,
    MatchLengthField,
    PlayerOut,
    RoundOut,
    StaffMemberOut,
    TournamentDetailOut,
    TournamentOut,
    staff_member,
)
from tournaments.time_control import MAX_DELAY, MAX_PER_POINT
from tournaments.tournament_setup import tournament_create, tournament_staff_set

# The formats in the schema's words: every registered format, from its own description.
FORMAT_HELP = "; ".join(f"{f.key}: {f.description}" for f in formats())

# The longest entries file the API reads (characters, or bytes of a ``text/csv`` body).
IMPORT_MAX_CHARS = 2_000_000


def _tournament(request: Request, pk: int) -> Tournament:
    return selectors.tournament_get(pk=pk, by=request.user)


# --- clubs and players --------------------------------------------------------------


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    ordering = Ordering(fields=("name", "city"))

    class Meta:
        model = Club
        fields = ("name", "city")


class ClubListApi(ApiView):
    pagination_class = Pagination
    filterset_class = ClubFilter

    class ClubListInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120)
        city = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)

    @extend_schema(responses=ClubOut(many=True))
    def get(self, request: Request) -> Response:
        """List clubs.

        Every club, filtered by ``name`` (any part of it) and ``city``; paginated with
        ``limit`` and ``offset``. Anyone may read.
        """
        return paginate(self, filtered(self.filterset_class, request, Club.objects.all()), ClubOut)

    @extend_schema(request=ClubListInput, responses={201: ClubOut})
    def post(self, request: Request) -> Response:
        """Create a club.

        Organisers of a tournament and registry staff only (403 otherwise). A new
        organiser who organises no tournament yet gets 403 with the code
        ``organise_first``: create your tournament first (``POST /api/tournaments/``),
        then its clubs and players.
        """
        data = self.ClubListInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_create(by=request.user, **data.validated_data)
        return Response(ClubOut(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(ApiView):
    @extend_schema(responses=ClubOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show one club: its name and city."""
        club = Club.objects.filter(pk=pk).first()
        if club is None:
            raise NotFoundError(_("No club #%(id)s.") % {"id": pk})
        return Response(ClubOut(club).data)


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="club_id")
    ordering = Ordering(fields=("name", "rating"))

    class Meta:
        model = Player
        fields = ("name", "club")


class PlayerListApi(ApiView):
    pagination_class = Pagination
    filterset_class = PlayerFilter

    class PlayerListInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120)
        club = serializers.PrimaryKeyRelatedField(
            queryset=Club.objects.all(), required=False, allow_null=True, default=None
        )
        rating = DbIntegerField(required=False, allow_null=True, default=None, min_value=0)
        # A plain number, not a choice of accounts: a choice would answer 400 for an id that
        # is no account, which tells accounts apart (``tournaments.invitations``).
        user = DbIdField(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            help_text="a user account to link: registry staff link it; anyone else invites "
            "it, and its user accepts or declines",
        )

    @extend_schema(responses=PlayerOut(many=True))
    def get(self, request: Request) -> Response:
        """List players.

        The players you may see (a player entered only in private tournaments is listed
        to those tournaments' staff and players), filtered by ``name`` (any part of it)
        and ``club``; paginated.
        """
        qs = selectors.player_list(by=request.user)
        return paginate(self, filtered(self.filterset_class, request, qs), PlayerOut)

    @extend_schema(request=PlayerListInput, responses={201: PlayerOut})
    def post(self, request: Request) -> Response:
        """Create a player.

        Registry staff and anyone who organises a tournament (403 otherwise; a new
        organiser who organises none yet gets the code ``organise_first``: create your
        tournament first, with ``POST /api/tournaments/``). ``user``
        names a user account for the player: registry staff link it at once; anyone else
        invites it (``GET /api/invitations/`` for its user, who accepts or declines), and
        the answer is the same whether that account exists, is linked or is free. Once
        linked, only that user (or registry staff) changes the name. Within a club, one
        name is one player (any case, Unicode form and spacing): a name the club has
        already answers 409 ``player_name_taken``; players of no club may share a name.
        """
        data = self.PlayerListInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_create(by=request.user, **data.validated_data)
        return Response(PlayerOut(player).data, status=status.HTTP_201_CREATED)


def _player(request: Request, pk: int) -> Player:
    """A player the caller may see (404 otherwise, as for their private tournaments)."""
    return selectors.player_get(pk=pk, by=request.user)


class PlayerDetailApi(ApiView):
    """A player: 404 for a player you cannot see; a change you may not make is 403 (the
    name of a player linked to a user account is that user's to change)."""

    class PlayerDetailInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120, required=False)
        club = serializers.PrimaryKeyRelatedField(
            queryset=Club.objects.all(), required=False, allow_null=True
        )
        rating = DbIntegerField(required=False, allow_null=True, min_value=0)

    @extend_schema(responses=PlayerOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show one player: name, club, rating.

        404 for a player you may not see.
        """
        return Response(PlayerOut(_player(request, pk)).data)

    @extend_schema(request=PlayerDetailInput, responses=PlayerOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a player's name, club or rating.

        Allowed to registry staff, to the player's own user, and to organisers of a
        tournament the player is entered in (but not the name of a player linked to a
        user account). A name, or a move to a club, that would give the club two players
        of one name answers 409 ``player_name_taken``.
        """
        player = _player(request, pk)
        data = self.PlayerDetailInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        player = player_update(player=player, by=request.user, **data.validated_data)
        return Response(PlayerOut(player).data)


# --- tournaments --------------------------------------------------------------------


class TournamentFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    status = django_filters.ChoiceFilter(choices=TournamentStatus.choices)
    starts_after = django_filters.DateFilter(field_name="start_date", lookup_expr="gte")
    starts_before = django_filters.DateFilter(field_name="start_date", lookup_expr="lte")
    ordering = Ordering(fields=("start_date", "name"))

    class Meta:
        model = Tournament
        fields = ("name", "status", "is_public", "rules", "scale")
        filter_overrides = STRICT_BOOLEANS


# The time control (``tournaments.time_control``).
CLOCK_HELP = (
    "the clock: each player's bank per match in seconds per match point (a best of n: per "
    "game); 0: no clock. The scoresheet runs it; a flag fall loses the match"
)
DELAY_HELP = "the clock: the simple delay per move, in seconds (Bronstein is not offered)"


class TournamentListApi(ApiView):
    pagination_class = Pagination
    filterset_class = TournamentFilter

    class TournamentListInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=200)
        start_date = serializers.DateField()
        end_date = serializers.DateField(required=False, allow_null=True, default=None)
        venue = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
        game = serializers.ChoiceField(
            game_choices(),
            default=DEFAULT_GAME,
            help_text="the game played (bräde, backgammon, Kungabräde); rules, addons, "
            "scale and resignation_policy are bräde's",
        )
        rules = serializers.ChoiceField(RuleSetName.choices, default=RuleSetName.TALISMAN)
        addons = serializers.ListField(child=serializers.CharField(), required=False, default=list)
        scale = serializers.ChoiceField(ScaleName.choices, default=ScaleName.WW)
        resignation_policy = serializers.ChoiceField(
            ResignationPolicyName.choices, default=ResignationPolicyName.CAPPED
        )
        is_public = serializers.BooleanField(default=True)
        results_by = serializers.ChoiceField(
            ResultsBy.choices,
            default=ResultsBy.REFEREES,
            help_text="referees enter the results, or players report them and the opponent "
            "confirms",
        )
        format = serializers.ChoiceField(
            format_choices(),
            default=DEFAULT_FORMAT,
            help_text=FORMAT_HELP,
        )
        clock_per_point = serializers.IntegerField(
            min_value=0, max_value=MAX_PER_POINT, default=0, help_text=CLOCK_HELP
        )
        clock_delay = serializers.IntegerField(
            min_value=0, max_value=MAX_DELAY, default=0, help_text=DELAY_HELP
        )

        def get_fields(self) -> dict[str, Any]:
            """These fields and every option's (``tournaments.api_options``)."""
            return with_option_fields(super().get_fields(), option_input_fields(change=False))

    @extend_schema(responses=TournamentOut(many=True), examples=TOURNAMENT_LIST_EXAMPLES)
    def get(self, request: Request) -> Response:
        """List tournaments.

        Public tournaments, and private ones you organise, referee or play in; filtered
        by ``name``, ``status``, ``is_public``, ``rules``, ``scale``, ``starts_after`` and
        ``starts_before``; paginated.
        """
        qs = selectors.tournament_list(by=request.user)
        return paginate(self, filtered(self.filterset_class, request, qs), TournamentOut)

    @extend_schema(request=TournamentListInput, responses={201: TournamentDetailOut})
    def post(self, request: Request) -> Response:
        """Create a tournament.

        Users with organiser rights (on the admin site, the permission "Can add
        tournament"); you become its first organiser. It starts as a draft: enter
        players, seed them, then draw.
        ``results_by``: ``referees`` (the default) enter the results, or ``players``
        report them and the opponent confirms (``/api/matches/{id}/reports/``).
        """
        data = self.TournamentListInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_create(by=request.user, **data.validated_data)
        out = TournamentDetailOut(tournament, context={"request": request})
        return Response(out.data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(ApiView):
    class TournamentDetailInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=200, required=False)
        start_date = serializers.DateField(required=False)
        end_date = serializers.DateField(required=False)
        venue = serializers.CharField(max_length=200, required=False)
        game = serializers.ChoiceField(game_choices(), required=False)
        rules = serializers.ChoiceField(RuleSetName.choices, required=False)
        addons = serializers.ListField(child=serializers.CharField(), required=False)
        scale = serializers.ChoiceField(ScaleName.choices, required=False)
        resignation_policy = serializers.ChoiceField(ResignationPolicyName.choices, required=False)
        is_public = serializers.BooleanField(required=False)
        results_by = serializers.ChoiceField(ResultsBy.choices, required=False)
        format = serializers.ChoiceField(format_choices(), required=False)
        clock_per_point = serializers.IntegerField(
            min_value=0, max_value=MAX_PER_POINT, required=False, help_text=CLOCK_HELP
        )
        clock_delay = serializers.IntegerField(
            min_value=0, max_value=MAX_DELAY, required=False, help_text=DELAY_HELP
        )

        def get_fields(self) -> dict[str, Any]:
            """These fields and every option's (``tournaments.api_options``)."""
            return with_option_fields(super().get_fields(), option_input_fields(change=True))

    @extend_schema(responses=TournamentDetailOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show one tournament: settings, rounds and your roles in it."""
        tournament = _tournament(request, pk)
        return Response(TournamentDetailOut(tournament, context={"request": request}).data)

    @extend_schema(request=TournamentDetailInput, responses=TournamentDetailOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a tournament's settings.

        Organisers only. The rules, scale and resignation policy, and the format and its
        options (the fields of creating it, from ``format`` on, and the match for third
        place) change only while the tournament is a draft: once the bracket is drawn,
        409. A new format without ``tiebreaks`` gets its usual chain, and the options it
        does not read go back to their defaults. ``results_by`` may change at
        any time, from ``players`` back to ``referees`` only while no player's report is
        open. All or nothing: a refused change changes nothing.
        """
        tournament = _tournament(request, pk)
        data = self.TournamentDetailInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        tournament = format_change.tournament_settings_set(
            tournament=tournament, by=request.user, **data.validated_data
        )
        return Response(TournamentDetailOut(tournament, context={"request": request}).data)


class TournamentStaffApi(ApiView):
    class TournamentStaffInput(serializers.Serializer[Any]):
        organisers = serializers.PrimaryKeyRelatedField(
            queryset=get_user_model().objects.all(), many=True, required=False
        )
        referees = serializers.PrimaryKeyRelatedField(
            queryset=get_user_model().objects.all(), many=True, required=False
        )

    class TournamentStaffOutput(serializers.Serializer[Any]):
        organisers = StaffMemberOut(many=True)
        referees = StaffMemberOut(many=True)

    def _out(self, request: Request, tournament: Tournament) -> dict[str, Any]:
        """Everyone sees the staff's display names; only the tournament's own referees
        and organisers (who assign referees by them) see ids and user names: a user
        name is a login identifier, not for the public."""
        full = is_referee(request.user, tournament)
        return {
            role: [
                staff_member(user, full=full)
                for user in getattr(tournament, role).select_related("player").order_by("pk")
            ]
            for role in ("organisers", "referees")
        }

    @extend_schema(responses=TournamentStaffOutput)
    def get(self, request: Request, pk: int) -> Response:
        """Show a tournament's organisers and referees.

        Everyone sees their display names; ids and user names (login identifiers) only
        the tournament's own referees and organisers, who assign referees by them."""
        return Response(self._out(request, _tournament(request, pk)))

    @extend_schema(request=TournamentStaffInput, responses=TournamentStaffOutput)
    def put(self, request: Request, pk: int) -> Response:
        """Set a tournament's organisers and referees.

        Organisers only. Each list given (user ids) replaces the current one; a list left
        out stays as it is.
        """
        tournament = _tournament(request, pk)
        data = self.TournamentStaffInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_staff_set(tournament=tournament, by=request.user, **data.validated_data)
        return Response(self._out(request, tournament))


class VisiblePlayerField(serializers.PrimaryKeyRelatedField[Player]):
    """A player the requesting user may see: any other id is as unknown as a missing
    one (no probing, and no making a private player visible, and editable, by
    entering them in one's own tournament)."""

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.player_list(by=self.context["request"].user)


class EntryListApi(ApiView):
    pagination_class = Pagination

    class EntryListInput(serializers.Serializer[Any]):
        player = VisiblePlayerField(queryset=Player.objects.all())  # narrowed per request
        seed = DbIntegerField(required=False, allow_null=True, default=None, min_value=1)

    @extend_schema(responses=EntryOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List a tournament's entries: players, seeds, withdrawals."""
        entries = selectors.tournament_entries(tournament=_tournament(request, pk))
        return paginate(self, entries, EntryOut)

    @extend_schema(request=EntryListInput, responses={201: EntryOut})
    def post(self, request: Request, pk: int) -> Response:
        """Enter a player in a tournament.

        Organisers only, while the tournament is a draft; ``seed`` is optional. The player
        must be one you may see.
        """
        tournament = _tournament(request, pk)
        data = self.EntryListInput(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        entry = entry_add(tournament=tournament, by=request.user, **data.validated_data)
        return Response(EntryOut(entry).data, status=status.HTTP_201_CREATED)


class EntryImportApi(ApiView):
    # JSON ({"csv": "…"}) or the file itself as ``text/csv``.
    parser_classes = (JSONObjectParser, CSVTextParser)

    class EntryImportInput(serializers.Serializer[Any]):
        csv = serializers.CharField(
            trim_whitespace=False,
            max_length=IMPORT_MAX_CHARS,
            help_text="the entries file: a header row naming the columns name, club, "
            "rating, seed (only name is required), then one player per row; separated by "
            "semicolons, commas or tabs",
        )

    class EntryImportOutput(serializers.Serializer[Any]):
        entries = EntryOut(many=True)

    @extend_schema(
        request={"application/json": EntryImportInput, "text/csv": OpenApiTypes.STR},
        responses={201: EntryImportOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        """Enter players from a CSV file.

        Organisers only, while the tournament is a draft (409 once drawn). Send the file
        as ``text/csv`` (UTF-8), or as JSON ``{"csv": "…"}``. The file is the one the
        tournament's page imports: a header row naming the columns ``name``, ``club``,
        ``rating``, ``seed`` (only ``name`` is required), then one player per row. A
        player known already (same name and club) is entered again, not created twice;
        a new club is created. All or nothing: a 400 with code ``import_invalid`` lists
        every problem by row (as a spreadsheet counts them) in ``problems``.
        """
        tournament = _tournament(request, pk)
        raw = request.data.get("csv") if isinstance(request.data, dict) else None
        if raw is None and request.content_type.split(";")[0].strip().lower() == "text/csv":
            raw = b""  # an empty body has nothing to parse: the empty file it is
        if isinstance(raw, bytes):
            if len(raw) > IMPORT_MAX_CHARS:
                raise ValidationError(
                    _("The file is larger than %(n)s bytes.") % {"n": IMPORT_MAX_CHARS}
                )
            data = raw
        else:
            given = self.EntryImportInput(data=request.data)
            given.is_valid(raise_exception=True)
            data = given.validated_data["csv"].encode("utf-8")
        entries = entries_csv_import(tournament=tournament, data=data, by=request.user)
        out = {"entries": EntryOut(entries, many=True).data}
        return Response(out, status=status.HTTP_201_CREATED)


def _entry(request: Request, pk: int) -> Entry:
    entry = (
        Entry.objects.select_related("tournament", "player__club")
        .filter(pk=pk, tournament__in=visible_tournaments(request.user))
        .first()
    )
    if entry is None:
        raise NotFoundError(_("No entry #%(id)s that you can see.") % {"id": pk})
    return entry


class EntryDetailApi(ApiView):
    class EntryDetailInput(serializers.Serializer[Any]):
        seed = DbIntegerField(allow_null=True, min_value=1)

    @extend_schema(responses=EntryOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show one entry (a player in a tournament)."""
        return Response(EntryOut(_entry(request, pk)).data)

    @extend_schema(request=EntryDetailInput, responses=EntryOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Set or clear an entry's seed.

        Organisers only, while the tournament is a draft.
        """
        entry = _entry(request, pk)
        data = self.EntryDetailInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_seed_set(entry=entry, by=request.user, **data.validated_data)
        return Response(EntryOut(entry).data)


class EntryWithdrawApi(ApiView):
    class EntryWithdrawInput(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    @extend_schema(request=EntryWithdrawInput, responses=EntryOut)
    def post(self, request: Request, pk: int) -> Response:
        """Withdraw a player from a tournament.

        Organisers only. Before the draw the player leaves the entries; after it, their
        next match is a walkover for the opponent (scoring.md S6).
        """
        entry = _entry(request, pk)
        data = self.EntryWithdrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_withdraw(entry=entry, by=request.user, **data.validated_data)
        return Response(EntryOut(entry).data)


class RoundDetailApi(ApiView):
    class RoundDetailInput(serializers.Serializer[Any]):
        match_length = MatchLengthField()

    def _round(self, request: Request, pk: int) -> Round:
        rnd = (
            Round.objects.select_related("tournament")
            .filter(pk=pk, tournament__in=visible_tournaments(request.user))
            .first()
        )
        if rnd is None:
            raise NotFoundError(_("No round #%(id)s that you can see.") % {"id": pk})
        return rnd

    @extend_schema(responses=RoundOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show one round: number, name and match length."""
        return Response(RoundOut(self._round(request, pk)).data)

    @extend_schema(request=RoundDetailInput, responses=RoundOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a round's match length.

        Organisers only, while no game of the round has been entered. Bräde and
        Kungabräde: an odd number of games, at most 25 (scoring.md S1; an even number is
        refused); backgammon: 1 to 25 points, even or odd.
        """
        rnd = self._round(request, pk)
        data = self.RoundDetailInput(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_length_set(
            round=rnd, length=data.validated_data["match_length"], by=request.user
        )
        return Response(RoundOut(rnd).data)
