"""Pages of the clubs app (mounted at the site's root by config/urls.py, namespace
``clubs``): ratings, seasons, exports, the tournament archive, seeding by rating."""

from django.urls import URLPattern, path

from clubs import season_views, views
from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)

app_name = "clubs"
urlpatterns: list[URLPattern] = [
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/export.<str:fmt>", views.ratings_export, name="ratings_export"),
    path("clubs/<id:pk>/rating-formula/", views.club_rating_formula, name="club_rating_formula"),
    path("players/<id:pk>/ratings/<str:game>/", views.rating_history, name="rating_history"),
    path("seasons/", views.season_list, name="season_list"),
    path("seasons/new/", season_views.season_new, name="season_new"),
    path("seasons/<id:pk>/", views.season_detail, name="season_detail"),
    path("seasons/<id:pk>/edit/", season_views.season_edit, name="season_edit"),
    path("seasons/<id:pk>/details/", season_views.season_details, name="season_details"),
    path("seasons/<id:pk>/events/", season_views.season_event_new, name="season_event_new"),
    path(
        "seasons/<id:pk>/events/<id:event_pk>/remove/",
        season_views.season_event_delete,
        name="season_event_delete",
    ),
    path("seasons/<id:pk>/standings.<str:fmt>", views.season_export, name="season_export"),
    path("seasons/<id:pk>/import/", views.season_import, name="season_import"),
    path(
        "tournaments/<id:pk>/results.<str:fmt>",
        views.tournament_results_export,
        name="tournament_results_export",
    ),
    path(
        "tournaments/<id:pk>/placings.<str:fmt>",
        views.tournament_placings_export,
        name="tournament_placings_export",
    ),
    path("tournaments/<id:pk>/archive.zip", views.tournament_archive, name="tournament_archive"),
    path(
        "tournaments/<id:pk>/rounds/<num:number>/score-sheets.pdf",
        views.round_score_sheets,
        name="round_score_sheets",
    ),
    path(
        "tournaments/<id:pk>/rounds/<num:number>/wall-sheet.pdf",
        views.round_wall_sheet,
        name="round_wall_sheet",
    ),
    path(
        "tournaments/<id:pk>/private-links.pdf",
        views.tournament_link_slips,
        name="tournament_link_slips",
    ),
    path(
        "tournaments/<id:pk>/seeds/by-rating/",
        views.tournament_seed_by_rating,
        name="tournament_seed_by_rating",
    ),
]
