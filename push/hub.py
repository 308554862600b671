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
- a match's message: that match's followers get ``part``; a board's, ``board``;
- a render's notice (``push.renders``): the hub waiting for it takes the answer.

An anonymous follower who asked for a part's body (``Follower.bodies``, ``push.shared``)
is told of its new version once the hub has it: the hub has the part once per version
and language (in a thread, ``Hub.rendered``; rendered by one process for all of them,
``push.renders``, ``Hub._made``), then offers that version to every
follower waiting for it, and the stream sends the body, or its changes from the answer
the follower holds (``Follower.held``: the hub knows it, it sent it), with the event.
Never for a tournament's message that says it is not public: those followers get the
"reload this part" message, and the check. A stream opening waits for the part at the
version it read (``Hub.current``), so its ``hello`` can carry the body.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import redis

from push import renders, shared
from push.broker import broker
from push.shared import PARTS, Rendered, part_render, rendered_dumps, rendered_loads, rendered_make

__all__ = ["Follower", "Hub", "hub"]

log = logging.getLogger(__name__)

READY_SECONDS = 5.0  # how long a new subscription may take before a stream gives up
# A stream sent nothing for this long is sent a comment, so proxies keep it open: one
# timer for the hub's every follower (``Hub._keepalive``), not one per stream and wait.
KEEPALIVE_SECONDS = 20.0

# The threads that ask for the shared parts (``Hub._render``): a few a second at most.
# A thread for the tournaments' parts and one for the matches': a bracket (every
# tournament follower waits for it) never queues behind the live parts of the tables
# being recorded, a few a second.
_RENDERERS = {
    "tournament": ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-render-t"),
    "match": ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-render-m"),
}

# A shared part: (its name in ``push.shared.PARTS``, its tournament's or match's id, the
# language).
Key = tuple[str, int, str]


@dataclass(eq=False)
class Follower:
    """A stream's reader: what it follows and what it has been sent."""

    tournament_id: int
    match_id: int | None = None
    bodies: dict[str, str] = field(default_factory=dict)  # event -> shared part's name
    languages: dict[str, str] = field(default_factory=dict)  # event -> its part's language
    origin: dict[str, str] = field(default_factory=dict)  # the request's host and scheme
    sent: dict[str, int] = field(default_factory=dict)  # event -> last version sent
    # event -> the ETag of the shared part's answer sent last, whose text the follower
    # holds (absent: none sent, so no text to apply changes to)
    held: dict[str, str] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    active: float = 0.0  # when it last took something to send (the loop's clock)

    def wants(self, event: str, version: int) -> bool:
        """Whether ``version`` of ``event`` is newer than what was sent or is held."""
        return version > max(self.sent.get(event, -1), self.pending.get(event, -1))

    def offer(self, event: str, version: int) -> None:
        """Hold ``version`` of ``event`` for sending, unless it or a newer one was sent or
        is held."""
        if self.wants(event, version):
            self.pending[event] = version
            self.wake.set()

    def key(self, event: str) -> Key | None:
        """The shared part this follower is sent with ``event``, if any."""
        name = self.bodies.get(event)
        if name is None:
            return None
        pk = self.match_id if PARTS[name].stream == "match" else self.tournament_id
        return None if pk is None else (name, pk, self.languages.get(event, ""))

    def take(self) -> dict[str, int]:
        """What is to be sent, now counted as sent."""
        out, self.pending = self.pending, {}
        self.wake.clear()
        self.active = asyncio.get_running_loop().time()
        for event, version in out.items():
            self.sent[event] = max(version, self.sent.get(event, -1))
        return out

    def sent_as(self, event: str, version: int) -> None:
        """``version`` of ``event`` was sent (a newer answer than asked for went out): one
        held for sending that is no newer is dropped."""
        self.sent[event] = max(version, self.sent.get(event, -1))
        if self.pending.get(event, version + 1) <= version:
            del self.pending[event]
            if not self.pending:
                self.wake.clear()


