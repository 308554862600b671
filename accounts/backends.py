"""The authentication backend: Django's ``ModelBackend`` behind the sign-in limit.

Every way to sign in calls ``django.contrib.auth.authenticate``, which asks this backend
(the project's only one, ``AUTHENTICATION_BACKENDS``): the site's and the admin's sign-in
pages, the API's token endpoint, and any other password check. So one limit holds for
all of them (``accounts.signin_limit``).

A locked-out attempt raises ``PermissionDenied``, which makes ``authenticate`` stop and
return ``None`` without checking the password; the lockout is left on the request as
``request.signin_lockout`` for the caller's answer: the sign-in forms show its message
(``accounts.forms``), the token endpoint answers 429 (``tournaments.api_token``), and
``accounts.middleware.SignInLockoutMiddleware`` gives every such answer status 429 and
``Retry-After``. A call without a request (a script's ``authenticate()``) is counted per
account only.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import signin_limit
from accounts.client_address import client_address


class LimitedModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        address = client_address(request) if request is not None else None
        attempt, lockout = signin_limit.attempt_begin(username=str(username), address=address)
        if lockout is not None:
            if request is not None:
                request.signin_lockout = lockout  # type: ignore[attr-defined]
            raise PermissionDenied(lockout.message)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            signin_limit.attempt_succeeded(attempt=attempt, username=str(username), address=address)
        return user
