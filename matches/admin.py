"""Django admin for matches: results, players' reports, walkovers, resets and game records.

Organisers (staff accounts) see the matches of the tournaments they organise. A
match's page shows its games, result versions, records and audit trail (read
only); results are entered on its "Enter next game" page and matches reset or
given a walkover by actions, all through ``matches.services``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core import path_converters  # noqa: F401  (registers <id:…>)
from core.errors import DomainError
from core.reasons import ReasonCode
from games.family import GameFamily
from matches import record_queue, results, walkovers
from matches.models import (
    PATTERNS,
    Game,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchEvent,
    SideChoice,
)
from matches.result_values import result_value_from
from matches.standing import family_of
from tournaments.admin import OrganiserScoped


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True


class GameInline(ReadOnlyInline):
    model = Game
    fields = ("number", "starter", "winner", "outcome", "pattern", "munk", "source", "verified")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).filter(voided_at__isnull=True)


class SubmissionInline(ReadOnlyInline):
    model = GameRecordSubmission
    fields = ("submitted_by", "submitted_at", "state", "attempts", "message")
    readonly_fields = fields


class ReportInline(ReadOnlyInline):
    """The players' reports of games (``matches.reports``), read only: referees decide a
    disputed one by entering the game ("Enter next game") or on the site."""

    model = GameReport
    fields = (
        "number",
        "winner",
        "outcome",
        "pattern",
        "munk",
        "state",
        "reporter",
        "reported_at",
        "answerer",
        "dispute_note",
        "closed_by",
    )
    readonly_fields = fields


class EventInline(ReadOnlyInline):
    model = MatchEvent
    fields = ("at", "kind", "by", "data")
    readonly_fields = fields


CONCEDED = (("single", "a single game"), ("gammon", "a gammon"), ("backgammon", "a backgammon"))


def _result_field(name: str, family: GameFamily) -> forms.Field:
    """The form field of one of the family's result fields (``GameFamily.result_fields``)."""
    if name == "pattern":
        return forms.ChoiceField(
            choices=[("", "—"), *PATTERNS], required=False, help_text="vackert spel"
        )
    if name == "munk":
        return forms.BooleanField(required=False)
    if name == "cube":
        return forms.IntegerField(
            min_value=1, initial=1, help_text="the cube's value (a drop: before the double)"
        )
    if name == "conceded":
        return forms.ChoiceField(
            choices=[("", "—"), *CONCEDED], required=False, help_text="a resignation only"
        )
    if name == "game_type":
        return forms.ChoiceField(choices=[(t.code, t.name) for t in family.vocabulary.game_types])
    raise ValueError(f"no admin field for the result field {name!r}")


def enter_game_form(family: GameFamily) -> type[forms.Form]:
    """The "enter next game" form of a family: winner, the family's outcomes and its own
    result fields (bräde: pattern, munk; backgammon: cube, conceded; Kungabräde: game
    type), the starter where the loser starts the next game (bräde's tek), a note."""
    fields: dict[str, forms.Field] = {
        "winner": forms.ChoiceField(choices=SideChoice.choices),
        "outcome": forms.ChoiceField(
            choices=[(t.code, t.name) for t in family.vocabulary.outcomes]
        ),
    }
    for name in family.result_fields:
        fields[name] = _result_field(name, family)
    if family.loser_starts:
        fields["starter"] = forms.ChoiceField(
            choices=[("", "—"), *SideChoice.choices], required=False, help_text="game 1 only (tek)"
        )
    fields["note"] = forms.CharField(required=False, max_length=500)
    return type(f"EnterGameForm_{family.key}", (forms.Form,), fields)


