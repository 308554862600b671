"""API routes of the teams app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from teams import api

urlpatterns: list[URLPattern] = [
    path("seasons/<id:pk>/teams/", api.SeasonTeamListApi.as_view(), name="season-teams"),
    path("teams/<id:pk>/", api.TeamDetailApi.as_view(), name="team-detail"),
    path("teams/<id:pk>/captains/", api.TeamCaptainsApi.as_view(), name="team-captains"),
    path("teams/<id:pk>/players/", api.TeamPlayerListApi.as_view(), name="team-players"),
    path(
        "teams/<id:pk>/players/<id:player>/",
        api.TeamPlayerDetailApi.as_view(),
        name="team-player-detail",
    ),
    path("teams/<id:pk>/boards/", api.TeamBoardsApi.as_view(), name="team-boards"),
    path(
        "teams/<id:pk>/boards/by-rating/",
        api.TeamBoardsByRatingApi.as_view(),
        name="team-boards-by-rating",
    ),
]
