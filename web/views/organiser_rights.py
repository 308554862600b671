"""The club administrators' page (``/organisers/``): who may create tournaments, granting
and revoking that right by user name, and the latest changes (``accounts.organiser_rights``;
who is a club administrator: ``core.permissions.can_grant_organiser``). Anyone else gets
403. Changes by ``POST`` only, with Django's CSRF check."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts import organiser_rights as rights
from core.errors import DomainError
from core.permissions import can_grant_organiser

__all__ = ["organiser_grant", "organiser_revoke", "organiser_rights"]


class GrantForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)


def _page(request: HttpRequest, form: GrantForm | None = None, status: int = 200) -> HttpResponse:
    return render(
        request,
        "web/account/organiser_rights.html",
        {
            "organisers": rights.organisers_list(by=request.user),
            "changes": list(rights.organiser_right_changes(by=request.user)),
            "form": form or GrantForm(),
        },
        status=status,
    )


def _require(request: HttpRequest) -> None:
    if not can_grant_organiser(request.user):
        raise PermissionDenied(
            _("Only club administrators may grant and revoke the organiser right.")
        )


@never_cache
@login_required
@require_GET
def organiser_rights(request: HttpRequest) -> HttpResponse:
    _require(request)
    return _page(request)


@never_cache
@login_required
@require_POST
def organiser_grant(request: HttpRequest) -> HttpResponse:
    _require(request)
    form = GrantForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        user, changed = rights.organiser_grant(
            username=form.cleaned_data["username"], by=request.user
        )
    except DomainError as err:
        form.add_error("username", err.message)
        return _page(request, form, status=400)
    name = user.get_username()
    if changed:
        messages.success(request, _("%(name)s may now create tournaments.") % {"name": name})
    else:
        messages.info(request, _("%(name)s may create tournaments already.") % {"name": name})
    return redirect("web:organiser_rights")


@never_cache
@login_required
@require_POST
def organiser_revoke(request: HttpRequest) -> HttpResponse:
    _require(request)
    try:
        user, changed = rights.organiser_revoke(
            username=request.POST.get("username", ""), by=request.user
        )
    except DomainError as err:
        messages.error(request, err.message)
        return redirect("web:organiser_rights")
    name = user.get_username()
    if changed:
        messages.success(
            request,
            _("%(name)s may no longer create tournaments (the ones they organise stay theirs).")
            % {"name": name},
        )
    else:
        messages.info(request, _("%(name)s had no organiser right given here.") % {"name": name})
    return redirect("web:organiser_rights")
