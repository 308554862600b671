"""API routes of the webhooks app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from webhooks import api

urlpatterns: list[URLPattern] = [
    path("tournaments/<id:pk>/webhooks/", api.WebhookListApi.as_view(), name="webhook-list"),
    path(
        "tournaments/<id:pk>/webhooks/<id:hook_pk>/",
        api.WebhookDetailApi.as_view(),
        name="webhook-detail",
    ),
    path(
        "tournaments/<id:pk>/webhooks/<id:hook_pk>/deliveries/",
        api.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "tournaments/<id:pk>/webhooks/<id:hook_pk>/test/",
        api.WebhookTestApi.as_view(),
        name="webhook-test",
    ),
]
