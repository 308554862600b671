"""Django admin for organisers: their tournaments, entries, rounds, players and clubs.

An organiser needs a staff account (``is_staff``); they then see and change only
the tournaments they organise (superusers see everything). Changes that have
rules go through the services: creating a tournament, drawing the bracket,
withdrawing an entry, changing a round's length.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.permissions import can_manage_all_players, is_organiser
from core.reasons import ReasonCode
from formats import format_for
from formats.option import OptionKind
from formats.options import option_specs
from tournaments.entries import entry_withdraw
from tournaments.format_change import format_fields, tournament_format_set
from tournaments.format_options import format_values
from tournaments.models import (
    DEFAULT_FORMAT,
    Club,
    Entry,
    Player,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.page_versions import tournament_touch, tournaments_touch
from tournaments.permissions import (
    can_manage_players,
    organises_player,
    player_is_theirs,
    players_visible_to,
)
from tournaments.players import (
    player_name_holder,
    player_name_taken_error,
    player_shared_error,
    player_update,
)
from tournaments.round_lengths import round_length_set
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_update

PLAYER_FIELDS = ("name", "club", "rating")


def _organises_any(request: HttpRequest) -> bool:
    user = request.user
    return bool(
        user.is_active
        and user.is_staff
        and (user.is_superuser or Tournament.objects.filter(organisers=user).exists())
    )


class OrganiserScoped(admin.ModelAdmin):  # type: ignore[type-arg]
    """Object-level access from the tournament roles instead of model permissions."""

    tournament_path = "tournament"

    def _tournament(self, obj: Any) -> Tournament:
        for part in self.tournament_path.split("__"):
            obj = getattr(obj, part) if part != "self" else obj
        return obj  # type: ignore[no-any-return]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        field = (
            "organisers"
            if self.tournament_path == "self"
            else (f"{self.tournament_path}__organisers")
        )
        return qs.filter(**{field: request.user}).distinct()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _organises_any(request) or super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return _organises_any(request)
        return is_organiser(request.user, self._tournament(obj))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    fields = ("player", "seed", "withdrawn_at")
    readonly_fields = ("withdrawn_at",)
    autocomplete_fields = ("player",)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        # Only players the organiser may see: a hidden one's id is refused as unknown.
        if db_field.name == "player" and not can_manage_all_players(request.user):
            kwargs["queryset"] = players_visible_to(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.status == TournamentStatus.DRAFT

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.status == TournamentStatus.DRAFT

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is not None and obj.status == TournamentStatus.DRAFT


class RoundInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Round
    extra = 0
    fields = ("number", "name", "match_length")
    readonly_fields = ("number", "name", "match_length")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _default_format_options() -> tuple[str, ...]:
    """The options of the format a tournament created in the admin has, in the
    registry's order."""
    read = format_for(DEFAULT_FORMAT).options
    return tuple(spec.key for spec in option_specs() if spec.key in read)


