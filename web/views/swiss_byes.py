"""A Swiss's half-point byes and the taking back of a paired round, on the pages.

On the manage page (organisers): the rules (how many half-point byes each player may ask
for, until which round), every bye asked for with a button to cancel it, a form to ask for
one for a player; and, under the unpublished pairing, "Pair again" and "Take the pairing
back". On the tournament page, for a signed-in player entered in the Swiss: their own
half-point byes, with a form to ask for one and a button to cancel it.

Each post calls one service (``matches.swiss_byes``, ``matches.swiss_unpair``) and
redirects with a message; the rules and the audit are the services'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.http import found
from matches import swiss_byes, swiss_unpair
from matches.models import HalfPointBye, Match
from tournaments import selectors as tournaments_sel
from tournaments.models import (
    Entry,
    Round,
    RoundKind,
    Tournament,
    TournamentStatus,
)
from web.stage_pages import page_for

__all__ = [
    "HalfByeAskForm",
    "HalfByeRulesForm",
    "half_bye_ask",
    "half_bye_cancel",
    "half_bye_rules",
    "round_repair",
    "round_unpair",
    "swiss_byes_manage_context",
    "swiss_byes_player_context",
]


class HalfByeRulesForm(forms.Form):
    allowed = forms.IntegerField(
        label=gettext_lazy("Half-point byes per player"),
        min_value=0,
        max_value=swiss_byes.MAX_HALF_BYES,
        help_text=gettext_lazy("0: none are granted."),
    )
    until = forms.IntegerField(
        label=gettext_lazy("Up to round"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=gettext_lazy("The last round one may be asked for; empty: any round."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # labels sit above their fields, as elsewhere
        super().__init__(*args, **kwargs)


class HalfByeAskForm(forms.Form):
    entry = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    round = forms.TypedChoiceField(label=gettext_lazy("Round"), coerce=int)

    def __init__(
        self, *args: Any, entries: list[tuple[int, str]], rounds: list[int], **kwargs: Any
    ) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        entry = self.fields["entry"]
        assert isinstance(entry, forms.TypedChoiceField)
        entry.choices = entries
        rnd = self.fields["round"]
        assert isinstance(rnd, forms.TypedChoiceField)
        rnd.choices = [(n, _("Round %(n)s") % {"n": n}) for n in rounds]


@dataclass
class ByeLine:
    bye: HalfPointBye
    open: bool  # its round is not paired yet: it may be cancelled


def _paired_numbers(tournament: Tournament) -> set[int]:
    return set(
        Match.objects.filter(tournament=tournament, round__kind=RoundKind.PAIRED)
        .values_list("round__number", flat=True)
        .distinct()
    )


def _open_rounds(tournament: Tournament, paired: set[int]) -> list[int]:
    """The rounds a half-point bye may still be asked for."""
    if tournament.half_point_byes == 0 or tournament.status == TournamentStatus.FINISHED:
        return []
    last = tournament.swiss_rounds or 0
    if tournament.half_point_byes_until is not None:
        last = (
            min(last, tournament.half_point_byes_until)
            if last
            else tournament.half_point_byes_until
        )
    return [n for n in range(1, last + 1) if n not in paired]


def swiss_byes_manage_context(tournament: Tournament) -> dict[str, Any] | None:
    """The manage page's half-point byes: ``None`` outside paired rounds or once
    finished."""
    if not page_for(tournament).paired_rounds:
        return None
    if tournament.status == TournamentStatus.FINISHED:
        return None
    paired = _paired_numbers(tournament)
    byes = swiss_byes.half_point_byes_of(tournament=tournament)
    entries = sorted(
        Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).select_related(
            "player"
        ),
        key=lambda e: e.player.name.casefold(),
    )
    rounds = _open_rounds(tournament, paired)
    return {
        "rules": HalfByeRulesForm(
            initial={
                "allowed": tournament.half_point_byes,
                "until": tournament.half_point_byes_until,
            }
        ),
        "lines": [ByeLine(bye=b, open=b.round_number not in paired) for b in byes],
        "ask": HalfByeAskForm(entries=[(e.pk, e.player.name) for e in entries], rounds=rounds)
        if rounds
        else None,
    }


def swiss_byes_player_context(
    request: HttpRequest, tournament: Tournament
) -> dict[str, Any] | None:
    """The tournament page's box for the signed-in player entered in this Swiss: their
    half-point byes and the rounds they may still ask for. ``None`` when there is none."""
    user = request.user
    if tournament.half_point_byes == 0 or not user.is_authenticated:
        return None
    entry = (
        Entry.objects.filter(tournament=tournament, player__user=user, withdrawn_at__isnull=True)
        .select_related("player")
        .first()
    )
    if entry is None:
        return None
    paired = _paired_numbers(tournament)
    mine = list(HalfPointBye.objects.filter(entry=entry).order_by("round_number"))
    asked = {b.round_number for b in mine}
    rounds = [n for n in _open_rounds(tournament, paired) if n not in asked]
    left = max(tournament.half_point_byes - len(mine), 0)
    return {
        "entry": entry,
        "lines": [ByeLine(bye=b, open=b.round_number not in paired) for b in mine],
        "rounds": rounds if left and tournament.status != TournamentStatus.FINISHED else [],
        "left": left,
    }


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """To the manage page (an organiser's post) or the tournament page (a player's)."""
    if request.POST.get("back") == "page":
        return redirect(reverse("web:tournament_detail", args=[tournament.pk]) + "#half-byes")
    url = reverse("web:tournament_manage", args=[tournament.pk])
    return redirect(f"{url}#swiss-half-byes")


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return found(tournaments_sel.tournament_get, pk=pk, by=request.user)


@login_required
@require_POST
def half_bye_rules(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = HalfByeRulesForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(request, tournament)
    try:
        swiss_byes.half_point_bye_rules_set(
            tournament=tournament,
            allowed=form.cleaned_data["allowed"],
            until=form.cleaned_data["until"],
            by=request.user,
        )
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The half-point byes are set."))
    return _back(request, tournament)


@login_required
@require_POST
def half_bye_ask(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        pk=request.POST.get("entry") or 0,
        tournament=tournament,
    )
    try:
        number = int(request.POST.get("round", ""))
    except ValueError:
        messages.error(request, _("Choose a round."))
        return _back(request, tournament)
    try:
        swiss_byes.half_point_bye_ask(entry=entry, round_number=number, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("%(name)s sits out round %(n)s for half a point.")
            % {"name": entry.player.name, "n": number},
        )
    return _back(request, tournament)


@login_required
@require_POST
def half_bye_cancel(request: HttpRequest, pk: int, bye: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    found_bye = get_object_or_404(
        HalfPointBye.objects.select_related("entry__player"), pk=bye, entry__tournament=tournament
    )
    try:
        swiss_byes.half_point_bye_cancel(bye=found_bye, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("The half-point bye of %(name)s in round %(n)s is cancelled.")
            % {"name": found_bye.entry.player.name, "n": found_bye.round_number},
        )
    return _back(request, tournament)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number, kind=RoundKind.PAIRED)


def _to_pairing(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("web:tournament_manage", args=[tournament.pk]) + "#swiss")


@login_required
@require_POST
def round_unpair(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = _round(tournament, number)
    try:
        swiss_unpair.swiss_round_unpair(round=rnd, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("The pairing of %(round)s is taken back; pair it again when ready.")
            % {"round": rnd.name},
        )
    return _to_pairing(tournament)


@login_required
@require_POST
def round_repair(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = _round(tournament, number)
    try:
        swiss_unpair.swiss_round_repair(round=rnd, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("%(round)s is paired again from the players checked in now.") % {"round": rnd.name},
        )
    return _to_pairing(tournament)
