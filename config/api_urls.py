"""The whole REST API: ``path("api/", include("config.api_urls"))`` in config/urls.py.

Each app owns its API routes (``tournaments.urls``, ``matches.urls``, ``clubs.api_urls``,
``teams.api_urls``, …); gathering them under one ``api`` namespace is the project's
business, so it lives here in ``config/`` and no app reaches into another's URL module
(the apps' layers: tests/test_layers.py checks them).

Routes are namespaced ``api`` (``reverse("api:match-detail", args=[1])``); ``api/`` lists
the main endpoints, ``api/token/`` hands out API tokens; the OpenAPI schema is at
``api/schema/`` and its docs page (Swagger UI) at ``api/docs/``.
"""

from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournaments import api_account

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", api_account.ApiRootApi.as_view(), name="root"),
    path("token/", api_account.ApiTokenApi.as_view(), name="token"),
    path("", include("tournaments.urls")),
    path("", include("matches.urls")),
    path("", include("clubs.api_urls")),  # ratings, seasons
    path("", include("teams.api_urls")),  # a season's teams and their rosters
    path("", include("webhooks.api_urls")),  # a tournament's webhooks
    path("", include("scoresheets.urls")),  # the digital scoresheet
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
