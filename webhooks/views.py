"""The webhooks' section of a tournament's manage page: register a URL (its secret shown
once, on the page the form answers with), delete one, send a test event. The section
itself (hooks and their delivery logs) is the ``webhooks_section`` template tag, which
the manage page includes. Only the tournament's organisers: 403 for others who can see
the tournament, 404 for those who cannot."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from core.errors import DomainError, NotFoundError, PermissionDeniedError
from core.http import found
from tournaments.models import Tournament
from webhooks import selectors, services
from webhooks.models import SUBSCRIBABLE, EventKind


def event_choices() -> list[tuple[str, Any]]:
    labels: dict[str, Any] = {
        EventKind.MATCH_DECIDED: gettext_lazy("match decided"),
        EventKind.GAME_ENTERED: gettext_lazy("game entered"),
        EventKind.GAME_CORRECTED: gettext_lazy("game corrected"),
        EventKind.ROUND_PUBLISHED: gettext_lazy("paired round published"),
        EventKind.RECORD_VERIFIED: gettext_lazy("game record verified"),
        EventKind.RECORD_REJECTED: gettext_lazy("game record rejected"),
        EventKind.TOURNAMENT_FINISHED: gettext_lazy("tournament finished"),
        EventKind.TEAM_MATCH_DECIDED: gettext_lazy("team match decided"),
    }
    return [(k, labels[k]) for k in SUBSCRIBABLE]


class WebhookForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=pgettext_lazy("webhook", "Events"),
        choices=event_choices,
        widget=forms.CheckboxSelectMultiple,
        initial=list(SUBSCRIBABLE),
    )


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        return found(selectors.managed_tournament_get, pk=pk, by=request.user)
    except PermissionDeniedError as err:
        raise PermissionDenied(err.message) from None


def _back(tournament: Tournament) -> str:
    return reverse("web:tournament_manage", args=[tournament.pk]) + "#webhooks"


@login_required
@require_POST
def webhook_create(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        messages.error(request, _("The webhook is not saved: %(why)s") % {"why": first})
        return redirect(_back(tournament))
    try:
        hook = services.hook_create(
            tournament=tournament,
            url=form.cleaned_data["url"],
            events=form.cleaned_data["events"],
            by=request.user,
        )
    except DomainError as err:
        messages.error(request, err.message)
        return redirect(_back(tournament))
    # The secret is shown on this answer only (as the API token page shows a new key).
    response = render(request, "webhooks/created.html", {"tournament": tournament, "hook": hook})
    response["Cache-Control"] = "no-store"
    return response


def _hook_action(request: HttpRequest, pk: int, hook_pk: int) -> Any:
    tournament = _tournament(request, pk)
    return found(selectors.hook_get, tournament=tournament, pk=hook_pk)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, pk: int, hook_pk: int) -> HttpResponse:
    hook = _hook_action(request, pk, hook_pk)
    services.hook_delete(hook=hook, by=request.user)
    messages.success(request, _("The webhook to %(url)s is deleted.") % {"url": hook.url})
    return redirect(_back(hook.tournament))


@login_required
@require_POST
def webhook_test(request: HttpRequest, pk: int, hook_pk: int) -> HttpResponse:
    hook = _hook_action(request, pk, hook_pk)
    try:
        services.hook_test_send(hook=hook, by=request.user)
    except NotFoundError as err:  # pragma: no cover - the hook was just found
        raise PermissionDenied(err.message) from None
    messages.success(
        request,
        _("A test event is on its way to %(url)s; its answer shows in the log below.")
        % {"url": hook.url},
    )
    return redirect(_back(hook.tournament))
