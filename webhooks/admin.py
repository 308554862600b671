"""The webhooks in the Django admin: read-only (hooks are made on the manage page or by
the API, where the secret is shown once)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from webhooks.models import Webhook, WebhookDelivery


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(ReadOnly):
    formfield_overrides: ClassVar[dict[Any, dict[str, Any]]] = {
        models.URLField: {"assume_scheme": "https"}
    }
    list_display = ("id", "tournament", "url", "created_at")
    exclude = ("secret",)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnly):
    list_display = ("id", "hook", "event", "state", "attempts", "last_status", "last_attempt_at")
    list_filter = ("state",)
