"""The signed-in user's own page: their API token (``/account/token/``).

Create and revoke go through ``tournaments.api_token`` (services) by ``POST`` only,
with Django's CSRF check, so no link or image on another site can create or revoke
a token. The whole key is shown once, in the answer to "Create" (never stored in the
session or a message, and sent with ``Cache-Control: no-store``); afterwards the page
shows its first characters only. A lost key is revoked and a new one created.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments import api_token


def _context(request: HttpRequest) -> dict[str, Any]:
    token = api_token.api_token_get(user=request.user)
    return {
        "token": token,
        "hint": api_token.api_token_hint(token=token) if token else "",
        "api_url": request.build_absolute_uri(reverse("api:root")),
        "token_url": request.build_absolute_uri(reverse("api:token")),
        "docs_url": reverse("api:docs"),
    }


@never_cache
@login_required
@require_GET
def token(request: HttpRequest) -> HttpResponse:
    return render(request, "web/account/token.html", _context(request))


@never_cache
@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Create the token and show it this once; if one exists, say so and show its start."""
    created_token, created = api_token.api_token_create(user=request.user)
    if not created:
        messages.info(
            request,
            _("You have a token already (it begins %(hint)s). Revoke it to create a new one.")
            % {"hint": api_token.api_token_hint(token=created_token)},
        )
        return redirect("web:account_token")
    context = _context(request)
    context["new_key"] = created_token.key
    return render(request, "web/account/token.html", context, status=201)


@never_cache
@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    if api_token.api_token_revoke(user=request.user):
        messages.success(
            request, _("Your API token is revoked; scripts that use it are refused from now on.")
        )
    else:
        messages.info(request, _("You had no API token."))
    return redirect("web:account_token")
