"""``/healthz``: is the database reachable, Redis when it is configured, and does a Celery
worker answer?

A JSON body such as::

    {"status": "ok",
     "checks": {"database": {"ok": true, "vendor": "postgresql"},
                "redis": {"ok": true, "configured": true},
                "worker": {"ok": true, "configured": true, "workers": 1}}}

- **database**: ``SELECT 1``.
- **redis**: a PING with redis-py; ``{"ok": true, "configured": false}`` when ``REDIS_URL``
  is not set.
- **worker**: a Celery control ping through the broker, as this process sends its tasks
  (kombu's transport, so a transport that cannot load here fails it too), answered by the
  first worker or given up after ``WORKER_TIMEOUT``; the answer is kept
  ``WORKER_CACHE_SECONDS`` per process, so a probe every few seconds costs one broadcast
  per interval. ``{"ok": true, "configured": false, "mode": "in-process"}`` when tasks run
  in-process (eager: no ``REDIS_URL``), where no worker is needed; not asked while Redis
  is down (``{"ok": false, ..., "error": "RedisUnavailable"}``).

Status codes. 503 when something this web process needs fails: the database, Redis, or
the broker as Celery uses it (the ping raised: the process could not enqueue a task
either). Decision: when Redis answers and no worker does, 200 with ``"status":
"degraded"`` and ``worker.ok`` false, not 503. ``/healthz`` is the web machines' probe
(README, "Running ... on several machines"): a 503 would take every web machine out of the
load balancer because the worker machines are down, although the site works (uploaded
records wait as pending and are verified once a worker is back). Monitoring reads the
body (``status`` or ``checks.worker.ok``) to page someone about the workers.

Errors are reported by exception class only: the page is public and must not leak host
names or passwords.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

# Seconds to wait for Redis; a health probe must answer quickly even when Redis hangs.
REDIS_TIMEOUT = 2.0
# Seconds to wait for a worker's answer to the control ping (only spent when none answers).
WORKER_TIMEOUT = 1.0
# Seconds a process keeps the worker check's answer.
WORKER_CACHE_SECONDS = 10.0

_worker_lock = threading.Lock()
_worker_cache: tuple[float, dict[str, Any]] | None = None


def check_database(alias: str = "default") -> dict[str, Any]:
    """Run ``SELECT 1`` on the database ``alias``."""
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "vendor": connection.vendor, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_redis(url: str | None) -> dict[str, Any]:
    """PING the Redis at ``url``; not configured (``None``) counts as healthy."""
    if not url:
        return {"ok": True, "configured": False}
    client = redis.Redis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        return {"ok": False, "configured": True, "error": type(exc).__name__}
    finally:
        client.close()
    return {"ok": True, "configured": True}


def ping_workers(timeout: float) -> int:
    """How many workers answered a control ping (stops at the first answer)."""
    from config.celery import app

    return len(app.control.ping(timeout=timeout, limit=1) or [])


def check_worker(*, redis_ok: bool) -> dict[str, Any]:
    """Does a Celery worker answer? Kept ``WORKER_CACHE_SECONDS`` (see the module text)."""
    global _worker_cache
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) or not getattr(
        settings, "REDIS_URL", None
    ):
        return {"ok": True, "configured": False, "mode": "in-process"}
    if not redis_ok:
        return {"ok": False, "configured": True, "error": "RedisUnavailable"}
    with _worker_lock:
        now = time.monotonic()
        if _worker_cache is not None and now - _worker_cache[0] < WORKER_CACHE_SECONDS:
            return dict(_worker_cache[1])
        try:
            workers = ping_workers(WORKER_TIMEOUT)
        except Exception as exc:  # whatever the transport raises, the probe must answer
            result: dict[str, Any] = {"ok": False, "configured": True, "error": type(exc).__name__}
        else:
            result = {"ok": workers > 0, "configured": True, "workers": workers}
        _worker_cache = (time.monotonic(), result)
        return dict(result)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and Redis answer (``"degraded"`` when no worker does), else
    503; see the module text."""
    checks = {
        "database": check_database(),
        "redis": check_redis(getattr(settings, "REDIS_URL", None)),
    }
    checks["worker"] = check_worker(redis_ok=checks["redis"]["ok"])
    failed = any(not checks[name]["ok"] for name in ("database", "redis")) or (
        "error" in checks["worker"]
    )
    status = "error" if failed else "ok" if checks["worker"]["ok"] else "degraded"
    return JsonResponse({"status": status, "checks": checks}, status=503 if failed else 200)
