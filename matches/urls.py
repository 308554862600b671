"""API routes of the matches app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from matches import api, api_analysis, api_group_knockout, api_reports, api_rounds, api_swiss

urlpatterns: list[URLPattern] = [
    # A tournament's bracket, placings and draw, and a player's matches.
    path("players/<id:pk>/matches/", api_rounds.PlayerMatchesApi.as_view(), name="player-matches"),
    path(
        "tournaments/<id:pk>/draw/",
        api_rounds.TournamentDrawApi.as_view(),
        name="tournament-draw",
    ),
    path(
        "tournaments/<id:pk>/bracket/",
        api_rounds.TournamentBracketApi.as_view(),
        name="tournament-bracket",
    ),
    path(
        "tournaments/<id:pk>/knockout/",
        api_group_knockout.TournamentGroupKnockoutApi.as_view(),
        name="tournament-group-knockout",
    ),
    path(
        "tournaments/<id:pk>/standings/",
        api_rounds.TournamentStandingsApi.as_view(),
        name="tournament-standings",
    ),
    # A Swiss's rounds and the organiser's steps.
    path("tournaments/<id:pk>/swiss/", api_swiss.SwissRoundsApi.as_view(), name="swiss-rounds"),
    path("tournaments/<id:pk>/swiss/pair/", api_swiss.SwissPairApi.as_view(), name="swiss-pair"),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/swap/",
        api_swiss.SwissSwapApi.as_view(),
        name="swiss-swap",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/publish/",
        api_swiss.SwissPublishApi.as_view(),
        name="swiss-publish",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/unpair/",
        api_swiss.SwissUnpairApi.as_view(),
        name="swiss-unpair",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/repair/",
        api_swiss.SwissRepairApi.as_view(),
        name="swiss-repair",
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/",
        api_swiss.HalfByeApi.as_view(),
        name="swiss-half-byes",
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/rules/",
        api_swiss.HalfByeRulesApi.as_view(),
        name="swiss-half-bye-rules",
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/<id:bye>/",
        api_swiss.HalfByeDetailApi.as_view(),
        name="swiss-half-bye",
    ),
    path("entries/<id:pk>/presence/", api_swiss.EntryPresenceApi.as_view(), name="entry-presence"),
    path(
        "tournaments/<id:pk>/placings/",
        api_rounds.TournamentPlacingsApi.as_view(),
        name="tournament-placings",
    ),
    path("matches/", api.MatchListApi.as_view(), name="match-list"),
    path("matches/<id:pk>/", api.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<id:pk>/games/", api.GameListApi.as_view(), name="game-list"),
    path("matches/<id:pk>/games/<num:number>/", api.GameDetailApi.as_view(), name="game-detail"),
    path(
        "matches/<id:pk>/games/<num:number>/versions/",
        api.GameVersionsApi.as_view(),
        name="game-versions",
    ),
    path("matches/<id:pk>/walkover/", api.MatchWalkoverApi.as_view(), name="match-walkover"),
    path(
        "matches/<id:pk>/analysis/",
        api_analysis.MatchAnalysisApi.as_view(),
        name="match-analysis",
    ),
    path("matches/<id:pk>/reset/", api.MatchResetApi.as_view(), name="match-reset"),
    path("matches/<id:pk>/table/", api.MatchTableApi.as_view(), name="match-table"),
    path("matches/<id:pk>/venue/", api.MatchVenueApi.as_view(), name="match-venue"),
    path("matches/<id:pk>/flag/clear/", api.MatchFlagClearApi.as_view(), name="match-flag-clear"),
    path("matches/<id:pk>/records/", api.RecordListApi.as_view(), name="record-list"),
    path("records/<id:pk>/", api.RecordDetailApi.as_view(), name="record-detail"),
    # The players' reports of games (tournaments whose players report their results).
    path("matches/<id:pk>/reports/", api_reports.MatchReportListApi.as_view(), name="report-list"),
    path("reports/<id:pk>/", api_reports.ReportDetailApi.as_view(), name="report-detail"),
    path(
        "reports/<id:pk>/confirm/",
        api_reports.ReportConfirmApi.as_view(),
        name="report-confirm",
    ),
    path(
        "reports/<id:pk>/dispute/",
        api_reports.ReportDisputeApi.as_view(),
        name="report-dispute",
    ),
    path(
        "reports/<id:pk>/withdraw/",
        api_reports.ReportWithdrawApi.as_view(),
        name="report-withdraw",
    ),
]
