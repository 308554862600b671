"""Root URL configuration: admin, health, the REST API, sign-in, language switch, pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.views.i18n import set_language

from config.health import healthz

# A path under /api/ that matches no route answers with the API's JSON error.
handler404 = "config.errors.not_found"

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/", include("config.api_urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    # Ratings, seasons, exports and archives (clubs app, issue 15).
    path("", include("clubs.urls")),
    # Server-rendered pages (web app); it serves "/" too.
    path("", include("web.urls")),
]