@admin.register(Match)
class MatchAdmin(OrganiserScoped):
    list_display = (
        "__str__",
        "tournament",
        "round",
        "slot",
        "state",
        "score",
        "winner",
        "flagged",
        "enter_link",
    )
    list_filter = ("tournament", "state", "round__number", "walkover")
    search_fields = ("player1__name", "player2__name", "tournament__name")
    list_select_related = ("tournament", "round", "player1", "player2", "winner")
    readonly_fields = (
        "tournament",
        "round",
        "slot",
        "is_third_place",
        "player1",
        "player2",
        "length",
        "state",
        "winner",
        "decided_after_game",
        "decided_early",
        "walkover",
        "points1",
        "points2",
        "tiebreak1",
        "tiebreak2",
        "flag",
    )
    inlines = (GameInline, ReportInline, SubmissionInline, EventInline)
    actions = ("walkover_player1", "walkover_player2", "reset")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches come from drawing the bracket

    @admin.display(description="score")
    def score(self, obj: Match) -> str:
        return f"{obj.points1}–{obj.points2}"

    @admin.display(description="flag", boolean=True)
    def flagged(self, obj: Match) -> bool:
        return bool(obj.flag)

    @admin.display(description="")
    def enter_link(self, obj: Match) -> str:
        url = reverse("admin:matches_match_enter_game", args=[obj.pk])
        return format_html('<a href="{}">Enter next game</a>', url)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<id:pk>/enter-game/",
                self.admin_site.admin_view(self.enter_game_view),
                name="matches_match_enter_game",
            )
        ]
        return own + super().get_urls()

    def enter_game_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        match = get_object_or_404(
            Match.objects.select_related("tournament", "round", "player1", "player2"), pk=pk
        )
        if not self.has_view_permission(request, match):
            return HttpResponseRedirect(reverse("admin:index"))
        games = list(match.games.filter(voided_at__isnull=True).order_by("number"))
        family = family_of(match.tournament)
        form = enter_game_form(family)(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                results.game_result_enter(
                    match=match,
                    number=len(games) + 1,
                    result=result_value_from(data),
                    starter=data.get("starter") or None,
                    note=data["note"],
                    by=request.user,
                )
            except DomainError as err:
                self.message_user(request, err.message, messages.ERROR)
            else:
                self.message_user(
                    request, _("Game %(n)s entered.") % {"n": len(games) + 1}, messages.SUCCESS
                )
                return HttpResponseRedirect(request.path)
        context = {
            **self.admin_site.each_context(request),
            "match": match,
            "games": games,
            "form": form,
            "next_number": len(games) + 1,
            "family": family,
            "length_text": (
                f"to {match.length} points"
                if family.length_unit == "points"
                else f"best of {match.length}"
            ),
            "title": f"Enter game {len(games) + 1}",
        }
        return TemplateResponse(request, "admin/matches/match/enter_game.html", context)

    def _walkover(self, request: HttpRequest, queryset: QuerySet[Match], upper: bool) -> None:
        for match in queryset.select_related("player1", "player2", "tournament"):
            winner = match.player1 if upper else match.player2
            try:
                if winner is None:
                    raise DomainError(_("That player is not known yet."))
                walkovers.match_walkover(
                    match=match, winner=winner, by=request.user, reason=ReasonCode.ADMIN
                )
            except DomainError as err:
                self.message_user(request, f"{match}: {err.message}", messages.ERROR)

    @admin.action(description="Walkover: player 1 (upper) advances")
    def walkover_player1(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._walkover(request, queryset, upper=True)

    @admin.action(description="Walkover: player 2 (lower) advances")
    def walkover_player2(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._walkover(request, queryset, upper=False)

    @admin.action(description="Reset (void the games and the result)")
    def reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset.select_related("tournament"):
            try:
                results.match_reset(match=match, by=request.user, reason=ReasonCode.ADMIN)
            except DomainError as err:
                self.message_user(request, f"{match}: {err.message}", messages.ERROR)


@admin.register(GameRecordSubmission)
class GameRecordSubmissionAdmin(OrganiserScoped):
    tournament_path = "match__tournament"
    list_display = ("pk", "match", "submitted_by", "submitted_at", "state", "attempts")
    list_filter = ("state",)
    readonly_fields = (
        "match",
        "submitted_by",
        "submitted_at",
        "state",
        "attempts",
        "started_at",
        "finished_at",
        "message",
        "report",
        "text",
    )
    actions = ("verify_again",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Queue pending records for verification again")
    def verify_again(self, request: HttpRequest, queryset: QuerySet[GameRecordSubmission]) -> None:
        for sub in queryset.filter(state="pending"):
            record_queue.game_record_enqueue(submission_id=sub.pk)


@admin.register(GameResult)
class GameResultAdmin(OrganiserScoped):
    """Every version of every result, who entered it and when (read only)."""

    tournament_path = "game__match__tournament"
    list_display = ("game", "version", "confirmed", "entered_by", "entered_at", "source")
    list_filter = ("confirmed", "source")
    readonly_fields = (
        "game",
        "version",
        "winner",
        "outcome",
        "pattern",
        "munk",
        "source",
        "submission",
        "confirmed",
        "entered_by",
        "entered_at",
        "confirmed_by",
        "report",
        "note",
        "site_note",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
