"""Conditional requests (ETag, Last-Modified, ``304 Not Modified``) for what pages and
clients poll, shared by the live pages (``web.live``) and the API's polled reads
(``api_conditional``). Imports no app: a stamp is anything shaped like ``Stamp``
(``tournaments.selectors.LiveStamp``).

A stamp names the version of what a response shows: the tournament's for a response that
shows all of it (the bracket, the standings), a match's own for a match's parts, so a
change of one match leaves the other matches' validators as they were. The ETag carries an
HMAC (``salted_hmac`` with the secret key) of the version, the tournament's creation time,
the language, who asks and ``RELEASE``: nobody can make one up, so a 304 only ever
confirms what that viewer was shown with permission. Deciding a 304 reads the stamp (one
query) and never builds the body.

For the API, who asks is the authenticated user (DRF authenticates before the handler
runs: a token or a session), and the ``Accept`` header is in the ETag too (the browsable
API and JSON are different representations of one URL). Responses say
``Vary: Cookie, Authorization, Accept`` and ``Cache-Control: private, no-cache``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import wraps
from pathlib import Path
from typing import Any, Protocol, TypeVar

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.http import http_date, parse_etags
from django.utils.translation import get_language

log = logging.getLogger(__name__)

# How long a cached rendering stays. A new version makes a new key, so this only bounds
# the memory that old versions hold.
CACHE_SECONDS = 600


class Stamp(Protocol):
    @property
    def tournament_id(self) -> int: ...
    @property
    def is_public(self) -> bool: ...
    @property
    def version(self) -> int: ...
    @property
    def changed_at(self) -> datetime: ...
    @property
    def created_at(self) -> datetime: ...


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


def session_viewer(request: HttpRequest) -> str:
    """Who a page is for: "" for anonymous, else the session's user and password hash,
    read without loading the user."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return ""
    return f"{user_id}:{session.get(HASH_SESSION_KEY, '')}"


def stamp_text(stamp: Stamp) -> str:
    """The stamp as a key: the tournament, its creation (two tournaments given one id, as a
    test database may, are told apart) and the version of what is shown."""
    return f"{stamp.tournament_id}.{stamp.created_at.timestamp():.6f}.{stamp.version}"


def etag(kind: str, pk: int, stamp: Stamp, language: str, viewer: str) -> str:
    """A weak ETag (the full pages hold a per-render CSRF token: equal, not identical)."""
    secret = salted_hmac(
        "web.live.etag", f"{kind}|{pk}|{stamp_text(stamp)}|{language}|{viewer}|{RELEASE}"
    ).hexdigest()[:20]
    return f'W/"{kind}-{pk}-v{stamp.version}-{language}-{secret}"'


def last_modified(stamp: Stamp, now: datetime | None = None) -> datetime | None:
    """The tournament's ``changed_at`` to the second, or None while that second is not over
    (two changes within one second would share a date). For a match's part this is the
    tournament's last change, not the match's: never earlier than the part's, so an
    ``If-Modified-Since`` alone may get a 200 it did not need, never a stale 304."""
    second = stamp.changed_at.replace(microsecond=0)
    if (now or timezone.now()) < second + timedelta(seconds=1):
        return None
    return second


def not_modified(request: HttpRequest, tag: str, modified: datetime | None) -> bool:
    """Whether the reader holds this very version: only an ETag of ours says so.

    The 304 is decided before the view checks who may see the object, so it must prove
    by itself that the reader saw it: our ETags carry a keyed hash of the viewer, so one
    the reader sends back was sent to them. ``If-None-Match: *`` and a bare
    ``If-Modified-Since`` prove nothing of the kind (they would tell a stranger that a
    private tournament or an unpublished pairing exists, and since when), so they get
    the ordinary answer: a 200, or the view's 404. Browsers and htmx send the ETag they
    were given, so the crowd's polls lose nothing. ``modified`` is still sent as
    ``Last-Modified`` for caches and people; it decides no 304."""
    return etag_matches(request.headers.get("If-None-Match", ""), tag)


