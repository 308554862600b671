"""What the broker holds: which game records have a live verification message in Redis.

The database says which records were sent a message and until when it lives
(``GameRecordSubmission.message_until``); only the broker knows whether the message is
still there. Redis runs without persistence (``scripts/services.sh``), so a Redis that
restarts (or is flushed) while records wait loses their messages, and the database still
holds them as live. ``matches.record_queue.game_records_recover`` (Celery beat) compares
the two with ``held_records`` and sends a lost record a new message.

A message is held while it waits in the verification task's queue (at every priority:
kombu's Redis transport keeps one list per priority step) or while a worker has it and has
not acknowledged it (kombu's ``unacked`` hash: with late acknowledgement, until the task
has returned, so also while it runs). A message that has expired (``expires``) is not
held: the worker that gets it discards it.
"""

from __future__ import annotations

import base64
import json
import logging
from datetime import datetime
from typing import Any

from core.registered_tasks import registered_task
from matches.task_names import VERIFY_GAME_RECORD

__all__ = ["held_records"]

log = logging.getLogger(__name__)


def held_records(now: datetime) -> set[int] | None:
    """The ids of the records with a live verification message in the broker at ``now``.

    None when it cannot tell: tasks run in-process (no broker to lose anything), the
    broker is not Redis, or it does not answer. A caller then trusts the database
    (``GAME_RECORD_MESSAGE_TTL``).
    """
    from kombu.exceptions import OperationalError
    from redis.exceptions import RedisError

    task = registered_task(VERIFY_GAME_RECORD)
    app = task.app
    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1)
            if conn.transport.driver_type != "redis":
                return None
            channel: Any = conn.default_channel
            queue = app.amqp.router.route({}, task.name)["queue"].name
            keys = dict.fromkeys(channel._q_for_pri(queue, pri) for pri in channel.priority_steps)
            client = channel.client
            waiting = [item for key in keys for item in client.lrange(key, 0, -1)]
            # kombu keeps an unacknowledged message as [message, exchange, routing key]
            taken = list(client.hvals(channel.unacked_key))
    except (OperationalError, RedisError, OSError) as err:
        log.warning("cannot read the broker's messages (%s): trusting the database", err)
        return None
    held: set[int] = set()
    for item, wrapped in [*((item, False) for item in waiting), *((item, True) for item in taken)]:
        pk = _record_of(item, task.name, now, wrapped=wrapped)
        if pk is not None:
            held.add(pk)
    return held


def _record_of(item: bytes, task: str, now: datetime, *, wrapped: bool) -> int | None:
    """The record a live verification message is for (Celery's message protocol 2: the
    task's name and expiry in the headers, ``[args, kwargs, embed]`` in the body); None
    for any other message, an expired one, or one it cannot read. ``wrapped``: kombu's
    unacknowledged form, ``[message, exchange, routing key]``."""
    try:
        message: Any = json.loads(item)
        if wrapped:
            message = message[0]
        headers = message.get("headers") or {}
        if headers.get("task") != task:
            return None
        expires = headers.get("expires")
        if expires and datetime.fromisoformat(expires) <= now:
            return None
        body = message["body"]
        if (message.get("properties") or {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0])
    except (AttributeError, KeyError, IndexError, TypeError, ValueError):
        return None
