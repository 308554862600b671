"""Root URL configuration.

Each app adds its URLs with ONE ``include`` line in the marked block below. The
placeholder start page stays last, so an app that serves ``/`` itself takes precedence.
"""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from config.health import healthz
from config.views import home

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # --- apps: one include line each -------------------------------------------------
    # Form: path("<prefix>/", include("<app>.urls")),
    # Server-rendered pages (web app, issue "web pages").
    path("", include("web.urls")),
    # --- end of apps -------------------------------------------------------------------
    # Placeholder start page; the web app's own "" route, once it has one, comes first.
    path("", home, name="home"),
]
