"""The signed-in user's invitations (``/account/invitations/``): organisers' requests to
link a player to their account (``tournaments.invitations``). The user sees who invited
them to be which player, and accepts or declines each by ``POST`` (with Django's CSRF
check, so no link on another site answers for them)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.errors import DomainError
from tournaments import invitations
from web.views.common import found

__all__ = ["invitation_accept", "invitation_decline", "invitation_list"]


@never_cache
@login_required
@require_GET
def invitation_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/account/invitations.html",
        {"invitations": list(invitations.invitation_list(by=request.user))},
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