class Hub:
    """The followers of one event loop and its subscription (module doc)."""

    def __init__(self) -> None:
        self.by_tournament: dict[int, set[Follower]] = {}
        self.by_match: dict[int, set[Follower]] = {}
        self.by_key: dict[Key, set[Follower]] = {}
        self.rendered: dict[Key, Rendered] = {}  # the last answer of each shared part
        self.before: dict[Key, tuple[Rendered, ...]] = {}  # the ones before, newest first
        self.wanted: dict[Key, tuple[int, dict[str, str]]] = {}  # version to render
        self.rendering: dict[Key, asyncio.Task[None]] = {}
        # streams opening that wait for a part at a version (``current``)
        self.waiting: dict[Key, list[tuple[int, asyncio.Future[Rendered | None]]]] = {}
        # renders claimed by another process, by their name: heard when they end (``_made``)
        self.noticed: dict[str, asyncio.Future[None]] = {}
        self.task: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None  # ``_keepalive``
        self.ready = asyncio.Event()
        # the last visibility read of each (stream's reader, pk, user or None for every
        # anonymous reader), by the version it was asked at (``push.views._still_sees``)
        self.checks: dict[tuple[Any, int, int | None], tuple[int, asyncio.Future[Any]]] = {}

    @property
    def followers(self) -> int:
        return sum(len(f) for f in self.by_tournament.values())

    async def join(self, follower: Follower) -> None:
        """Add ``follower``; back once the subscription hears (``TimeoutError`` if the
        bus does not answer within ``READY_SECONDS``)."""
        self.by_tournament.setdefault(follower.tournament_id, set()).add(follower)
        if follower.match_id is not None:
            self.by_match.setdefault(follower.match_id, set()).add(follower)
        for event in follower.bodies:
            key = follower.key(event)
            if key is not None:
                self.by_key.setdefault(key, set()).add(follower)
        loop = asyncio.get_running_loop()
        follower.active = loop.time()
        if self.ticker is None or self.ticker.done():
            self.ticker = loop.create_task(self._keepalive())
        if self.task is None or self.task.done():
            self.ready = asyncio.Event()
            self.task = loop.create_task(self._run(self.ready))
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
        for event in follower.bodies:
            part = follower.key(event)
            mine_ = self.by_key.get(part) if part is not None else None
            if part is not None and mine_ is not None:
                mine_.discard(follower)
                if not mine_:  # nobody follows it here any more: forgotten
                    del self.by_key[part]
                    self.rendered.pop(part, None)
                    self.before.pop(part, None)
        if not self.by_tournament and self.task is not None:
            self.task.cancel()
            self.task = None
        if not self.by_tournament and self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    async def _keepalive(self) -> None:
        """Offer ``keepalive`` to every follower that took nothing for
        ``KEEPALIVE_SECONDS`` (checked twice in that time): its stream sends a comment."""
        loop = asyncio.get_running_loop()
        tick = 0
        while True:
            await asyncio.sleep(KEEPALIVE_SECONDS / 2)
            tick += 1
            quiet = loop.time() - KEEPALIVE_SECONDS
            for followers in list(self.by_tournament.values()):
                for follower in followers:
                    if follower.active <= quiet:
                        follower.offer("keepalive", tick)

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
        wanted: dict[Key, tuple[int, dict[str, str]]] = {}
        if kind == "t":
            version, whole = int(message["v"]), int(message["w"])
            public = bool(message["p"])
            check = not public or whole == version
            for follower in self.by_tournament.get(int(message["t"]), ()):
                self._tell(
                    follower, "part", version if follower.match_id is None else whole,
                    public, wanted,
                )  # fmt: skip
                if check:
                    follower.offer("check", version)
        elif kind in ("m", "b"):
            # not said to be public: asked as an anonymous reader, a private one's part
            # answers 404 and is sent to nobody (``push.shared.part_render``)
            event = "part" if kind == "m" else "board"
            for follower in self.by_match.get(int(message["id"]), ()):
                self._tell(follower, event, int(message["v"]), True, wanted)
        elif kind == "r":  # a render ended in some process (``_made``)
            heard = self.noticed.pop(str(message["n"]), None)
            if heard is not None and not heard.done():
                heard.set_result(None)
        else:
            log.warning("push: a message of an unknown kind: %r", kind)
        for key, (version, origin) in wanted.items():
            self._want(key, version, origin)

    def _tell(
        self,
        follower: Follower,
        event: str,
        version: int,
        public: bool,
        wanted: dict[Key, tuple[int, dict[str, str]]],
    ) -> None:
        """Offer ``version`` of ``event`` to ``follower``, or, for one sent that part's
        body, note it to be rendered first (offered once it is: ``_render``)."""
        key = follower.key(event) if public else None
        if key is None:
            follower.offer(event, version)
        elif follower.wants(event, version) and version > wanted.get(key, (-1, {}))[0]:
            wanted[key] = (version, follower.origin)

    async def current(self, key: Key, version: int, origin: dict[str, str]) -> Rendered | None:
        """The shared part ``key`` at ``version`` or newer: the one kept, else rendered (once
        for all who wait for it); None when its answer is not everyone's (``_rendered``)."""
        found = self.rendered.get(key)
        if found is not None and found.version >= version:
            return found
        waiter = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, []).append((version, waiter))
        self._want(key, version, origin, again=True)
        return await waiter

    def _want(self, key: Key, version: int, origin: dict[str, str], again: bool = False) -> None:
        """Render ``key`` at ``version`` unless it is or was already; ``again``: unless it
        is being rendered (a version rendered to no answer is asked anew by a stream)."""
        wanted = self.wanted.get(key, (-1, {}))[0]
        if version <= wanted and not (again and key not in self.rendering):
            return
        self.wanted[key] = (max(version, wanted), origin)
        if key not in self.rendering:
            loop = asyncio.get_running_loop()
            self.rendering[key] = loop.create_task(self._render(key))

    async def _render(self, key: Key) -> None:
        """Ask for the shared part ``key`` at the version wanted, keep it, and offer that
        version to its followers; again while a newer version is wanted meanwhile."""
        try:
            while True:
                version, origin = self.wanted[key]
                last = self.rendered.get(key)
                before = (() if last is None else (last,)) + self.before.get(key, ())
                before = before[: shared.HISTORY]
                try:
                    made = await self._made(key, version, origin, before)
                except Exception:
                    log.warning("push: part %r not rendered", key, exc_info=True)
                    made = None
                if made is None:
                    self.rendered.pop(key, None)  # its followers are told to ask for it
                    self.before.pop(key, None)
                elif key in self.by_key:
                    self.rendered[key] = made
                    self.before[key] = before
                self._answer(key, made, version)
                event = PARTS[key[0]].event
                for follower in list(self.by_key.get(key, ())):
                    follower.offer(event, version)
                if self.wanted.get(key, (version, {}))[0] <= version:
                    return
        finally:
            del self.rendering[key]
            self._answer(key, None, None)  # none left waiting for a render that ended
            if key not in self.by_key:
                self.wanted.pop(key, None)

    async def _made(
        self, key: Key, version: int, origin: dict[str, str], before: tuple[Rendered, ...]
    ) -> Rendered | None:
        """Part ``key`` at ``version``: rendered here when the claim on it is this
        process's, else taken from the process that renders it once it says so, or
        rendered here when it does not say so in time (``push.renders``)."""
        loop = asyncio.get_running_loop()
        pool = _RENDERERS[PARTS[key[0]].stream]
        name = renders.part_name(key, version)
        # listened for before the claim is asked: a notice cannot come before it is
        heard = self.noticed.setdefault(name, loop.create_future())
        try:
            mine, made = await loop.run_in_executor(
                pool, _claimed, name, key, version, origin, before
            )
            if mine:
                return made
            try:
                async with asyncio.timeout(renders.WAIT_SECONDS):
                    await asyncio.shield(heard)
            except TimeoutError:
                log.warning("push: %s not rendered elsewhere in time; rendered here", name)
            return await loop.run_in_executor(pool, _taken, name, key, version, origin, before)
        finally:
            if self.noticed.get(name) is heard:
                del self.noticed[name]

    def _answer(self, key: Key, made: Rendered | None, version: int | None) -> None:
        """Hand ``made`` (rendered for ``version``) to the streams waiting for that version
        or an older one; every one waiting when ``version`` is None."""
        left = []
        for wanted, waiter in self.waiting.pop(key, []):
            if version is not None and wanted > version:
                left.append((wanted, waiter))
            elif not waiter.done():
                waiter.set_result(made)
        if left:
            self.waiting[key] = left


