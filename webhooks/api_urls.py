"""API routes of the webhooks app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from webhooks import api

urlpatterns: list[URLPattern] = [
    path("tournaments/<int:pk>/webhooks/", api.WebhookListApi.as_view(), name="webhook-list"),
    path(
        "tournaments/<int:pk>/webhooks/<int:hook_pk>/",
        api.WebhookDetailApi.as_view(),
        name="webhook-detail",
    ),
    path(
        "tournaments/<int:pk>/webhooks/<int:hook_pk>/deliveries/",
        api.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "tournaments/<int:pk>/webhooks/<int:hook_pk>/test/",
        api.WebhookTestApi.as_view(),
        name="webhook-test",
    ),
]
