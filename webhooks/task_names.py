"""The names the webhooks app's Celery tasks are registered under (``webhooks.tasks``);
services send them by name (``core.registered_tasks``)."""

from __future__ import annotations

__all__ = ["DELIVER"]

DELIVER = "webhooks.deliver"
