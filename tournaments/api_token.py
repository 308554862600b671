"""API tokens: a signed-in user creates and revokes their own token (services).

A token is what a script sends as ``Authorization: Token <key>`` (DRF's
``rest_framework.authtoken``: one token per user, no expiry). Two ways to one
token, both through these services:

- the page ``/account/token/`` (``web.views.account``) for a signed-in user;
- the endpoint ``/api/token/`` (``tournaments.api_account``): ``POST`` with
  ``username`` and ``password`` (or from a signed-in session, or with a token)
  gives the user's token, ``DELETE`` revokes it.

Decisions, as a careful club organiser would want them:

- **One token per user, handed out again while it lives.** ``POST /api/token/``
  returns the existing token (200) or a new one (201): a scheduled script that
  fetches its token each run does not break the token of another script.
  The page shows the whole key only in the answer to "Create" and afterwards its
  first ``HINT_LENGTH`` characters, so the key is not left on the screen or in a
  browser's history; a lost key is revoked and created anew.
- **Revoking** deletes the token: every script using it gets 401 at once. Revoking
  when there is no token is not an error (the wanted state holds).
- **No user enumeration.** A wrong password, an unknown user name and an inactive
  account get the same message (``CredentialsError``); Django's ``authenticate``
  runs the password hasher for unknown names too, so the answer takes as long.
  Failed sign-ins fall under the site's one limit, per user name and per client
  address (``accounts.signin_limit``): a refused attempt is ``SignInLockedError``, 429.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from core.errors import DomainError, PermissionDeniedError
from core.permissions import AuthUser, User, authenticated

# How much of a key the page shows after creation: enough to tell two tokens apart.
HINT_LENGTH = 8


class SignInLockedError(DomainError):
    """Too many failed sign-ins for the name or from the address (``accounts.signin_limit``)."""

    code = "too_many_attempts"
    status = 429


class CredentialsError(DomainError):
    """The user name and password do not sign anyone in (one message for every cause)."""

    code = "invalid_credentials"
    status = 400


def _require_signed_in(user: User) -> AuthUser:
    if not authenticated(user) or not user.is_active:
        raise PermissionDeniedError(_("Sign in to manage your API token."))
    return user


def api_token_get(*, user: User) -> Token | None:
    """The user's token, or ``None``."""
    if not authenticated(user):
        return None
    return Token.objects.filter(user=user).first()


def api_token_create(*, user: User) -> tuple[Token, bool]:
    """The user's token and whether it was created now (``False``: it existed)."""
    account = _require_signed_in(user)
    with transaction.atomic():
        token, created = Token.objects.get_or_create(user=account)
    return token, created


def api_token_revoke(*, user: User) -> bool:
    """Delete the user's token; ``True`` if there was one."""
    account = _require_signed_in(user)
    deleted, _rows = Token.objects.filter(user=account).delete()
    return deleted > 0


def api_token_hint(*, token: Token) -> str:
    """The first characters of the key, for showing which token a user has."""
    return f"{token.key[:HINT_LENGTH]}…"


def user_from_credentials(*, request: HttpRequest | None, username: str, password: str) -> AuthUser:
    """The active user these credentials sign in, else ``CredentialsError`` (or
    ``SignInLockedError`` when the sign-in limit refused to check them).

    The message never says which part was wrong, nor whether the name exists.
    """
    user = authenticate(request, username=username, password=password)
    lockout = getattr(request, "signin_lockout", None)
    if lockout is not None:
        raise SignInLockedError(lockout.message)
    if not authenticated(user) or not user.is_active:
        raise CredentialsError(
            _("Those credentials do not sign anyone in. Check the user name and password.")
        )
    return user
