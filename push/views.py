"""The streams: ``GET /push/tournaments/T/`` (the tournament page, its bracket, the JSON
bracket) and ``GET /push/matches/M/`` (the match page's live part and its live board) as
Server-Sent Events.

Each stream opens with ``hello`` (the versions now) and then sends ``part`` or ``board``
with ``{"v": version}`` once per version that concerns it (``push.hub``): the page then
asks for that part as it does when it polls, with its ETag, so what a reader sees is
decided by the part's own view, never by the stream. A comment line every
``KEEPALIVE_SECONDS`` keeps proxies from closing an idle stream. ``closed`` says the
reader may no longer see what they follow (the tournament made private, the round
unpublished): the stream ends, and the page's polls get what the views answer them.

Who may open one: whoever may read the tournament or the match
(``tournaments.selectors.tournament_get``, ``matches.selectors.match_get``; others get
404, as from the pages), asked again whenever the hub says so (``check``).

Only an ASGI server holds a stream (``config/asgi.py``, uvicorn: README, "Push"); asked
through WSGI (gunicorn, the embedded default) the answer is 404 at once, so a page that
asks anyway falls back to polling.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User
from matches.models import Match
from matches.selectors import match_get
from push.hub import Follower, hub
from scoresheets.models import LiveGame
from tournaments.selectors import tournament_get

__all__ = ["KEEPALIVE_SECONDS", "match_stream", "tournament_stream"]

KEEPALIVE_SECONDS = 20.0
RETRY_MS = 3000  # how long a browser waits before reconnecting a stream that ended

# What a reader may see now: the versions by event, or None (may not see it).
Versions = dict[str, int] | None


def event(name: str, data: dict[str, int]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _tournament_now(pk: int, user: User) -> Versions:
    try:
        return {"part": tournament_get(pk=pk, by=user).version}
    except NotFoundError:
        return None
    finally:
        connection.close()  # a pool thread's: not held for the stream's life


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
    finally:
        connection.close()


async def _stream(
    request: HttpRequest, follower: Follower, now: Callable[[int, User], Versions], pk: int
) -> StreamingHttpResponse:
    if not isinstance(request, ASGIRequest):
        raise Http404(_("Push streams are served by the ASGI server only."))
    user = await request.auser()
    read = sync_to_async(now, thread_sensitive=False)
    hub_ = hub()
    try:
        await hub_.join(follower)  # subscribed before the versions are read: none missed
    except TimeoutError:
        raise Http404(_("Push is unavailable now; the page polls instead.")) from None
    versions = await read(pk, user)
    if versions is None:
        hub_.leave(follower)
        raise Http404(_("Nothing of that to follow."))
    follower.sent.update(versions)

    async def events() -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n" + event("hello", versions)
            while True:
                try:
                    await asyncio.wait_for(follower.wake.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ":\n\n"
                    continue
                pending = follower.take()
                if "gone" in pending:
                    return  # the subscription broke: the browser reconnects (``retry``)
                if "check" in pending and await read(pk, user) is None:
                    yield event("closed", {})
                    return
                out = "".join(
                    event(name, {"v": v}) for name, v in pending.items() if name != "check"
                )
                if out:
                    yield out
        finally:
            hub_.leave(follower)

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def tournament_stream(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    return await _stream(request, Follower(tournament_id=pk), _tournament_now, pk)


def _tournament_of(pk: int) -> int | None:
    try:
        return Match.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
    finally:
        connection.close()


async def match_stream(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    if not isinstance(request, ASGIRequest):  # before any query: WSGI serves no stream
        raise Http404(_("Push streams are served by the ASGI server only."))
    tournament = await sync_to_async(_tournament_of, thread_sensitive=False)(pk)
    if tournament is None:
        raise Http404(_("No such match."))
    return await _stream(request, Follower(tournament_id=tournament, match_id=pk), _match_now, pk)
