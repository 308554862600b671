"""The season keepers' pages: create a season, rename it or move its dates,
set its points rules, add and remove its events. Thin: the checks and the writes are
``clubs.season_services``'s; a keeper is a superuser or a user with
``clubs.change_season`` (``can_keep_seasons``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import season_selectors as season_sel
from clubs.models import Season, SeasonEvent
from clubs.season_forms import (
    SeasonCreateForm,
    SeasonDetailsForm,
    SeasonEventForm,
    SeasonRulesForm,
)
from clubs.season_services import (
    can_keep_seasons,
    season_create,
    season_details_set,
    season_event_add,
    season_event_remove,
    season_rules_set,
)
from core.errors import DomainError
from core.http import found
from tournaments.permissions import User, visible_tournaments


def _require_keeper(user: User) -> None:
    if not can_keep_seasons(user):
        raise PermissionDenied(
            _("Only the season keepers of the clubs may change seasons; ask an administrator.")
        )


def _event_form(season: Season, user: User, data: object = None) -> SeasonEventForm:
    taken = SeasonEvent.objects.filter(season=season).values("tournament_id")
    tournaments = (
        visible_tournaments(user).exclude(pk__in=taken).order_by("-start_date", "name", "id")
    )
    return SeasonEventForm(data, tournaments=tournaments)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest) -> HttpResponse:
    _require_keeper(request.user)
    form = SeasonCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = season_create(
                club=data["club"],
                name=data["name"],
                start_date=data["start_date"],
                end_date=data["end_date"],
                by=request.user,
                **form.points(),
            )
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, _("The season is created; add its events."))
            return redirect("clubs:season_edit", pk=season.pk)
    return render(request, "clubs/season_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The points rules (POST saves them) and the events, with their add/remove forms."""
    _require_keeper(request.user)
    season = found(season_sel.season_get, pk=pk)
    form = SeasonRulesForm.for_season(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season_rules_set(season=season, by=request.user, **form.points())
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, _("The points rules are saved; the standings follow them."))
            return redirect("clubs:season_edit", pk=season.pk)
    return _edit_page(request, season, form, _event_form(season, request.user))


@login_required
@require_POST
def season_details(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename the season or move its dates (the edit page's first form)."""
    _require_keeper(request.user)
    season = found(season_sel.season_get, pk=pk)
    details_form = SeasonDetailsForm(request.POST)
    if details_form.is_valid():
        data = details_form.cleaned_data
        try:
            season_details_set(
                season=season,
                name=data["name"],
                start_date=data["start_date"],
                end_date=data["end_date"],
                by=request.user,
            )
        except DomainError as err:
            details_form.add_error(None, err.message)
        else:
            messages.success(request, _("The season's name and dates are saved."))
            return redirect("clubs:season_edit", pk=season.pk)
    rules_form = SeasonRulesForm.for_season(season)
    event_form = _event_form(season, request.user)
    return _edit_page(request, season, rules_form, event_form, details_form)


def _edit_page(
    request: HttpRequest,
    season: Season,
    form: SeasonRulesForm,
    event_form: SeasonEventForm,
    details_form: SeasonDetailsForm | None = None,
) -> HttpResponse:
    events = (
        SeasonEvent.objects.filter(season=season)
        .filter(tournament__in=visible_tournaments(request.user))
        .select_related("tournament")
        .order_by("tournament__start_date", "id")
    )
    context = {
        "season": season,
        "form": form,
        "event_form": event_form,
        "details_form": details_form or SeasonDetailsForm.for_season(season),
        "events": events,
    }
    return render(request, "clubs/season_edit.html", context)


@login_required
@require_POST
def season_event_new(request: HttpRequest, pk: int) -> HttpResponse:
    _require_keeper(request.user)
    season = found(season_sel.season_get, pk=pk)
    event_form = _event_form(season, request.user, request.POST)
    if event_form.is_valid():
        tournament = event_form.cleaned_data["tournament"]
        try:
            season_event_add(
                season=season,
                tournament=tournament,
                kind=event_form.cleaned_data["kind"],
                by=request.user,
            )
        except DomainError as err:
            event_form.add_error(None, err.message)
        else:
            messages.success(
                request,
                _("“%(name)s” counts in the season now.") % {"name": tournament.name},
            )
            return redirect("clubs:season_edit", pk=season.pk)
    return _edit_page(request, season, SeasonRulesForm.for_season(season), event_form)


@login_required
@require_POST
def season_event_delete(request: HttpRequest, pk: int, event_pk: int) -> HttpResponse:
    _require_keeper(request.user)
    season = found(season_sel.season_get, pk=pk)
    event = get_object_or_404(
        SeasonEvent.objects.select_related("tournament"),
        pk=event_pk,
        season=season,
        tournament__in=visible_tournaments(request.user),
    )
    name = event.tournament.name
    try:
        season_event_remove(event=event, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("“%(name)s” no longer counts in the season.") % {"name": name})
    return redirect("clubs:season_edit", pk=season.pk)
