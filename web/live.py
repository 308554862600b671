"""Live pages that cost next to nothing when nothing has changed (issue 12, item 7).

The tournament page, its bracket (which htmx fetches again every ``LIVE_EVERY`` seconds),
the match page and its live part answer conditional GETs. Their validators come from one
row: the tournament's ``version`` and ``changed_at``, bumped in the same transaction as
every change of what these pages show (``tournaments.services.tournament_touch``; the
match services do it in ``matches.common.lock_match``, before any match row is locked). A
poll with nothing new costs one query (``tournaments.selectors.tournament_stamp``,
``matches.selectors.match_stamp``) and answers ``304 Not Modified`` with no body; a
signed-in viewer's costs one more, the session.

What varies, and how the validators follow it:

- **Language** (the language cookie) and **user** (the session: a referee's match page
  has links a spectator's has not): both are in the ETag, and every response says
  ``Vary: Cookie``. The user is the session's user id (and the password hash it was
  signed in with), read without loading the user, so the 304 path stays at two queries;
  a session no longer valid gets at most a 304 for what it was shown before. Changes of
  who may see or do what bump the version (staff, a player's account, ``is_public``).
- **Private tournaments**: an anonymous request for one gets no validators and no 304
  (the view answers 404). The ETag carries an HMAC of everything above (``salted_hmac``
  with the secret key): nobody can make one up, so a 304 only ever confirms what that
  viewer was shown with permission.
- **Flash messages** waiting for the next page: no 304 (the page shows and consumes them).
- **Templates and translations**: ``RELEASE``, a digest of the template and message files
  taken at start-up, is in the ETag, so a deploy that changes the markup is not answered
  with "not modified" by a page that did not otherwise change.

``Last-Modified`` is ``changed_at`` to the second (HTTP dates have no fractions), sent only
once that second is over: two changes within one second would otherwise share a date,
and a poller holding the first would be told the second was "not modified". A request
with ``If-None-Match`` is judged by it alone (RFC 9110 13.2.2).

``Cache-Control: private, no-cache``: browsers keep the page but ask every time (htmx
polls with XMLHttpRequest, which goes through the browser's cache: the browser adds
``If-None-Match`` itself and hands htmx the stored page on a 304); shared caches keep
nothing, since the pages differ by cookie.

The rendered bracket is also kept in Django's cache (Redis when ``REDIS_URL`` is set,
each process's memory otherwise; ``config/settings/base.py``), keyed by tournament,
version, language and ``RELEASE``: it is the same for everyone who may see it, so after a
change it is rendered once (per process) for all the pollers, not once per poller. The
match page's live part is cached the same way for anonymous viewers only (referees see
links in it). A cache that fails (Redis down) is skipped, never an error.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.http import http_date, parse_etags, parse_http_date_safe
from django.utils.translation import get_language

from tournaments.selectors import LiveStamp

log = logging.getLogger(__name__)

# How long a rendered fragment stays in the cache. A new version makes a new key, so this
# only bounds the memory that old versions hold.
FRAGMENT_SECONDS = 600


def _release() -> str:
    """A digest of the templates and compiled translations (names, sizes, mtimes)."""
    digest = hashlib.sha256()
    roots = [Path(settings.BASE_DIR) / "templates", *map(Path, settings.LOCALE_PATHS)]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".html", ".mo"):
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


RELEASE = _release()


def _viewer(request: HttpRequest) -> str:
    """Who the page is for: "" for anonymous, else the session's user and password hash."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return ""
    return f"{user_id}:{session.get(HASH_SESSION_KEY, '')}"


def _stamp_text(stamp: LiveStamp) -> str:
    return f"{stamp.tournament_id}.{stamp.version}.{stamp.changed_at.timestamp():.6f}"


def etag(kind: str, pk: int, stamp: LiveStamp, language: str, viewer: str) -> str:
    """A weak ETag (the full pages hold a per-render CSRF token: equal, not identical)."""
    secret = salted_hmac(
        "web.live.etag", f"{kind}|{pk}|{_stamp_text(stamp)}|{language}|{viewer}|{RELEASE}"
    ).hexdigest()[:20]
    return f'W/"{kind}-{pk}-v{stamp.version}-{language}-{secret}"'


def last_modified(stamp: LiveStamp, now: datetime | None = None) -> datetime | None:
    """``changed_at`` to the second, or None while that second is not over (module doc)."""
    second = stamp.changed_at.replace(microsecond=0)
    if (now or timezone.now()) < second + timedelta(seconds=1):
        return None
    return second


def _not_modified(request: HttpRequest, tag: str, modified: datetime | None) -> bool:
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match:
        # Weak comparison (RFC 9110 8.8.3.2): W/ does not count.
        ours = tag.removeprefix("W/")
        return any(t == "*" or t.removeprefix("W/") == ours for t in parse_etags(if_none_match))
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and modified is not None and modified.timestamp() <= since


def _validators(response: HttpResponse, tag: str | None, modified: datetime | None) -> None:
    if tag is not None:
        response["ETag"] = tag
    if modified is not None:
        response["Last-Modified"] = http_date(modified.timestamp())
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie",))


class LiveView(Protocol):
    def __call__(
        self, request: HttpRequest, pk: int, *, stamp: LiveStamp | None
    ) -> HttpResponse: ...


def conditional(
    kind: str, stamp_of: Callable[..., LiveStamp | None]
) -> Callable[[LiveView], Callable[[HttpRequest, int], HttpResponse]]:
    """Make ``view(request, pk, stamp=...)`` answer conditional GETs (module doc).

    ``stamp_of(pk=pk)`` is read before the view runs, so the page sent with an ETag is
    never older than the version it names (a change that commits meanwhile makes it
    newer, and the next poll simply gets it again). The view receives the stamp (None
    when there is none to trust) to key its cached fragments by.
    """

    def decorate(view: LiveView) -> Callable[[HttpRequest, int], HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, pk, stamp=None)
            stamp = stamp_of(pk=pk)
            viewer = _viewer(request)
            if stamp is None or (not stamp.is_public and not viewer):
                return view(request, pk, stamp=None)  # 404, or whatever the view says
            if len(messages.get_messages(request)):
                response = view(request, pk, stamp=stamp)
                _validators(response, None, None)
                return response
            tag = etag(kind, pk, stamp, get_language() or "", viewer)
            modified = last_modified(stamp)
            if _not_modified(request, tag, modified):
                response = HttpResponseNotModified()
            else:
                response = view(request, pk, stamp=stamp)
                if response.status_code != 200:
                    return response
            _validators(response, tag, modified)
            return response

        return wrapper

    return decorate


def fragment(key: str, stamp: LiveStamp, build: Callable[[], str]) -> str:
    """The HTML ``build()`` makes, kept in the cache under ``key`` and the stamp, the
    language and ``RELEASE``; built afresh when the cache is missing or failing."""
    full = f"live:{key}:{_stamp_text(stamp)}:{get_language()}:{RELEASE}"
    try:
        html: Any = cache.get(full)
    except Exception:  # the cache is an optimisation: a broken one is skipped
        log.warning("cache unavailable; rendering %s", key, exc_info=True)
        return build()
    if isinstance(html, str):
        return html
    html = build()
    try:
        cache.set(full, html, FRAGMENT_SECONDS)
    except Exception:
        log.warning("cache unavailable; not keeping %s", key, exc_info=True)
    return str(html)
