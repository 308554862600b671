"""The sign-in forms of the site and the admin, with the lockout's message; the sign-up
and password-reset forms.

Django's forms say "wrong user name or password" for every refusal; when the refusal was
the sign-in limit (``accounts.backends``), these say to wait instead (in the page's
language) and the page answers 429 (``accounts.middleware``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from core.site_address import site_root


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


class SignUpForm(UserCreationForm):
    """A new account: user name, e-mail address, the password twice (Django's
    ``UserCreationForm``, with its password validators).

    Decisions, as a careful club organiser would want them:

    - **A taken user name** (in any case: ``Anna`` when ``anna`` exists) gets the same
      message as any user name the site will not take: "This user name cannot be used;
      choose another." A person must be able to pick another name, so the form cannot
      hide that this one failed; it does not say that an account has it, and every try
      counts towards the sign-in limit (``accounts.signin_limit.request_begin``), so
      nobody lists the site's user names through this form.
    - **The e-mail address need not be unique**: a sign-up with an address that has an
      account already is made like any other, so the form tells nothing about which
      addresses have accounts. A password-reset mail goes to every account of the
      address, each naming its user name.
    """

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        help_text=gettext_lazy("For a new password if you forget yours; never shown to others."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = gettext_lazy("User name")
        self.fields["username"].help_text = gettext_lazy(
            "Letters, digits and @ . + - _ only. Organisers and referees see it."
        )
        self.fields["password1"].label = gettext_lazy("Password")
        self.fields["password2"].label = gettext_lazy("Password again")
        self.fields["password2"].help_text = ""

    def clean_username(self) -> str:
        username = str(self.cleaned_data.get("username") or "")
        model = self._meta.model
        if model._default_manager.filter(username__iexact=username).exists():
            raise ValidationError(
                gettext_lazy("This user name cannot be used; choose another."),
                code="username_unavailable",
            )
        return username


class ResetRequestForm(PasswordResetForm):
    """Django's password-reset form; the mail's link uses the site's public address
    (``core.site_address``), whatever address the request came by."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        context["site_root"] = site_root()
        super().send_mail(
            subject_template_name,
            email_template_name,
            context,
            from_email,
            to_email,
            html_email_template_name,
        )
