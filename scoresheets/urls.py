"""API routes of the digital scoresheet (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from scoresheets import api

urlpatterns: list[URLPattern] = [
    path("matches/<id:pk>/live/", api.MatchLiveApi.as_view(), name="match-live"),
    path("matches/<id:pk>/live/turns/", api.MatchLiveTurnsApi.as_view(), name="match-live-turns"),
    path(
        "matches/<id:pk>/live/flag/overrule/",
        api.MatchLiveFlagOverruleApi.as_view(),
        name="match-live-flag-overrule",
    ),
]