@admin.register(Tournament)
class TournamentAdmin(OrganiserScoped):
    tournament_path = "self"
    list_display = (
        "name",
        "start_date",
        "venue",
        "game",
        "rules",
        "scale",
        "results_by",
        "status",
        "is_public",
    )
    list_filter = ("status", "game", "rules", "scale", "results_by", "is_public")
    search_fields = ("name", "venue")
    date_hierarchy = "start_date"
    filter_horizontal = ("organisers", "referees")
    readonly_fields = ("status", "draw_seed", "created_at")
    inlines = (EntryInline, RoundInline)
    actions = ("draw_bracket",)
    fieldsets = (
        (None, {"fields": ("name", ("start_date", "end_date"), "venue", "is_public")}),
        (
            "Play",
            {
                "fields": (
                    "game",
                    "rules",
                    "addons",
                    "scale",
                    "resignation_policy",
                )
            },
        ),
        ("Results", {"fields": ("results_by",)}),
        ("People", {"fields": ("organisers", "referees")}),
        ("State", {"fields": ("status", "draw_seed", "created_at")}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("tournaments.add_tournament"))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """The format and its options (``format_change.format_fields``) on the change
        form; on the add form, the options of the default format only: a tournament
        created here is a knockout (other formats are chosen on the new-tournament page,
        ``web.views.organiser``)."""
        fieldsets = list(super().get_fieldsets(request, obj))
        fields = format_fields() if obj is not None else _default_format_options()
        fieldsets.insert(2, ("Format", {"fields": fields}))
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The format and the options that shaped the draw are read-only once
        the tournament is not a draft (its rounds and matches were made for them)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != TournamentStatus.DRAFT:
            fields += format_fields()
        return fields

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            shape = format_fields()
            fields = {
                name: form.cleaned_data[name]
                for name in form.changed_data
                if name not in ("organisers", "referees", *shape)
            }
            formats = {name: form.cleaned_data[name] for name in form.changed_data if name in shape}
            stored = Tournament.objects.get(pk=obj.pk)
            # A new game or scale in a draft: the tiebreak chain is checked against it too,
            # and a chain that was the old game's default becomes the new one's.
            rechain = bool({"game", "scale"} & set(form.changed_data)) and (
                stored.status == TournamentStatus.DRAFT
            )
            for chain in (s.key for s in option_specs() if s.kind == OptionKind.TIEBREAKS):
                kept = getattr(stored, chain)
                # (the JSON widget may report an unchanged chain as changed: compare values)
                if rechain and list(formats.get(chain, kept)) == kept:
                    options = {s.key: getattr(stored, s.key) for s in option_specs()}
                    old_default = format_values(
                        stored.game,
                        stored.scale,
                        format=stored.format,
                        options=options | {chain: None},
                    )[chain]
                    if list(kept) == old_default:
                        formats[chain] = None
            try:
                with transaction.atomic():  # all of the form or nothing
                    tournament_update(tournament=obj, by=request.user, **fields)
                    if formats or rechain:  # checked against the game and scale just saved
                        tournament_format_set(tournament=obj, by=request.user, **formats)
            except DomainError as err:
                # Put the stored values back; the message says why.
                obj.refresh_from_db()
                self.message_user(request, err.message, messages.ERROR)
            return
        created = tournament_create(
            by=request.user,
            **{
                k: form.cleaned_data[k]
                for k in (
                    "name",
                    "start_date",
                    "end_date",
                    "venue",
                    "game",
                    "rules",
                    "addons",
                    "scale",
                    "resignation_policy",
                    "is_public",
                    "results_by",
                    *_default_format_options(),
                )
            },
        )
        obj.pk = created.pk
        obj.created_at = created.created_at
        obj._state.adding = False
        obj._state.db = created._state.db

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # An organiser editing the tournament stays one of its organisers.
        if not request.user.is_superuser:
            form.instance.organisers.add(request.user)
        # The staff may have changed: their pages differ (web.live).
        tournament_touch(tournament_id=form.instance.pk)

    @admin.action(description="Draw the bracket (default match lengths)")
    def draw_bracket(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                tournament_draw(tournament=tournament, by=request.user)
            except DomainError as err:
                self.message_user(request, f"{tournament}: {err.message}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("%(tournament)s: bracket drawn.") % {"tournament": tournament},
                    messages.SUCCESS,
                )


@admin.register(Entry)
class EntryAdmin(OrganiserScoped):
    list_display = ("player", "tournament", "seed", "withdrawn_at")
    list_filter = ("tournament",)
    search_fields = ("player__name",)
    readonly_fields = ("tournament", "player", "seed", "withdrawn_at")
    actions = ("withdraw",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # entries are added on the tournament page

    @admin.action(description="Withdraw (walkover to the opponent after the draw)")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.select_related("tournament", "player"):
            try:
                entry_withdraw(entry=entry, by=request.user, reason=ReasonCode.ADMIN)
            except DomainError as err:
                self.message_user(request, f"{entry.player}: {err.message}", messages.ERROR)


@admin.register(Round)
class RoundAdmin(OrganiserScoped):
    list_display = ("tournament", "number", "name", "match_length")
    list_filter = ("tournament",)
    fields = ("tournament", "number", "name", "match_length")
    readonly_fields = ("tournament", "number", "name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        length = obj.match_length
        obj.refresh_from_db()
        try:
            round_length_set(round=obj, length=length, by=request.user)
        except DomainError as err:
            self.message_user(request, err.message, messages.ERROR)


class PeopleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Players and clubs: organisers (and staff with model permissions) manage them."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _organises_any(request) or super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _organises_any(request) or super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff and can_manage_players(request.user))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_add_permission(request)


class PlayerAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """A player's form: one name per club (``Player``'s constraint, said as the
    services say it, on the name, rather than the database's error)."""

    class Meta:
        model = Player
        fields = ("name", "club", "rating", "user")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        name = str(data.get("name", self.instance.name) or "").strip()
        club = data.get("club", self.instance.club)
        if name and club is not None:
            other = self.instance.pk
            if player_name_holder(name=name, club=club, other_than=other) is not None:
                error = player_name_taken_error(name=name, club=club)
                self.add_error("name" if "name" in self.fields else None, error.message)
        return data


@admin.register(Player)
class PlayerAdmin(PeopleAdmin):
    """Registry staff (``can_manage_all_players``) see and change every player. An
    organiser sees the players they may see anywhere (``players_visible_to``; also what
    the entries' autocomplete offers) and changes only those entered in a tournament
    they organise and only theirs (``permissions.player_is_theirs``), as
    ``player_update`` allows (not a linked player's name; a player of other
    organisers' tournaments too is shown read-only, with the reason);
    linking a player to a user account is registry staff's alone."""

    form = PlayerAdminForm
    list_display = ("name", "club", "rating", "user")
    list_filter = ("club",)
    search_fields = ("name", "club__name")
    autocomplete_fields = ("club",)
    raw_id_fields = ("user",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        qs = super().get_queryset(request)
        if can_manage_all_players(request.user):
            return qs
        return qs.filter(pk__in=players_visible_to(request.user).values("pk"))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not super().has_change_permission(request, obj):
            return False
        if obj is None or can_manage_all_players(request.user):
            return True
        return player_is_theirs(request.user, obj) or obj.user_id == request.user.pk

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        """A player of other organisers' tournaments too is shown read-only to an
        organiser of one of them, with the reason (``player_shared_error``)."""
        obj = self.get_object(request, object_id)
        if (
            request.method == "GET"
            and obj is not None
            and not can_manage_all_players(request.user)
            and obj.user_id != request.user.pk
            and organises_player(request.user, obj)
            and not player_is_theirs(request.user, obj)
        ):
            self.message_user(request, player_shared_error(obj).message, messages.WARNING)
        return super().change_view(request, object_id, form_url, extra_context)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if can_manage_all_players(request.user):
            return ()
        if obj is not None and obj.user_id not in (None, request.user.pk):
            return ("name", "user")
        return ("user",)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if not change or can_manage_all_players(request.user):
            super().save_model(request, obj, form, change)  # a new player has no user here
            # Name, club, rating and account show on their tournaments' pages (web.live).
            tournaments_touch(tournaments=Tournament.objects.filter(entries__player=obj))
            return
        changes = {f: form.cleaned_data[f] for f in form.changed_data if f in PLAYER_FIELDS}
        try:
            player_update(player=Player.objects.get(pk=obj.pk), by=request.user, **changes)
        except DomainError as err:
            self.message_user(request, err.message, messages.ERROR)


@admin.register(Club)
class ClubAdmin(PeopleAdmin):
    list_display = ("name", "city")
    search_fields = ("name", "city")

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # The club's name shows beside its players on their tournaments' pages (web.live).
        tournaments_touch(tournaments=Tournament.objects.filter(entries__player__club=obj))
