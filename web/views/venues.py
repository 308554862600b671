"""The organiser's venues page (``/tournaments/N/venues/``): a championship played at
several venues at once (``tournaments.venues``). Add, rename and delete venues; scope a
referee to a venue; share a round out among the venues again or move one match; and
open each venue's big screen and wall sheets.

Every change is a POST to its own address, answered by a redirect back to the page
with a message (the services' refusals in their own words)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.bounds import parse_db_id
from core.errors import DomainError
from core.permissions import AuthUser, is_organiser
from matches import venues as match_venues
from matches.models import Match, MatchState
from tournaments import venues
from tournaments.models import Round, Tournament, Venue
from web.forms.venues import VenueForm

__all__ = [
    "match_venue",
    "referee_venue",
    "round_split",
    "venue_delete",
    "venue_save",
    "venues_manage",
]

MOVABLE = (MatchState.WAITING, MatchState.READY, MatchState.PLAYING)


def _organised(request: HttpRequest, tournament: Tournament) -> Tournament:
    if not is_organiser(request.user, tournament):
        raise Http404
    return tournament


def _page(tournament: Tournament) -> str:
    return reverse("web:tournament_venues", args=[tournament.pk])


def _done(request: HttpRequest, tournament: Tournament, text: str) -> HttpResponse:
    messages.success(request, text)
    return redirect(_page(tournament))


def _refused(request: HttpRequest, tournament: Tournament, err: DomainError) -> HttpResponse:
    messages.error(request, err.message)
    return redirect(_page(tournament))


def _venue_of(tournament: Tournament, raw: str | None) -> Venue | None:
    """The tournament's venue named by a posted id; "" is none; another id a 404."""
    if not raw:
        return None
    pk = parse_db_id(raw)
    if pk is None:
        raise Http404
    return get_object_or_404(Venue, pk=pk, tournament=tournament)


def _context(tournament: Tournament, form: VenueForm) -> dict[str, Any]:
    listed = venues.tournament_venues(tournament)
    scoped = {
        user_id: venue_id
        for venue_id, user_id in Venue.referees.through.objects.filter(
            venue__tournament=tournament
        ).values_list("venue_id", "user_id")
    }
    referees = [
        {"user": user, "venue": scoped.get(user.pk)}
        for user in tournament.referees.order_by("username")
    ]
    rounds = list(tournament.rounds.filter(matches__isnull=False).distinct().order_by("number"))
    matches = list(
        Match.objects.filter(tournament=tournament, state__in=MOVABLE)
        .select_related("round", "player1", "player2", "venue")
        .order_by("round__number", "venue__ordering", "table", "slot")
    )
    counts: dict[int | None, int] = {}
    for m in matches:
        counts[m.venue_id] = counts.get(m.venue_id, 0) + 1
    return {
        "tournament": tournament,
        "venues": [{"venue": v, "open": counts.get(v.pk, 0)} for v in listed],
        "form": form,
        "referees": referees,
        "rounds": rounds,
        "matches": matches,
    }


@login_required
@require_http_methods(["GET", "POST"])
def venues_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """The page; a POST adds a venue."""
    tournament = _organised(request, get_object_or_404(Tournament, pk=pk))
    form = VenueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            venue = venues.venue_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                tables=form.cleaned_data["tables"],
                by=request.user,
            )
        except DomainError as err:
            form.add_error("name", err.message)
        else:
            return _done(request, tournament, _("“%(name)s” added.") % {"name": venue.name})
    return render(request, "web/organiser/venues.html", _context(tournament, form))


@login_required
@require_POST
def venue_save(request: HttpRequest, pk: int) -> HttpResponse:
    venue = get_object_or_404(Venue, pk=pk)
    tournament = _organised(request, venue.tournament)
    form = VenueForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the venue a name, and its tables as a number."))
        return redirect(_page(tournament))
    try:
        venues.venue_update(
            venue=venue,
            name=form.cleaned_data["name"],
            tables=form.cleaned_data["tables"],
            ordering=form.cleaned_data["ordering"],
            by=request.user,
        )
    except DomainError as err:
        return _refused(request, tournament, err)
    return _done(request, tournament, _("“%(name)s” saved.") % {"name": venue.name})


@login_required
@require_POST
def venue_delete(request: HttpRequest, pk: int) -> HttpResponse:
    venue = get_object_or_404(Venue, pk=pk)
    tournament = _organised(request, venue.tournament)
    try:
        venues.venue_delete(venue=venue, by=request.user)
    except DomainError as err:
        return _refused(request, tournament, err)
    return _done(request, tournament, _("“%(name)s” deleted.") % {"name": venue.name})


@login_required
@require_POST
def referee_venue(request: HttpRequest, pk: int) -> HttpResponse:
    """Scope a referee to a venue, or to every match again (an empty venue)."""
    tournament = _organised(request, get_object_or_404(Tournament, pk=pk))
    user_pk = parse_db_id(request.POST.get("user"))
    user = get_object_or_404(AuthUser, pk=user_pk or 0)
    venue = _venue_of(tournament, request.POST.get("venue"))
    try:
        venues.venue_referee_set(tournament=tournament, user=user, venue=venue, by=request.user)
    except DomainError as err:
        return _refused(request, tournament, err)
    if venue is None:
        text = _("%(user)s referees every match.") % {"user": user.get_username()}
    else:
        text = _("%(user)s referees at %(venue)s only.") % {
            "user": user.get_username(),
            "venue": venue.name,
        }
    return _done(request, tournament, text)


@login_required
@require_POST
def round_split(request: HttpRequest, pk: int) -> HttpResponse:
    round = get_object_or_404(Round, pk=pk)
    tournament = _organised(request, round.tournament)
    try:
        match_venues.round_venues_split(round=round, by=request.user)
    except DomainError as err:
        return _refused(request, tournament, err)
    return _done(
        request,
        tournament,
        _("%(round)s is shared out among the venues.") % {"round": round.name},
    )


@login_required
@require_POST
def match_venue(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    tournament = _organised(request, match.tournament)
    venue = _venue_of(tournament, request.POST.get("venue"))
    try:
        moved = match_venues.match_venue_set(match=match, venue=venue, by=request.user)
    except DomainError as err:
        return _refused(request, tournament, err)
    if venue is None:
        text = _("%(match)s has no venue now, at table %(table)s.")
    else:
        text = _("%(match)s plays at %(venue)s, table %(table)s.")
    return _done(
        request,
        tournament,
        text % {"match": str(moved), "venue": venue.name if venue else "", "table": moved.table},
    )