def _claimed(
    name: str, key: Key, version: int, origin: dict[str, str], before: tuple[Rendered, ...]
) -> tuple[bool, Rendered | None]:
    """In a rendering thread: (True, the part) when the claim ``name`` was this process's
    (it renders it and shares it) or its answer is kept already; (False, None) while
    another process renders it (``push.renders``)."""
    try:
        found = renders.store().claim(name)
    except redis.RedisError:
        log.warning("push: the renders' store is unavailable; %s rendered here", name)
        return True, _rendered(key, version, origin, before)
    if found is None:
        try:
            made = _rendered(key, version, origin, before)
        except BaseException:
            _share(name, None)
            raise
        _share(name, made)
        return True, made
    if found:
        try:
            return True, rendered_loads(found)
        except ValueError:
            log.warning("push: %s kept unreadable; rendered here", name, exc_info=True)
            return True, _rendered(key, version, origin, before)
    return False, None


def _taken(
    name: str, key: Key, version: int, origin: dict[str, str], before: tuple[Rendered, ...]
) -> Rendered | None:
    """In a rendering thread: the answer another process kept under ``name``, else (none
    kept: it had no answer, or none in time) the part rendered here."""
    try:
        found = renders.store().get(name)
    except redis.RedisError:
        found = None
    if found:
        with contextlib.suppress(ValueError):
            return rendered_loads(found)
    return _rendered(key, version, origin, before)


def _share(name: str, made: Rendered | None) -> None:
    """Keep ``made`` under ``name`` (None: drop the claim) and say so on the bus."""
    try:
        renders.store().put(name, None if made is None else rendered_dumps(made))
        broker().publish([renders.notice_text(name)])
    except redis.RedisError:
        log.warning("push: %s not shared (Redis unavailable)", name, exc_info=True)


def _rendered(
    key: Key, version: int, origin: dict[str, str], before: tuple[Rendered, ...]
) -> Rendered | None:
    """Part ``key`` at ``version`` (or newer), with its changes from the answers
    ``before`` (``push.shared.rendered_make``)."""
    name, pk, language = key
    found = part_render(name=name, pk=pk, language=language, origin=origin)
    if found is None:
        return None
    tag, text = found
    return rendered_make(version, tag, text, before)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running event loop's hub."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found


async def hub_close() -> None:
    """Stop the running loop's subscription, and forget the renders shared (a test's
    end: ``push.renders.renders_forget``) and the handler that renders them (the next
    test's settings may differ, and its middleware reads them once, when made)."""
    renders.renders_forget()
    shared.handler_forget()
    found = _hubs.pop(asyncio.get_running_loop(), None)
    if found is None:
        return
    for task in [found.task, found.ticker, *found.rendering.values()]:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
