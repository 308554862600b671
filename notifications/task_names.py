"""The names the notifications app's Celery tasks are registered under
(``notifications.tasks``); the watchers and services send them by name
(``notifications.enqueue``)."""

from __future__ import annotations

__all__ = ["COLLECT", "MAIL", "READY", "RECORD"]

COLLECT = "notifications.collect"
RECORD = "notifications.record"
READY = "notifications.ready"
MAIL = "notifications.mail"
