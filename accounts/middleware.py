"""Status 429 and ``Retry-After`` for every answer to a locked-out sign-in."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


class SignInLockoutMiddleware:
    """A request whose sign-in the limit refused (``request.signin_lockout``, set by
    ``accounts.backends``) is answered 429 with ``Retry-After``, whichever view answered:
    the sign-in pages re-show their form (200) with the message, the API answers 429 itself;
    a password check elsewhere (401, 403) gets the same."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        lockout = getattr(request, "signin_lockout", None)
        if lockout is not None and response.status_code in (200, 400, 401, 403, 429):
            response.status_code = 429
            response["Retry-After"] = str(lockout.retry_after)
        return response
