"""Enqueue a notification task after the commit: a rolled-back change tells nobody, and a
broker that is down (Redis unreachable) loses the notification — logged — never the change
nor the request that made it. A notification is a courtesy; the home's queues (reports to
confirm, disputes) still show what waits.

A task is named by its registered name (``notifications.task_names``): the task module
imports the services and the watchers, so they cannot import it (``core.registered_tasks``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction

from core.registered_tasks import registered_task

__all__ = ["later"]

log = logging.getLogger(__name__)


def later(task: str, *args: Any) -> None:
    """Enqueue the task registered as ``task`` with ``args`` once the transaction commits
    (module docstring)."""
    transaction.on_commit(partial(_send, registered_task(task).delay, args))


def _send(delay: Callable[..., Any], args: tuple[Any, ...]) -> None:
    from kombu.exceptions import OperationalError

    try:
        delay(*args)
    except (OperationalError, OSError, RuntimeError) as err:
        log.warning("notification task not sent: broker unavailable (%s)", err)
