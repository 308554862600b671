"""The serving side: each process that holds streams has one hub per event loop, which
keeps ONE subscription to the bus (``push.broker``) while it has followers and hands each
message to the followers it concerns, in-process.

A follower holds at most one pending version per event (``Follower.offer``): a reader
slower than the changes gets the latest version, not a queue of them, so a slow or stalled
connection costs the process a few integers, never a growing buffer; a version already
sent is never sent again ("once per version").

What a message means to whom (``push.publish`` names them):

- a tournament's message: its followers (``match_id`` None) get ``part`` at its version;
  the followers of its matches get ``part`` when the whole tournament changed (``w``);
  and when the tournament is not public, or the whole tournament changed (a round
  unpublished, staff changed), every follower of it is asked whether they may still
  see what they follow (``check``): one who may not has their stream closed;
- a match's message: that match's followers get ``part``; a board's, ``board``.

When the subscription fails (Redis restarted), every stream of the process is closed
(``gone``): the browsers reconnect after the stream's ``retry`` and refresh once, so a
message lost meanwhile costs nobody a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any

from push.broker import broker

__all__ = ["Follower", "Hub", "hub"]

log = logging.getLogger(__name__)

READY_SECONDS = 5.0  # how long a new subscription may take before a stream gives up


@dataclass(eq=False)
class Follower:
    """A stream's reader: what it follows and what it has been sent."""

    tournament_id: int
    match_id: int | None = None
    sent: dict[str, int] = field(default_factory=dict)  # event -> last version sent
    pending: dict[str, int] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, event: str, version: int) -> None:
        """Hold ``version`` of ``event`` for sending, unless it or a newer one was sent or
        is held."""
        if version > max(self.sent.get(event, -1), self.pending.get(event, -1)):
            self.pending[event] = version
            self.wake.set()

    def take(self) -> dict[str, int]:
        """What is to be sent, now counted as sent."""
        out, self.pending = self.pending, {}
        self.wake.clear()
        for event, version in out.items():
            self.sent[event] = max(version, self.sent.get(event, -1))
        return out


class Hub:
    """The followers of one event loop and its subscription (module doc)."""

    def __init__(self) -> None:
        self.by_tournament: dict[int, set[Follower]] = {}
        self.by_match: dict[int, set[Follower]] = {}
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    @property
    def followers(self) -> int:
        return sum(len(f) for f in self.by_tournament.values())

    async def join(self, follower: Follower) -> None:
        """Add ``follower``; back once the subscription hears (``TimeoutError`` if the
        bus does not answer within ``READY_SECONDS``)."""
        self.by_tournament.setdefault(follower.tournament_id, set()).add(follower)
        if follower.match_id is not None:
            self.by_match.setdefault(follower.match_id, set()).add(follower)
        if self.task is None or self.task.done():
            self.ready = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._run(self.ready))
        try:
            await asyncio.wait_for(self.ready.wait(), READY_SECONDS)
        except BaseException:
            self.leave(follower)
            raise

    def leave(self, follower: Follower) -> None:
        """Remove ``follower``; the subscription ends with the last one."""
        for index, key in ((self.by_tournament, follower.tournament_id),
                           (self.by_match, follower.match_id)):  # fmt: skip
            if key is None:
                continue
            mine = index.get(key)
            if mine is not None:
                mine.discard(follower)
                if not mine:
                    del index[key]
        if not self.by_tournament and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self, ready: asyncio.Event) -> None:
        try:
            async for text in broker().listen(ready.set):
                try:
                    self.dispatch(json.loads(text))
                except (ValueError, KeyError, TypeError):
                    log.warning("push: a message not understood: %r", text[:200])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning(
                "push: the subscription failed; closing this process's streams", exc_info=True
            )
        # the subscription ended: every stream closes, and reconnects to a new one
        for followers in list(self.by_tournament.values()):
            for follower in followers:
                follower.offer("gone", 1)

    def dispatch(self, message: dict[str, Any]) -> None:
        kind = message["k"]
        if kind == "t":
            version, whole = int(message["v"]), int(message["w"])
            check = not message["p"] or whole == version
            for follower in self.by_tournament.get(int(message["t"]), ()):
                follower.offer("part", version if follower.match_id is None else whole)
                if check:
                    follower.offer("check", version)
        elif kind in ("m", "b"):
            event = "part" if kind == "m" else "board"
            for follower in self.by_match.get(int(message["id"]), ()):
                follower.offer(event, int(message["v"]))
        else:
            log.warning("push: a message of an unknown kind: %r", kind)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running event loop's hub."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found


async def hub_close() -> None:
    """Stop the running loop's subscription (a test's end)."""
    found = _hubs.pop(asyncio.get_running_loop(), None)
    if found is not None and found.task is not None:
        found.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await found.task
