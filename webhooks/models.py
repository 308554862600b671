"""A tournament's webhooks, the events they are told of and each delivery's last answer.

- ``Webhook``: one URL an organiser registered for one tournament, the event kinds it
  wants and its secret (the HMAC-SHA256 key of every delivery's signature; shown once,
  when the hook is created).
- ``WebhookEvent``: one thing that happened, with the id every delivery of it carries
  (the receiver drops a second delivery of the same id) and the JSON body it is sent as.
  ``key`` names its source (an audit row, a record's verdict, …) so the same happening is
  never made into two events.
- ``WebhookDelivery``: one event to one hook: its state and its last attempt's answer
  (status, time, error, the start of the body), what the manage page's log shows.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models

from tournaments.models import Tournament


class EventKind(models.TextChoices):
    MATCH_DECIDED = "match.decided", "match decided"
    GAME_ENTERED = "game.entered", "game entered"
    GAME_CORRECTED = "game.corrected", "game corrected"
    ROUND_PUBLISHED = "round.published", "round published"
    RECORD_VERIFIED = "record.verified", "game record verified"
    RECORD_REJECTED = "record.rejected", "game record rejected"
    TOURNAMENT_FINISHED = "tournament.finished", "tournament finished"
    TEAM_MATCH_DECIDED = "team_match.decided", "team match decided"
    PING = "ping", "test event"


# What a hook may subscribe to (the test event goes to the one hook it is sent to).
SUBSCRIBABLE: tuple[str, ...] = tuple(k for k in EventKind.values if k != EventKind.PING)


def _all_kinds() -> list[str]:
    return list(SUBSCRIBABLE)


class Webhook(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events: models.JSONField[Any, Any] = models.JSONField(default=_all_kinds)
    secret = models.CharField(max_length=64)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return self.url

    def wants(self, kind: str) -> bool:
        return kind == EventKind.PING or kind in self.events


class WebhookEvent(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=120, unique=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="webhook_events"
    )
    kind = models.CharField(max_length=24, choices=EventKind.choices)
    body: models.JSONField[Any, Any] = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("created_at",)

    def __str__(self) -> str:
        return f"{self.kind} {self.id}"


class DeliveryState(models.TextChoices):
    PENDING = "pending", "waiting"
    RETRYING = "retrying", "failed, will try again"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed, given up"


class WebhookDelivery(models.Model):
    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries")
    state = models.CharField(
        max_length=10, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_response = models.CharField(max_length=1000, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_duration_ms = models.PositiveIntegerField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = (
            models.UniqueConstraint(fields=["hook", "event"], name="webhook_delivery_once"),
        )

    def __str__(self) -> str:
        return f"{self.event_id} → hook {self.hook_id}: {self.state}"
