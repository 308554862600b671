"""Root URL configuration: admin, health, the REST API, sign-in, language switch, pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.views.i18n import set_language

from accounts.forms import AdminSignInForm, SignInForm
from config.health import healthz

# A request that finds the database down gets a 503 page, not a 500 (config/unavailable.py).
handler500 = "config.unavailable.server_error"
# Under /api/ every error is the API's JSON error; pages keep theirs (config/errors.py).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"

# The admin's sign-in shows the sign-in limit's message too (accounts.signin_limit).
admin.site.login_form = AdminSignInForm

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/", include("config.api_urls")),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=SignInForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Sign-up and password reset by e-mail (accounts.views).
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    # Ratings, seasons, exports and archives (the clubs app).
    path("", include("clubs.urls")),
    # A season's teams and their rosters (teams app).
    path("", include("teams.urls")),
    # A tournament's webhooks on its manage page (webhooks app).
    path("", include("webhooks.urls")),
    # The pages' change streams, served by the ASGI server (push app).
    path("", include("push.urls")),
    # Server-rendered pages (web app); it serves "/" too.
    path("", include("web.urls")),
]
