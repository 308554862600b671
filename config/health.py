"""``/healthz``: is the database reachable, and Redis when it is configured?

Answers 200 when every configured dependency answers, 503 when one does not, with a JSON
body such as::

    {"status": "ok",
     "checks": {"database": {"ok": true, "vendor": "postgresql"},
                "redis": {"ok": true}}}

Redis is reported as ``{"ok": true, "configured": false}`` when ``REDIS_URL`` is not set
(tasks then run in-process). Errors are reported by exception class only: the page is
public and must not leak host names or passwords.
"""

from __future__ import annotations

from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

# Seconds to wait for Redis; a health probe must answer quickly even when Redis hangs.
REDIS_TIMEOUT = 2.0


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


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with the state of each dependency when all are up, else 503."""
    checks = {
        "database": check_database(),
        "redis": check_redis(getattr(settings, "REDIS_URL", None)),
    }
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks},
        status=200 if healthy else 503,
    )