def etag_matches(if_none_match: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (``*`` names nothing here:
    ``not_modified``). Weak comparison (RFC 9110 8.8.3.2): W/ does not count."""
    if not if_none_match:
        return False
    ours = tag.removeprefix("W/")
    return any(t != "*" and t.removeprefix("W/") == ours for t in parse_etags(if_none_match))


def validators(
    response: HttpResponseBase,
    tag: str | None,
    modified: datetime | None,
    vary: tuple[str, ...] = ("Cookie",),
) -> None:
    if tag is not None:
        response["ETag"] = tag
    if modified is not None:
        response["Last-Modified"] = http_date(modified.timestamp())
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, vary)


def _key(key: str, stamp: Stamp) -> str:
    return f"live:{key}:{stamp_text(stamp)}:{get_language()}:{RELEASE}"


def cached(key: str, stamp: Stamp, build: Callable[[], Any]) -> Any:
    """What ``build()`` makes, kept in the cache under ``key``, the stamp, the language
    and ``RELEASE``; built afresh when the cache is missing or failing (a cache is an
    optimisation: a broken one, e.g. Redis down, is skipped, never an error)."""
    return cached_many([(key, stamp)], lambda missing: [build()])[0]


def cached_many(
    keys: Sequence[tuple[str, Stamp]], build: Callable[[list[int]], list[Any]]
) -> list[Any]:
    """``cached`` for several parts at once: one cache round trip, and one call of
    ``build(missing)`` with the positions of the parts not in the cache, which returns
    their values in that order (so the parts missing cost one build, not one each)."""
    full = [_key(key, stamp) for key, stamp in keys]
    broken = False
    try:
        found: dict[str, Any] = cache.get_many(full)
    except Exception:
        log.warning("cache unavailable; building %s", keys[0][0], exc_info=True)
        found, broken = {}, True
    missing = [i for i, k in enumerate(full) if found.get(k) is None]
    if missing:
        made = dict(zip((full[i] for i in missing), build(missing), strict=True))
        found.update(made)
        if not broken:
            try:
                cache.set_many(made, CACHE_SECONDS)
            except Exception:
                log.warning("cache unavailable; not keeping %s", keys[0][0], exc_info=True)
    return [found[k] for k in full]


V = TypeVar("V", bound=Callable[..., Any])


def api_conditional(
    kind: str,
    stamp_of: Callable[..., Stamp | None],
    quick: Callable[..., Stamp | None] | None = None,
) -> Callable[[V], V]:
    """Make a DRF view's ``get(self, request, pk)`` answer conditional requests (module
    doc). ``stamp_of(pk=pk)`` is read before the handler runs, so a body sent with an ETag
    is never older than the version it names. The handler is called with ``stamp=`` (None
    when there is none to trust) to key what it caches by.

    ``quick(pk=pk)``, where given, is a stamp kept in the cache, never older than the
    database's (its keeper's duty, e.g. ``scoresheets.stamps``): a request whose ETag
    matches it is answered 304 without ``stamp_of``; any other goes on as above, so every
    body is built under ``stamp_of``'s stamp.

    A private tournament's stamp answers nobody anonymous (the handler says 404), and a
    response other than 200 goes out without validators."""

    def decorate(method: V) -> V:
        @wraps(method)
        def wrapper(self: Any, request: Any, pk: int, *args: Any, **kwargs: Any) -> Any:
            user = request.user
            who = str(user.pk) if user.is_authenticated else ""
            variant = f"{who}|{request.headers.get('Accept', '')}|{request.GET.urlencode()}"
            if quick is not None and request.headers.get("If-None-Match"):
                kept = quick(pk=pk)
                if kept is not None and (kept.is_public or who):
                    tag = etag(kind, pk, kept, get_language() or "", variant)
                    modified = last_modified(kept)
                    if not_modified(request, tag, modified):
                        early = HttpResponseNotModified()
                        validators(early, tag, modified, ("Cookie", "Authorization", "Accept"))
                        return early
            stamp = stamp_of(pk=pk)
            if stamp is None or (not stamp.is_public and not who):
                return method(self, request, pk, *args, stamp=None, **kwargs)
            tag = etag(kind, pk, stamp, get_language() or "", variant)
            modified = last_modified(stamp)
            response: HttpResponseBase
            if not_modified(request, tag, modified):
                response = HttpResponseNotModified()
            else:
                response = method(self, request, pk, *args, stamp=stamp, **kwargs)
                if response.status_code != 200:
                    return response
            validators(response, tag, modified, ("Cookie", "Authorization", "Accept"))
            return response

        return wrapper  # type: ignore[return-value]

    return decorate


__all__ = [
    "CACHE_SECONDS",
    "RELEASE",
    "Stamp",
    "api_conditional",
    "cached",
    "cached_many",
    "etag",
    "etag_matches",
    "last_modified",
    "not_modified",
    "session_viewer",
    "stamp_text",
    "validators",
]
