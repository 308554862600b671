"""Pages of the teams app (mounted at the site's root by config/urls.py, namespace
``teams``): a season's teams, a team, its roster editor, the keepers' page of a team."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from teams import views

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
