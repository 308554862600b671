"""Signing up and resetting a forgotten password, on Django's own views and forms.

- **Sign-up** (``/accounts/signup/``, ``SignUpView``): Django's ``UserCreationForm`` with
  an e-mail address (``accounts.forms.SignUpForm``). Every ``POST`` counts towards the
  sign-in limit per client address (``accounts.signin_limit.request_begin``); over it, the
  form is shown again with the lockout's message and status 429, and nothing is made.
  A new account is signed in at once and taken to its invitations
  (``/account/invitations/``), which say how to claim a player of the register: the
  club's organiser invites the account, and its user accepts there. A ``next`` on this
  site (a staff invitation's link, ``tournaments.staff_invitations``) is followed instead.
- **Password reset** (``/accounts/password_reset/`` and on): Django's
  ``PasswordResetView``, ``…DoneView``, ``…ConfirmView`` and ``…CompleteView`` with the
  site's templates. A request counts towards the limit per client address and per
  e-mail address typed; over it, the form says to wait (429) and no mail is sent.
  Otherwise the answer is the same page whether the address has an account or not
  (Django's behaviour), and the mail's link is built on ``SITE_URL``
  (``accounts.forms.ResetRequestForm``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic.edit import FormView

from accounts import signin_limit
from accounts.client_address import client_address
from accounts.forms import ResetRequestForm, SignUpForm
from accounts.signin_limit import Lockout


def _refused(request: HttpRequest, form: Any, lockout: Lockout) -> None:
    """Mark the request locked out (status 429 and ``Retry-After`` by
    ``accounts.middleware``) and put the lockout's message on the form."""
    request.signin_lockout = lockout  # type: ignore[attr-defined]
    form.add_error(None, ValidationError(lockout.message, code="too_many_attempts"))


@method_decorator([sensitive_post_parameters(), csrf_protect, never_cache], name="dispatch")
class SignUpView(FormView):  # type: ignore[type-arg]
    form_class = SignUpForm
    template_name = "registration/signup.html"

    def _next(self) -> str:
        target = self.request.POST.get("next") or self.request.GET.get("next") or ""
        allowed = url_has_allowed_host_and_scheme(
            target, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        )
        return target if allowed else ""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(next=self._next(), **kwargs)

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return HttpResponseRedirect(self._next() or reverse("web:home"))
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = self.get_form()
        lockout = signin_limit.request_begin(kind="signup", address=client_address(request))
        if lockout is not None:
            _refused(request, form, lockout)
            return self.form_invalid(form)
        if form.is_valid():
            return self.form_valid(form)
        return self.form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.save()
        login(self.request, user, backend="accounts.backends.LimitedModelBackend")
        messages.success(
            self.request,
            _("Welcome, %(name)s: your account is made and you are signed in.")
            % {"name": user.get_username()},
        )
        return HttpResponseRedirect(self._next() or reverse("web:account_invitations"))


class ResetView(auth_views.PasswordResetView):
    form_class = ResetRequestForm

    def form_valid(self, form: Any) -> HttpResponse:
        lockout = signin_limit.request_begin(
            kind="reset",
            address=client_address(self.request),
            account=str(form.cleaned_data["email"]),
        )
        if lockout is not None:
            _refused(self.request, form, lockout)
            return self.form_invalid(form)
        return super().form_valid(form)
