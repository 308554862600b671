"""Live pages that cost next to nothing when nothing has changed.

The tournament page, its bracket (which htmx fetches again every ``LIVE_EVERY`` seconds),
the match page and its live part answer conditional GETs (the mechanics, shared with the
API's polled reads, are ``core.conditional``). Their validators come from the version of
what they show, bumped in the same transaction as every change of it
(``tournaments.page_versions.tournament_touch``; the match services do it in
``matches.common.lock_match``, before any match row is locked):

- the tournament page and its bracket show every match: the tournament's ``version``;
- a match's page and live part show that match: its own version (``Match.live_version``,
  stamped by every change of that match: ``matches.common.match_mark``), or the
  tournament's ``whole_version`` when something that every part shows changed later (the
  draw, entries, staff, names, the status). An entry in one match leaves the other
  matches' parts "not modified" (``matches.selectors.match_stamp``).

A poll with nothing new costs one query (``tournaments.selectors.tournament_stamp``,
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
each process's memory otherwise; ``config/settings/base.py``), each round's column under
the round's own version (the largest of its matches', ``web.views.bracket_parts``), the
language and ``RELEASE``: it is the same for everyone who may see it, so after an entry
only the round that shows it is rendered again, once (per process) for all the pollers.
The match page's live part is cached under the match's version for anonymous viewers
only (referees see links in it). A cache that fails (Redis down) is skipped, never an
error.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Protocol

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from core.conditional import (
    CACHE_SECONDS,
    RELEASE,
    cached,
    etag,
    last_modified,
    session_viewer,
    validators,
)
from core.conditional import (
    not_modified as _not_modified,
)
from tournaments.selectors import LiveStamp

__all__ = [
    "FRAGMENT_SECONDS",
    "RELEASE",
    "cache",
    "conditional",
    "etag",
    "fragment",
    "last_modified",
    "part_of",
]

# How long a rendered fragment stays in the cache (``core.conditional.cached``).
FRAGMENT_SECONDS = CACHE_SECONDS


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
            viewer = session_viewer(request)
            if stamp is None or (not stamp.is_public and not viewer):
                return view(request, pk, stamp=None)  # 404, or whatever the view says
            if len(messages.get_messages(request)):
                response = view(request, pk, stamp=stamp)
                validators(response, None, None)
                return response
            tag = etag(kind, pk, stamp, get_language() or "", viewer)
            modified = last_modified(stamp)
            if _not_modified(request, tag, modified):
                response = HttpResponseNotModified()
            else:
                response = view(request, pk, stamp=stamp)
                if response.status_code != 200:
                    return response
            validators(response, tag, modified)
            return response

        return wrapper

    return decorate


# A view of one object by its id, as the URLs call it.
PkView = Callable[[HttpRequest, int], HttpResponse]


def part_of(page: str) -> Callable[[PkView], PkView]:
    """Make a part that htmx fetches again (``hx-get``) answer htmx alone: opened as a page
    of its own (a link followed, the address typed) it sends the reader to ``page`` (a URL
    name taking the same ``pk``), the page it is part of. The bare part has neither the
    site's header nor its styles, so on a phone its table did not fold and it was wider
    than the screen. Every answer says ``Vary: HX-Request``."""

    def decorate(view: PkView) -> PkView:
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int) -> HttpResponse:
            if request.headers.get("HX-Request") == "true":
                response = view(request, pk)
            else:
                response = redirect(page, pk)
            patch_vary_headers(response, ("HX-Request",))
            return response

        return wrapper

    return decorate


def fragment(key: str, stamp: LiveStamp, build: Callable[[], str]) -> str:
    """The HTML ``build()`` makes, kept in the cache under ``key`` and the stamp, the
    language and ``RELEASE``; built afresh when the cache is missing or failing."""
    return str(cached(key, stamp, build))
