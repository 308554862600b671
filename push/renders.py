"""Each shared part (``push.shared``) rendered ONCE for every serving process at a version,
not once per process: two app nodes following the same bracket used to render it twice
for every entry (py-spy: the renders were about half of each node's CPU at 10,000
followers).

How (decided): before a process renders part P at version V (``part_name``) it claims it in
the store the processes share — Redis ``SET NX`` with an expiry where ``REDIS_URL`` is
set, a store in this process otherwise (the embedded default: one process; the tests) —:

- the claim is its own: it renders the part, keeps the answer in the store
  (``KEPT_SECONDS``) and says so on the bus (``notice_text``: a few dozen bytes, as every
  message there);
- another process holds the claim: it waits to hear the notice (at most
  ``WAIT_SECONDS``) and takes the answer from the store;
- the answer is there already (a stream opening asks for a version rendered a moment
  ago): it takes it at once.

Nothing is lost when this fails, the part is only rendered by the process that needs it,
as before: the store failing (Redis down: logged), the claimer not answering in time (it
died, or is slow: its claim expires after ``CLAIM_SECONDS``), or the claimer rendering
no answer (a part that is not everyone's, ``push.shared.part_render`` None, or a render
that failed: the claim is dropped, and each process asks for it itself, as before).

A name starts with the push channel's (``settings.PUSH_CHANNEL``: named after the
database, and after the worker under pytest), so two sites or test workers sharing one
Redis never take each other's answers, as they never hear each other. What is kept is the part's
answer at that version; a version names one content for a database's life, so the only
way to be handed another is a database recreated with the same ids and versions within
``KEPT_SECONDS`` (the tests: ``renders_forget`` at the end of each).
"""

from __future__ import annotations

import logging
import threading
import time
from functools import cache
from typing import Protocol

import redis
from django.conf import settings

from push.publish import message_text

__all__ = [
    "CLAIM_SECONDS",
    "KEPT_SECONDS",
    "WAIT_SECONDS",
    "MemoryStore",
    "RedisStore",
    "Store",
    "notice_text",
    "part_name",
    "renders_forget",
    "store",
]

log = logging.getLogger(__name__)

CLAIM_SECONDS = 30  # a claim not answered is forgotten after this (its process died)
KEPT_SECONDS = 60  # an answer is kept this long for the processes that come for it
WAIT_SECONDS = 5.0  # how long a process waits for another's render before its own


class Store(Protocol):
    """Where the processes claim renders and keep their answers (sync: the rendering
    threads call it)."""

    def claim(self, name: str) -> bytes | None:
        """None: the claim on ``name`` is now the caller's; b"": another's, not answered
        yet; else the answer kept."""

    def get(self, name: str) -> bytes | None:
        """The answer kept under ``name``; b"" while claimed and not answered; None when
        there is nothing (no answer was made, or it is gone)."""

    def put(self, name: str, answer: bytes | None) -> None:
        """Keep ``answer`` under ``name``; None: drop the claim (no answer to share)."""

    def forget(self, prefix: str) -> None:
        """Drop every name starting with ``prefix``."""


class MemoryStore:
    """The store within one process (the bus's ``MemoryBroker`` beside it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[bytes, float]] = {}  # name -> (answer or b"", until)

    def _found(self, name: str, now: float) -> bytes | None:
        found = self._kept.get(name)
        if found is None or found[1] <= now:
            self._kept.pop(name, None)
            return None
        return found[0]

    def claim(self, name: str) -> bytes | None:
        now = time.monotonic()
        with self._lock:
            found = self._found(name, now)
            if found is None:
                self._kept[name] = (b"", now + CLAIM_SECONDS)
            return found

    def get(self, name: str) -> bytes | None:
        with self._lock:
            return self._found(name, time.monotonic())

    def put(self, name: str, answer: bytes | None) -> None:
        with self._lock:
            if answer is None:
                self._kept.pop(name, None)
            else:
                self._kept[name] = (answer, time.monotonic() + KEPT_SECONDS)

    def forget(self, prefix: str) -> None:
        with self._lock:
            for name in [n for n in self._kept if n.startswith(prefix)]:
                del self._kept[name]


class RedisStore:
    """The store in Redis: a claim is ``SET NX EX``, an answer a ``SET EX`` over it."""

    def __init__(self, url: str) -> None:
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def claim(self, name: str) -> bytes | None:
        if self._client.set(name, b"", nx=True, ex=CLAIM_SECONDS):
            return None
        found = self._client.get(name)
        # gone between the two (an answer of none dropped, or expired): nobody has it
        # now, and asking again could race another forever; the caller waits, then renders
        return b"" if found is None else _bytes(found)

    def get(self, name: str) -> bytes | None:
        found = self._client.get(name)
        return None if found is None else _bytes(found)

    def put(self, name: str, answer: bytes | None) -> None:
        if answer is None:
            self._client.delete(name)
        else:
            self._client.set(name, answer, ex=KEPT_SECONDS)

    def forget(self, prefix: str) -> None:
        names = list(self._client.scan_iter(match=f"{prefix}*", count=1000))
        if names:
            self._client.delete(*names)


def _bytes(found: bytes | str) -> bytes:
    return found.encode() if isinstance(found, str) else found


@cache
def _memory() -> MemoryStore:
    return MemoryStore()


@cache
def _redis(url: str) -> RedisStore:
    return RedisStore(url)


def store() -> Store:
    """This process's store, as the settings say (as ``push.broker.broker``)."""
    url = settings.REDIS_URL
    return _redis(url) if url else _memory()


def _prefix() -> str:
    return f"{settings.PUSH_CHANNEL}:part:"


def part_name(key: tuple[str, int, str], version: int) -> str:
    """The store's name of shared part ``key`` (its name, id, language) at ``version``."""
    name, pk, language = key
    return f"{_prefix()}{name}:{pk}:{language}:{version}"


def notice_text(name: str) -> str:
    """The bus's message that the render claimed as ``name`` ended (``push.hub``)."""
    return message_text(k="r", n=name)


def renders_forget() -> None:
    """Forget every claim and answer of this channel (a test's end: the next test's
    database may give the same ids the same versions)."""
    try:
        store().forget(_prefix())
    except redis.RedisError:
        log.warning("push: the renders' store is unavailable; nothing forgotten", exc_info=True)
