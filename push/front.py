"""The push streams' own door in the ASGI server: ``/push/`` is served here, beside
Django's request handler rather than through it (``config/asgi.py`` sends the paths under
``PREFIX`` here, everything else to Django).

Why: a stream is a request that stays open for hours. Through Django's ``ASGIHandler``
each one holds a thread of its own for as long as it lasts (the handler runs every
request in an ``asgiref`` ``ThreadSensitiveContext``, and the sync middleware and the
request signals' receivers start that context's thread), and goes through the sync
middleware's thread hops as it opens: measured with the followers bench, 5,000 streams
made a node of 5,000 threads and ~900 MB, and a crowd opening streams waited seconds
behind those hops. Here a stream costs two tasks and no thread.

What Django's stack did for a stream is done here, the same way, and only that:

- the host is checked (``ALLOWED_HOSTS``: 400), and a plain-HTTP request is sent to HTTPS
  when ``SECURE_SSL_REDIRECT`` says so (301), as ``SecurityMiddleware`` does;
- the reader is the session's user, read as ``SessionMiddleware`` and
  ``AuthenticationMiddleware`` read it (``django.contrib.auth.get_user``: the session's
  hash checked), through the streams' reading thread (``push.views._read``); a request
  with no session cookie is an anonymous reader, with no query;
- the pages' language is the one ``web.middleware`` chooses (the cookie, else the
  default), active while the stream lives;
- the database down answers 503 with ``Retry-After``, as ``config.unavailable`` does.

The rest of the middleware concerns pages, forms and the API (CSRF, messages, sign-in
lockout, kept answers, clickjacking), none of which a stream has. The answers other than
a stream (400, 404, 405, 503) are short plain text: an ``EventSource`` only looks at the
status, and the pages then poll.

A stream ends when its reader disconnects (a task waits for ``http.disconnect`` and ends
it at once, ``Opened.leave``, so its follower leaves the hub without waiting for the next
write), when the reader may no longer see it (``closed``), or when the process's
subscription breaks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import import_module
from io import BytesIO
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _

from config.unavailable import RETRY_AFTER_SECONDS, database_down
from core.permissions import AuthUser
from push import views
from web.middleware import page_language

__all__ = ["PREFIX", "push_front"]

log = logging.getLogger(__name__)

PREFIX = "/push/"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Opener = Callable[[HttpRequest, int], Awaitable[views.Opened]]

# The streams by the Django view that names their address (``push.urls``).
OPENERS: dict[Callable[..., Any], Opener] = {
    views.tournament_stream: views.tournament_open,
    views.match_stream: views.match_open,
}

STREAM_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
    (b"x-content-type-options", b"nosniff"),
]


async def push_front(scope: Scope, receive: Receive, send: Send) -> None:
    """The ASGI application of the paths under ``PREFIX`` (module doc)."""
    request = ASGIRequest(scope, BytesIO())
    translation.activate(page_language(request))
    try:
        opened = await _opened(request)
        if isinstance(opened, tuple):
            status, text, extra = opened
            await _plain(send, status, text, extra)
            return
        await _streamed(opened, receive, send)
    finally:
        translation.deactivate()


async def _opened(
    request: ASGIRequest,
) -> views.Opened | tuple[int, str, list[tuple[bytes, bytes]]]:
    """The stream's events, or the answer in its stead: (status, text, headers)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return 400, _("Bad request."), []
    if request.method != "GET":
        return 405, _("Only GET is allowed here."), [(b"allow", b"GET")]
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        location = f"https://{host}{request.get_full_path()}"
        return 301, "", [(b"location", location.encode("latin1", "replace"))]
    try:
        found = resolve(request.path_info)
        opener = OPENERS[found.func]
    except (Resolver404, KeyError):
        return 404, _("Nothing of that to follow."), []
    try:
        request.user = await _reader(request)
        return await opener(request, int(found.kwargs["pk"]))
    except Http404 as err:
        return 404, str(err) or _("Nothing of that to follow."), []
    except Exception as err:
        # its second look asks the database: in a thread (only when a read failed)
        if not await asyncio.get_running_loop().run_in_executor(None, database_down, err):
            raise
        log.warning("database unavailable (%s): 503 for %s", type(err).__name__, request.path)
        return (
            503,
            _("The site cannot reach its database just now. Try again in a minute."),
            [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())],
        )


async def _reader(request: HttpRequest) -> AuthUser | AnonymousUser:
    """The session's user (module doc); anonymous, with no query, without a session."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not key:
        return AnonymousUser()
    return await views.read_with(_session_user, key)


def _session_user(key: str) -> AuthUser | AnonymousUser:
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return get_user(request)


async def _plain(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _streamed(opened: views.Opened, receive: Receive, send: Send) -> None:
    """Send the stream's events until they end or the reader disconnects (module doc)."""
    gone = asyncio.Event()

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()
        opened.leave()

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
        async with contextlib.aclosing(opened.events) as chunks:  # type: ignore[type-var]
            async for chunk in chunks:
                if gone.is_set():
                    break
                body = chunk.encode()
                await send({"type": "http.response.body", "body": body, "more_body": True})
        if not gone.is_set():
            await send({"type": "http.response.body", "body": b""})
    finally:
        watcher.cancel()
