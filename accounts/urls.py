"""Sign-up and password reset (``accounts.views``), under ``/accounts/``; the names are
Django's own (``password_reset``, ``password_reset_done``, ``password_reset_confirm``,
``password_reset_complete``), which its views redirect to."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path

from accounts.views import ResetView, SignUpView

urlpatterns: list[URLPattern] = [
    path("signup/", SignUpView.as_view(), name="signup"),
    path("password_reset/", ResetView.as_view(), name="password_reset"),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
