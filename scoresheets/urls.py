"""API routes of the digital scoresheet (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from scoresheets import api

urlpatterns: list[URLPattern] = [
    path("matches/<int:pk>/live/", api.MatchLiveApi.as_view(), name="match-live"),
    path("matches/<int:pk>/live/turns/", api.MatchLiveTurnsApi.as_view(), name="match-live-turns"),
]
