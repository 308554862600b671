"""Notifications and each person's choice of them.

- ``Notification``: one thing that waits for one user, made once (``key`` is unique: the
  source and the user, e.g. ``report-12-waiting-7``), shown on their home until read and
  mailed once (``mailed_at``, set in the same transaction as the mail is sent).
- ``NotificationChoice``: whether a user wants them on the home and by e-mail (both on
  when the user has made no choice).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from matches.models import Match
from tournaments.models import Tournament


class NotificationKind(models.TextChoices):
    MATCH_READY = "match_ready", "your match is ready"
    REPORT_WAITING = "report_waiting", "a report waits for your confirmation"
    REPORT_DISPUTED = "report_disputed", "your report was disputed"
    DISPUTE_WAITING = "dispute_waiting", "a dispute waits for a referee"
    RECORD_REJECTED = "record_rejected", "a game record was rejected"


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=NotificationKind.choices)
    key = models.CharField(max_length=120, unique=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    data: models.JSONField[Any, Any] = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = (models.Index(fields=["user", "-created_at"], name="notification_user_newest"),)

    def __str__(self) -> str:
        return f"{self.kind} for user #{self.user_id}"


class NotificationChoice(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choice"
    )
    on_home = models.BooleanField(default=True)
    by_email = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"notification choice of user #{self.user_id}"
