"""The sign-in forms of the site and the admin, with the lockout's message.

Django's forms say "wrong user name or password" for every refusal; when the refusal was
the sign-in limit (``accounts.backends``), these say to wait instead (in the page's
language) and the page answers 429 (``accounts.middleware``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError


def _lockout_error(form: Any) -> ValidationError | None:
    lockout = getattr(form.request, "signin_lockout", None)
    if lockout is None:
        return None
    return ValidationError(lockout.message, code="too_many_attempts")


class SignInForm(AuthenticationForm):
    def get_invalid_login_error(self) -> ValidationError:
        return _lockout_error(self) or super().get_invalid_login_error()


class AdminSignInForm(AdminAuthenticationForm):
    def get_invalid_login_error(self) -> ValidationError:
        return _lockout_error(self) or super().get_invalid_login_error()
