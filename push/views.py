"""The streams: ``GET /push/tournaments/T/`` (the tournament page, its bracket, the JSON
bracket) and ``GET /push/matches/M/`` (the match page's live part and its live board) as
Server-Sent Events.

Each stream opens with ``hello`` (the versions now) and then sends ``part`` or ``board``
with ``{"v": version}`` once per version that concerns it (``push.hub``): the page then
asks for that part as it does when it polls, with its ETag, so what a reader sees is
decided by the part's own view, never by the stream. ``?v=part:12,board:3`` names the
versions a client shows *and holds the text of*: a part it names at the current version
is not sent in ``hello``. A comment line after ``push.hub.KEEPALIVE_SECONDS`` of quiet
keeps proxies from closing an idle stream. ``closed`` says the reader may no longer see
what they follow (the tournament made private, the round unpublished): the stream ends,
and the page's polls get what the views answer them.

An anonymous reader may ask for the parts themselves (``?body=bracket``, ``api-bracket``
for the tournament's stream; ``?body=live,board`` for a match's: ``push.shared.PARTS``):
their events then carry the part's shared answer with its ETag (``push.shared.Rendered``:
the body, or its changes from the ETag named ``base``), so they need not ask for it. A
signed-in reader's events carry the version only, whatever they ask.

Their ``hello`` carries the part too (``"bodies": {"part": {"v", "etag", "body"}}``), as
the kept answer of the version it names (``Hub.current``), unless ``?v=`` says the
client holds that version's text already. The pages (push.js) name no version: a page
just loaded has the part on screen but not its text, which changes are applied to, so
it takes the body in ``hello`` — spread over the time followers connect — rather than
its first change whole, which every such page would get at the same moment
(``Follower.held``). A client holding nothing (no ``?v=``) so needs no request on
connecting.

Who may open one: whoever may read the tournament or the match
(``tournaments.selectors.tournament_get``, ``matches.selectors.match_get``; others get
404, as from the pages), asked again whenever the hub says so (``check``). Those reads
go through ONE thread of the process with its own database connection, kept
(``read_with``): a crowd opening streams costs a query each, not a connection each.

Only the ASGI server holds a stream, through its own door (``push.front``, mounted by
``config/asgi.py``: no Django request handler, middleware or thread per stream); asked
through Django's handlers (gunicorn, the embedded default) the answer is 404 at once, so
a page that asks anyway falls back to polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User
from matches.models import Match
from matches.selectors import match_get
from push.hub import Follower, Hub, hub
from push.shared import PARTS
from scoresheets.models import LiveGame
from tournaments.selectors import tournament_get
from web.middleware import api_language

__all__ = [
    "Opened",
    "match_open",
    "match_stream",
    "read_with",
    "reader_close",
    "tournament_open",
    "tournament_stream",
]

RETRY_MS = 3000  # how long a browser waits before reconnecting a stream that ended
# How long a stream opening waits for a part to be rendered for its hello; past it the
# hello names the version only (the page asks for the part, as a signed-in reader's does).
HELLO_RENDER_SECONDS = 10.0

# What a reader may see now: the versions by event, or None (may not see it).
Versions = dict[str, int] | None


@dataclass(frozen=True)
class Opened:
    """A stream opened: its events, as text, and its follower."""

    events: AsyncIterator[str]
    follower: Follower

    def leave(self) -> None:
        """The reader left: the events end at once (not at the next change or keep-alive),
        and the follower leaves the hub. Said, not cancelled: a cancellation that meets a
        change waking the stream can be lost (``asyncio.wait_for`` before Python 3.12)."""
        self.follower.offer("gone", 1)


def event(name: str, data: dict[str, Any]) -> str:
    return event_of(name, json.dumps(data, separators=(",", ":")))


def event_of(name: str, data: str) -> str:
    """The event ``name`` with ``data`` as JSON already."""
    return f"event: {name}\ndata: {data}\n\n"


# The one thread that reads for the streams, with its own connection, kept (module doc).
_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-read")

T = TypeVar("T")


def _kept(read: Callable[..., T], *args: Any) -> T:
    try:
        return read(*args)
    except (InterfaceError, OperationalError):  # the connection broke: once more, anew
        connection.close()
        return read(*args)


async def read_with(read: Callable[..., T], *args: Any) -> T:
    return await asyncio.get_running_loop().run_in_executor(_READER, _kept, read, *args)


async def reader_close() -> None:
    """Close the reading thread's connection (a test's end: its database is dropped)."""
    await asyncio.get_running_loop().run_in_executor(_READER, _close)


def _close() -> None:
    with contextlib.suppress(DatabaseError):  # SQLite's in-memory test database: shared
        connection.close()


async def _still_sees(
    hub_: Hub, now: Callable[[int, User], Versions], pk: int, user: User, version: int
) -> bool:
    """Whether ``user`` may still see what the stream follows, asked when the hub says so
    (``check``, at the tournament's ``version``). Every stream of the same reader and
    the same tournament or match shares one read per version (``Hub.checks``): all
    anonymous readers are one reader here, as they see the same, so a change that makes
    the crowd's streams ask costs a query per process, not a query per stream — thousands
    of them queued on the one reading thread held every stream's events back by seconds.
    A read that failed is not kept: the next stream to ask reads again."""
    key = (now, pk, user.pk if user is not None and user.is_authenticated else None)
    found = hub_.checks.get(key)
    if found is None or found[0] < version or _failed(found[1]):
        read = asyncio.ensure_future(read_with(now, pk, user))
        hub_.checks[key] = found = (version, read)
    return await asyncio.shield(found[1]) is not None


def _failed(read: asyncio.Future[Any]) -> bool:
    """Whether a shared read ended without an answer (raised, or was cancelled)."""
    return read.done() and (read.cancelled() or read.exception() is not None)


def _tournament_now(pk: int, user: User) -> Versions:
    try:
        return {"part": tournament_get(pk=pk, by=user).version}
    except NotFoundError:
        return None


def _match_now(pk: int, user: User) -> Versions:
    try:
        match = match_get(pk=pk, by=user, related=())
        board = (
            LiveGame.objects.filter(match_id=pk)
            .order_by("-number")
            .values_list("version", flat=True)
            .first()
        )
        return {
            "part": max(match.live_version, match.tournament.whole_version),
            "board": board or 0,
        }
    except NotFoundError:
        return None


def _bodies(request: HttpRequest, stream: str, user: User) -> dict[str, str]:
    """The shared parts asked for (``?body=``) that this stream carries: event -> name;
    none for a signed-in reader (module doc)."""
    if user is not None and user.is_authenticated:
        return {}
    names = [n for value in request.GET.getlist("body") for n in value.split(",")]
    return {PARTS[n].event: n for n in names if n in PARTS and PARTS[n].stream == stream}


def _shown(request: HttpRequest) -> dict[str, int]:
    """The versions the page shows (``?v=part:12,board:3``): event -> version; a pair not
    understood is left out (its part is then sent, as to a page that shows none)."""
    out: dict[str, int] = {}
    for value in request.GET.getlist("v"):
        for pair in value.split(","):
            name, _sep, number = pair.partition(":")
            if name in ("part", "board") and number.isdigit() and len(number) <= 18:
                out[name] = int(number)
    return out


def _origin(request: HttpRequest) -> dict[str, str]:
    """The request's host and scheme, for asking the shared parts as it would."""
    out = {"HTTP_HOST": request.get_host(), "wsgi.url_scheme": request.scheme or "http"}
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy and proxy[0] in request.META:
        out[proxy[0]] = request.META[proxy[0]]
    return out


def _pushed(hub_: Hub, follower: Follower, name: str, version: int) -> str:
    """The event ``name`` at ``version``: with the shared part's answer when this follower
    is sent it and the hub has it at this version or newer (the body, or its changes from
    the answer the follower holds: ``Rendered.data``), else with the version alone."""
    key = follower.key(name)
    rendered = hub_.rendered.get(key) if key is not None else None
    if rendered is None or rendered.version < version:
        return event(name, {"v": version})
    follower.sent_as(name, rendered.version)
    data = rendered.data(follower.held.get(name))
    follower.held[name] = rendered.etag
    return event_of(name, data)


async def _hello(
    hub_: Hub, follower: Follower, versions: dict[str, int], shown: dict[str, int]
) -> str:
    """The ``hello`` event: the versions now, and the shared parts this follower is sent
    whose version the page does not show (module doc)."""
    names = dict(versions)
    bodies: dict[str, str] = {}
    for name in follower.bodies:
        key = follower.key(name)
        if key is None or name not in versions or shown.get(name) == versions[name]:
            continue
        try:
            rendered = await asyncio.wait_for(
                hub_.current(key, versions[name], follower.origin), HELLO_RENDER_SECONDS
            )
        except TimeoutError:
            rendered = None
        if rendered is None:
            continue
        names[name] = rendered.version
        follower.sent_as(name, rendered.version)
        bodies[name] = rendered.data(None)
        follower.held[name] = rendered.etag
    fields = [f"{json.dumps(name)}:{version}" for name, version in names.items()]
    if bodies:
        parts = ",".join(f"{json.dumps(name)}:{data}" for name, data in bodies.items())
        fields.append(f'"bodies":{{{parts}}}')
    return event_of("hello", "{" + ",".join(fields) + "}")


async def _stream(
    request: HttpRequest,
    follower: Follower,
    now: Callable[[int, User], Versions],
    pk: int,
    stream: str,
) -> Opened:
    """The stream's events, once the reader may follow it (``Http404`` otherwise); the
    request carries its reader (``request.user``) and its pages' language active, as
    ``push.front`` makes them."""
    user: User = request.user
    follower.bodies = _bodies(request, stream, user)
    page = get_language() or settings.LANGUAGE_CODE  # the pages' (the middleware's)
    follower.languages = {
        event: api_language(request) if PARTS[name].url.startswith("api:") else page
        for event, name in follower.bodies.items()
    }
    follower.origin = _origin(request)
    shown = _shown(request)

    async def read(pk: int, user: User) -> Versions:
        return await read_with(now, pk, user)

    hub_ = hub()
    try:
        await hub_.join(follower)  # subscribed before the versions are read: none missed
    except TimeoutError:
        raise Http404(_("Push is unavailable now; the page polls instead.")) from None
    versions = await read(pk, user)
    if versions is None:
        hub_.leave(follower)
        raise Http404(_("Nothing of that to follow."))
    for name, version in versions.items():  # one held meanwhile is no newer than these
        follower.sent_as(name, version)

    async def events() -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n" + await _hello(hub_, follower, versions, shown)
            while True:
                await follower.wake.wait()
                pending = follower.take()
                if "gone" in pending:
                    # the subscription broke (the browser reconnects: ``retry``), or the
                    # reader left (``Opened.leave``)
                    return
                if "check" in pending and not await _still_sees(
                    hub_, now, pk, user, pending["check"]
                ):
                    yield event("closed", {})
                    return
                out = "".join(
                    _pushed(hub_, follower, name, v)
                    for name, v in pending.items()
                    if name not in ("check", "keepalive")
                )
                if out:
                    yield out
                elif "keepalive" in pending:
                    yield ":\n\n"
        finally:
            hub_.leave(follower)

    return Opened(events(), follower)


async def tournament_open(request: HttpRequest, pk: int) -> Opened:
    """The tournament's stream (module doc)."""
    return await _stream(request, Follower(tournament_id=pk), _tournament_now, pk, "tournament")


def _tournament_of(pk: int) -> int | None:
    return Match.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()


async def match_open(request: HttpRequest, pk: int) -> Opened:
    """The match's stream (module doc)."""
    tournament = await read_with(_tournament_of, pk)
    if tournament is None:
        raise Http404(_("No such match."))
    return await _stream(
        request, Follower(tournament_id=tournament, match_id=pk), _match_now, pk, "match"
    )


def tournament_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The stream's address in Django's own handlers: never served there (module doc)."""
    raise Http404(_("Push streams are served by the ASGI server only."))


def match_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """As ``tournament_stream``."""
    raise Http404(_("Push streams are served by the ASGI server only."))
