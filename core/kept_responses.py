"""Responses kept for the crowd: a resource everyone may see and many poll (a live board
followed by a room of phones) is answered from the cache before Django handles the
request, the way a caching proxy in front of the site would, but one that knows when
the resource changed.

How it works (decided):

- **A path is registered** with the cache key of its *validator*
  (``kept_path_register``; the scoresheet registers ``/api/matches/<id>/live/`` in its
  app's ``ready``). The validator key holds a text naming the resource's current version
  while, and only while, everyone may see it; the app that changes the resource writes
  it (before its change commits) or deletes it (the resource went private or away). It
  expires after a few seconds, so what a missed write could leave behind does not last.
- **A view marks a 200** it built for a resource everyone may see with the text of the
  version it was built at (``response_keep``). ``KeptResponseMiddleware``, the outermost
  middleware (it sees the response as it leaves Django, every header set), keeps it
  under the request's key (``request_key``: the host, scheme, path, query, ``Accept``,
  ``Accept-Language``, the language cookie, ``HX-Request``: what the site's answer may
  depend on for someone not signed in). It keeps nothing for a request that carried a
  session cookie or an ``Authorization`` header (the answer may be that person's), nor a
  response that sets a cookie.
- ``KeptResponses`` **wraps the WSGI application** (``config/wsgi.py``). A GET of a
  registered path from someone without a session or credentials reads the kept response
  and the validator in one cache round trip; when the validator names the kept
  response's version it answers at once: 304 when ``If-None-Match`` names the kept ETag
  (the weak comparison of ``core.conditional``), else the kept 200. Anything else
  (nothing kept, another version, the validator gone, a cache that fails) goes to
  Django as before, which keeps the new answer.

What this costs and buys: a kept answer skips the middleware, the view and the database.
On the project's 2-core machine a live board's poll answered here took about 1 ms of a
gunicorn worker's CPU against 4 to 5 ms answered by the view (``bench/live_board_bench.py``
prints the CPU per request under its crowd). Only an ASGI server (``config/asgi.py``)
does without it.

Imports no app: the paths and their validators are registered by the apps.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase
from django.http.cookie import parse_cookie

from core.conditional import etag_matches
from core.wsgi_types import StartResponse, Wsgi

__all__ = [
    "KEPT_SECONDS",
    "Kept",
    "KeptResponseMiddleware",
    "KeptResponses",
    "kept_path_register",
    "request_key",
    "response_keep",
]

log = logging.getLogger(__name__)

# How long a kept response stays: it is answered only while its validator names its
# version, so this bounds memory, not staleness.
KEPT_SECONDS = 600

# What a view sets on a response to have it kept (``response_keep``).
_MARK = "kept_version"

# The request's headers a kept answer must have been made for (with the path, query,
# scheme and language cookie): the host (``ALLOWED_HOSTS``, and behind a proxy the
# forwarded host and scheme), the representation and language asked for, htmx.
_KEYED_HEADERS = (
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_HX_REQUEST",
)

# Headers a 304 does not repeat from the 200 it stands for.
_NOT_IN_304 = {"content-type", "content-length"}


@dataclass(frozen=True)
class Kept:
    """A kept 200: the version it was built at, its ETag, headers and body."""

    version: str
    etag: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(frozen=True)
class _Path:
    pattern: re.Pattern[str]
    validator_key: Callable[[re.Match[str]], str]


_paths: list[_Path] = []


def kept_path_register(pattern: str, validator_key: Callable[[re.Match[str]], str]) -> None:
    """Let responses of the paths that fully match ``pattern`` be kept, each valid while
    the cache key ``validator_key(match)`` holds its version (module doc). Registering
    a pattern again changes nothing (an app's ``ready()`` may run twice)."""
    compiled = re.compile(pattern)
    if all(p.pattern != compiled for p in _paths):
        _paths.append(_Path(compiled, validator_key))


def _validator_key(path: str) -> str | None:
    for registered in _paths:
        found = registered.pattern.fullmatch(path)
        if found is not None:
            return registered.validator_key(found)
    return None


def _anonymous_get(environ: dict[str, Any]) -> bool:
    """A GET from someone without a session or credentials (a language or CSRF cookie
    is no one's identity)."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_AUTHORIZATION"):
        return False
    cookie = environ.get("HTTP_COOKIE", "")
    return not cookie or settings.SESSION_COOKIE_NAME not in parse_cookie(cookie)


def request_key(environ: dict[str, Any]) -> str:
    """The cache key of the answer to this request (module doc)."""
    cookie = environ.get("HTTP_COOKIE", "")
    language = parse_cookie(cookie).get(settings.LANGUAGE_COOKIE_NAME, "") if cookie else ""
    parts = [
        str(environ.get("wsgi.url_scheme", "")),
        str(environ.get("PATH_INFO", "")),
        str(environ.get("QUERY_STRING", "")),
        language,
        *(str(environ.get(name, "")) for name in _KEYED_HEADERS),
    ]
    digest = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return f"kept:{digest}"


def response_keep(response: HttpResponseBase, *, version: str) -> HttpResponseBase:
    """Mark ``response``, a 200 built at ``version`` of a resource everyone may see, to
    be kept (``KeptResponseMiddleware``); returns it."""
    setattr(response, _MARK, version)
    return response


class KeptResponseMiddleware:
    """Keeps a marked response as it leaves Django (module doc). First in
    ``MIDDLEWARE``, so every other middleware's headers are in what it keeps."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        version = getattr(response, _MARK, None)
        if (
            version is not None
            and response.status_code == 200
            and not response.cookies
            and not response.streaming
            and _anonymous_get(request.META)
            and _validator_key(request.META.get("PATH_INFO", "")) is not None
        ):
            kept = Kept(
                version,
                response.get("ETag", ""),
                tuple(response.items()),
                response.content,  # type: ignore[attr-defined]
            )
            try:
                cache.set(request_key(request.META), kept, KEPT_SECONDS)
            except Exception:
                log.warning("cache unavailable; not keeping the response", exc_info=True)
        return response


class KeptResponses:
    """The WSGI application answering kept responses before ``app`` (module doc)."""

    def __init__(self, app: Wsgi) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        answer = _kept_answer(environ)
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]


def _kept_answer(environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
    if not _paths or not _anonymous_get(environ):
        return None
    validator = _validator_key(str(environ.get("PATH_INFO", "")))
    if validator is None:
        return None
    key = request_key(environ)
    try:
        found = cache.get_many([key, validator])
    except Exception:
        log.warning("cache unavailable; the request goes to Django", exc_info=True)
        return None
    kept = found.get(key)
    if not isinstance(kept, Kept) or found.get(validator) != kept.version:
        return None
    if kept.etag and etag_matches(environ.get("HTTP_IF_NONE_MATCH", ""), kept.etag):
        headers = [(k, v) for k, v in kept.headers if k.lower() not in _NOT_IN_304]
        return "304 Not Modified", headers, b""
    return "200 OK", list(kept.headers), kept.body
