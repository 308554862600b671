"""The organiser's posts on a tournament of paired rounds (a Swiss, a Monrad), from the
manage page: check players in and out, pair the next round, swap two players of the
unpublished pairing (a rematch or second bye is warned of and must be confirmed), publish it.
What the manage page shows of them is ``web.views.swiss.swiss_manage_context``.

Each post calls one service (``matches.swiss_progression``) and redirects with a message;
the rules and the audit are the services'. A swap with errors or warnings shows the manage
page again with its form (``web.views.organiser.manage_page``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from matches import swiss_progression
from matches.swiss_standings import swiss_standings
from tournaments.models import Entry, Player, Round, RoundKind, Tournament
from web.views import organiser
from web.views.swiss import SwapForm, swap_players

__all__ = ["entry_presence", "round_pair", "round_publish", "round_swap"]


def _manage(request: HttpRequest, pk: int) -> Tournament:
    return organiser.managed_tournament(request, pk)


def _back(tournament: Tournament, anchor: str = "swiss") -> HttpResponse:
    return redirect(organiser.manage_url(tournament, anchor))


@login_required
@require_POST
def entry_presence(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    """Check a player in (``present=1``) or out."""
    tournament = _manage(request, pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player", "tournament"), pk=entry_pk, tournament=tournament
    )
    present = request.POST.get("present") == "1"
    try:
        swiss_progression.entry_presence_set(entry=entry, present=present, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        text = _("%(name)s is checked in.") if present else _("%(name)s is checked out.")
        messages.success(request, text % {"name": entry.player.name})
    return _back(tournament, "swiss-presence")


@login_required
@require_POST
def round_pair(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _manage(request, pk)
    try:
        rnd = swiss_progression.swiss_round_pair(tournament=tournament, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("%(round)s is paired. Check the pairing, swap if needed, then publish it.")
            % {"round": rnd.name},
        )
    return _back(tournament)


def _swiss_round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number, kind=RoundKind.PAIRED)


@login_required
@require_POST
def round_publish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _manage(request, pk)
    rnd = _swiss_round(tournament, number)
    try:
        swiss_progression.swiss_round_publish(round=rnd, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("%(round)s is published: everyone sees it and its matches can be played.")
            % {"round": rnd.name},
        )
    return _back(tournament)


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _manage(request, pk)
    rnd = _swiss_round(tournament, number)
    table = swiss_standings(tournament=tournament, staff=True)
    view = next((v for v in table.round_views if v.round.pk == rnd.pk), None)
    players = swap_players(view) if view is not None else []
    form = SwapForm(request.POST, players=players)
    if form.is_valid():
        first = get_object_or_404(Player, pk=form.cleaned_data["first"])
        second = get_object_or_404(Player, pk=form.cleaned_data["second"])
        try:
            warnings = swiss_progression.swiss_pairing_swap(
                round=rnd,
                first=first,
                second=second,
                by=request.user,
                confirm=form.cleaned_data["confirm"],
            )
        except swiss_progression.SwapRefused as err:
            # Shown again with the warnings and a confirming button.
            data = request.POST.copy()
            data["confirm"] = "on"
            confirming = SwapForm(data, players=players)
            confirming.is_valid()
            confirming.warnings = list(err.extra.get("warnings", []))
            return organiser.manage_page(request, tournament, swap_form=confirming)
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            text = _("%(a)s and %(b)s have swapped places.") % {
                "a": first.name,
                "b": second.name,
            }
            if warnings:
                text += " " + _("Confirmed despite: %(warnings)s.") % {
                    "warnings": "; ".join(warnings)
                }
            messages.success(request, text)
            return _back(tournament)
    return organiser.manage_page(request, tournament, swap_form=form)
