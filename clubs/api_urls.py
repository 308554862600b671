"""API routes of the clubs app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from clubs import api, api_exports
from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)

urlpatterns: list[URLPattern] = [
    path("ratings/", api.RatingListApi.as_view(), name="rating-list"),
    path("ratings/starts/", api.RatingStartsApi.as_view(), name="rating-starts"),
    path(
        "ratings/export/<str:fmt>/", api_exports.RatingsExportApi.as_view(), name="ratings-export"
    ),
    path(
        "tournaments/<id:pk>/exports/results/<str:fmt>/",
        api_exports.ResultsExportApi.as_view(),
        name="tournament-results-export",
    ),
    path(
        "tournaments/<id:pk>/exports/placings/<str:fmt>/",
        api_exports.PlacingsExportApi.as_view(),
        name="tournament-placings-export",
    ),
    path(
        "tournaments/<id:pk>/exports/archive/",
        api_exports.ArchiveExportApi.as_view(),
        name="tournament-archive-export",
    ),
    path(
        "tournaments/<id:pk>/rounds/<num:number>/score-sheets/",
        api_exports.ScoreSheetsApi.as_view(),
        name="round-score-sheets",
    ),
    path(
        "tournaments/<id:pk>/rounds/<num:number>/wall-sheet/",
        api_exports.WallSheetApi.as_view(),
        name="round-wall-sheet",
    ),
    path("clubs/<id:pk>/rating-list/", api.ClubRatingListApi.as_view(), name="club-rating-list"),
    path("players/<id:pk>/ratings/", api.PlayerRatingsApi.as_view(), name="player-ratings"),
    path(
        "players/<id:pk>/ratings/<str:game>/",
        api.PlayerRatingHistoryApi.as_view(),
        name="player-rating-history",
    ),
    path("matches/<id:pk>/rating/", api.MatchRatingApi.as_view(), name="match-rating"),
    path(
        "tournaments/<id:pk>/seeds/by-rating/",
        api.TournamentSeedByRatingApi.as_view(),
        name="tournament-seed-by-rating",
    ),
    path("seasons/", api.SeasonListApi.as_view(), name="season-list"),
    path("seasons/<id:pk>/", api.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<id:pk>/events/", api.SeasonEventListApi.as_view(), name="season-events"),
    path(
        "seasons/<id:pk>/events/<id:tournament>/",
        api.SeasonEventDetailApi.as_view(),
        name="season-event-detail",
    ),
    path("seasons/<id:pk>/standings/", api.SeasonStandingsApi.as_view(), name="season-standings"),
    path(
        "seasons/<id:pk>/standings/export/<str:fmt>/",
        api_exports.SeasonStandingsExportApi.as_view(),
        name="season-standings-export",
    ),
    path("seasons/<id:pk>/imports/", api.SeasonImportApi.as_view(), name="season-import"),
]
