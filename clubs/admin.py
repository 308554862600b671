"""Admin for ratings and seasons. Stored ratings and histories are read-only (they come
from the matches: ``manage.py ratings rebuild``); starting ratings go through
``rating_services.rating_starts_set`` (it rebuilds the game); seasons and their events are
edited here by season keepers (``clubs.change_season``), their points checked."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from clubs.models import (
    ImportedEvent,
    PlayerRating,
    RatingEntry,
    RatingStart,
    Season,
    SeasonEvent,
    placings_problem,
)
from clubs.rating_services import rating_starts_set
from core.errors import DomainError


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnly):
    list_display = ("player", "game", "formula", "rating", "experience", "matches")
    list_filter = ("game", "formula")
    search_fields = ("player__name",)


@admin.register(RatingEntry)
class RatingEntryAdmin(ReadOnly):
    list_display = (
        "player",
        "game",
        "formula",
        "match",
        "opponent",
        "won",
        "before",
        "change",
        "after",
    )
    list_filter = ("game", "formula")
    search_fields = ("player__name",)


@admin.register(RatingStart)
class RatingStartAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("player", "game", "rating", "experience", "note", "set_at")
    list_filter = ("game",)
    search_fields = ("player__name",)
    autocomplete_fields = ("player",)
    fields = ("player", "game", "rating", "experience", "note")

    def save_model(self, request: HttpRequest, obj: RatingStart, form: Any, change: bool) -> None:
        try:
            rating_starts_set(
                game=obj.game,
                starts={obj.player_id: (obj.rating, obj.experience)},
                by=request.user,
                note=obj.note,
            )
        except DomainError as err:
            self.message_user(request, err.message, messages.ERROR)
            return
        saved = RatingStart.objects.get(game=obj.game, player_id=obj.player_id)
        obj.pk, obj._state.adding = saved.pk, False

    def delete_model(self, request: HttpRequest, obj: RatingStart) -> None:
        rating_starts_set(game=obj.game, starts={obj.player_id: None}, by=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[RatingStart]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)


class SeasonForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Season
        fields = (
            "club",
            "name",
            "start_date",
            "end_date",
            "tournament_taking_part",
            "tournament_match_won",
            "tournament_placings",
            "club_night_taking_part",
            "club_night_match_won",
            "club_night_placings",
        )

    def _placings(self, name: str) -> Any:
        value = self.cleaned_data.get(name) or {}
        problem = placings_problem(value)
        if problem is not None:
            raise forms.ValidationError(problem)
        return value

    def clean_tournament_placings(self) -> Any:
        return self._placings("tournament_placings")

    def clean_club_night_placings(self) -> Any:
        return self._placings("club_night_placings")


class SeasonEventInline(admin.TabularInline):  # type: ignore[type-arg]
    model = SeasonEvent
    extra = 1
    autocomplete_fields = ("tournament",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = SeasonForm
    list_display = ("name", "club", "start_date", "end_date")
    list_filter = ("club",)
    inlines = (SeasonEventInline,)

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.register(ImportedEvent)
class ImportedEventAdmin(ReadOnly):
    list_display = ("name", "date", "kind", "season")
    list_filter = ("season",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A wrong import is taken out whole, then imported again.
        return bool(request.user.is_superuser or request.user.has_perm("clubs.change_season"))
