"""Pages of the teams app (mounted at the site's root by config/urls.py, namespace
``teams``): a season's teams, a team, its roster editor, the keepers' page of a team."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from teams import stage_views, views

app_name = "teams"
urlpatterns: list[URLPattern] = [
    path("seasons/<id:pk>/teams/", views.season_teams, name="season_teams"),
    path("teams/<id:pk>/", views.team_detail, name="team_detail"),
    path("teams/<id:pk>/edit/", views.team_edit, name="team_edit"),
    path("teams/<id:pk>/captains/", views.team_captains, name="team_captains"),
    path("teams/<id:pk>/delete/", views.team_delete, name="team_delete"),
    path("teams/<id:pk>/roster/", views.roster_edit, name="roster_edit"),
    path("teams/<id:pk>/roster/add/", views.roster_add, name="roster_add"),
    path("teams/<id:pk>/roster/by-rating/", views.roster_by_rating, name="roster_by_rating"),
    path("teams/<id:pk>/roster/<id:player>/move/", views.roster_move, name="roster_move"),
    path("teams/<id:pk>/roster/<id:player>/remove/", views.roster_remove, name="roster_remove"),
]
urlpatterns += [
    path("tournaments/<id:pk>/team-rules/", stage_views.team_rules, name="team_rules"),
    path("tournaments/<id:pk>/team-entries/", stage_views.team_entry_add, name="team_entry_add"),
    path(
        "tournaments/<id:pk>/team-entries/<id:team>/remove/",
        stage_views.team_entry_remove,
        name="team_entry_remove",
    ),
    path(
        "tournaments/<id:pk>/team-rounds/<num:number>/pair/",
        stage_views.team_round_pair,
        name="team_round_pair",
    ),
    path(
        "tournaments/<id:pk>/team-rounds/<num:number>/schedule/",
        stage_views.team_round_schedule,
        name="team_round_schedule",
    ),
    path("team-matches/<id:pk>/", stage_views.team_match_detail, name="team_match"),
    path(
        "team-matches/<id:pk>/line-ups/<id:team>/",
        stage_views.line_up_give,
        name="line_up_give",
    ),
    path("team-matches/<id:pk>/close/", stage_views.line_ups_close, name="line_ups_close"),
]
