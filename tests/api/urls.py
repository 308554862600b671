"""Test URLconf: the API under ``/api/`` (what config/urls.py will include)."""

from django.urls import URLResolver, include, path

urlpatterns: list[URLResolver] = [path("api/", include("config.api_urls"))]
