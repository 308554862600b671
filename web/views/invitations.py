"""The signed-in user's invitations (``/account/invitations/``): organisers' requests to
link a player to their account (``tournaments.invitations``), and to referee or organise a
tournament (``tournaments.staff_invitations``). The user sees who invited them to what,
and accepts or declines each by ``POST`` (with Django's CSRF check, so no link on another
site answers for them). A mailed staff invitation's link (``/account/invitations/join/
<token>/``) takes it to the signed-in account (signing in or up first) and shows it here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.errors import DomainError
from core.http import found
from tournaments import invitations, staff_invitations

__all__ = [
    "invitation_accept",
    "invitation_decline",
    "invitation_list",
    "staff_invitation_accept",
    "staff_invitation_decline",
    "staff_invitation_open",
]


@never_cache
@login_required
@require_GET
def invitation_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/account/invitations.html",
        {
            "invitations": list(invitations.invitation_list(by=request.user)),
            "staff_invitations": list(staff_invitations.staff_invitation_list(by=request.user)),
        },
    )


@never_cache
@login_required
@require_POST
def invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = found(invitations.invitation_get, pk=pk, by=request.user)
    try:
        player = invitations.invitation_accept(invitation=invitation, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request, _("Your account is now linked to %(name)s.") % {"name": player.name}
        )
    return redirect("web:account_invitations")


@never_cache
@login_required
@require_POST
def invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = found(invitations.invitation_get, pk=pk, by=request.user)
    try:
        invitations.invitation_decline(invitation=invitation, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.info(
            request,
            _("You declined to be %(name)s.") % {"name": invitation.player.name},
        )
    return redirect("web:account_invitations")


def _role(invitation: Any) -> str:
    return _("organiser") if invitation.role == "organiser" else _("referee")


@never_cache
@login_required
@require_GET
def staff_invitation_open(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: the invitation becomes the signed-in account's, to accept here."""
    try:
        staff_invitations.staff_invitation_claim(token=token, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    return redirect("web:account_invitations")


@never_cache
@login_required
@require_POST
def staff_invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = found(staff_invitations.staff_invitation_get, pk=pk, by=request.user)
    try:
        staff_invitations.staff_invitation_accept(invitation=invitation, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
        return redirect("web:account_invitations")
    messages.success(
        request,
        _("You are now %(role)s of %(tournament)s.")
        % {"role": _role(invitation), "tournament": invitation.tournament.name},
    )
    return redirect("web:home")


@never_cache
@login_required
@require_POST
def staff_invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = found(staff_invitations.staff_invitation_get, pk=pk, by=request.user)
    try:
        staff_invitations.staff_invitation_decline(invitation=invitation, by=request.user)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.info(
            request,
            _("You declined to be %(role)s of %(tournament)s.")
            % {"role": _role(invitation), "tournament": invitation.tournament.name},
        )
    return redirect("web:account_invitations")
