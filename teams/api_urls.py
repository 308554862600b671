"""API routes of the teams app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from teams import api, stage_api

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
    # the team stage: a team competition's table, team matches, rules and teams
    path(
        "tournaments/<id:pk>/team-table/",
        stage_api.TeamTableApi.as_view(),
        name="team-table",
    ),
    path(
        "tournaments/<id:pk>/team-table.csv",
        stage_api.TeamTableCsvApi.as_view(),
        name="team-table-csv",
    ),
    path(
        "tournaments/<id:pk>/team-matches.csv",
        stage_api.TeamFixturesCsvApi.as_view(),
        name="team-matches-csv",
    ),
    path(
        "tournaments/<id:pk>/team-matches/",
        stage_api.TeamMatchListApi.as_view(),
        name="team-matches",
    ),
    path(
        "tournaments/<id:pk>/team-rounds/<num:number>/",
        stage_api.TeamRoundScheduleApi.as_view(),
        name="team-round",
    ),
    path(
        "tournaments/<id:pk>/team-rules/",
        stage_api.TeamRulesApi.as_view(),
        name="team-rules",
    ),
    path(
        "tournaments/<id:pk>/team-entries/",
        stage_api.TeamEntryListApi.as_view(),
        name="team-entries",
    ),
    path(
        "tournaments/<id:pk>/team-entries/<id:team>/",
        stage_api.TeamEntryDetailApi.as_view(),
        name="team-entry-detail",
    ),
    path("team-matches/<id:pk>/", stage_api.TeamMatchDetailApi.as_view(), name="team-match"),
    path(
        "team-matches/<id:pk>/line-ups/",
        stage_api.LineUpApi.as_view(),
        name="team-match-line-up",
    ),
    path(
        "team-matches/<id:pk>/close/",
        stage_api.LineUpsCloseApi.as_view(),
        name="team-match-close",
    ),
]
