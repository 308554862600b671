from django.urls import URLPattern, path

from push import views

app_name = "push"

urlpatterns: list[URLPattern] = [
    path("push/tournaments/<id:pk>/", views.tournament_stream, name="tournament"),
    path("push/matches/<id:pk>/", views.match_stream, name="match"),
]
