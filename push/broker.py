"""The message bus between the processes that change things and the processes that hold
the streams: Redis pub/sub on one channel when ``REDIS_URL`` is set, else a bus inside
this process (the embedded default and the tests on SQLite: the writer and the streams
are then the same process).

Decided: one channel for everything (``settings.PUSH_CHANNEL``, named after the database
so two sites or test runs on one Redis do not hear each other), and ONE subscription per
serving process (``push.hub``), which fans each message out in-process to the streams it
holds. A message is a few dozen bytes and a busy tournament day makes a handful a
second, so every process hearing every message costs nothing; a channel per tournament
would cost a subscription per tournament followed and gain nothing at this size.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from functools import cache
from typing import Protocol

import redis
import redis.asyncio as aredis
from django.conf import settings

__all__ = ["Broker", "MemoryBroker", "RedisBroker", "broker"]


class Broker(Protocol):
    def publish(self, texts: Sequence[str]) -> None:
        """Send ``texts`` to every listener, from any thread (sync: the writers are)."""

    def listen(self, ready: Callable[[], None]) -> AsyncIterator[str]:
        """Every message sent once subscribed; ``ready()`` is called when it is."""
        ...


class MemoryBroker:
    """The bus within one process: each listener's queue on its event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[str]]] = []

    def publish(self, texts: Sequence[str]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            for text in texts:
                with contextlib.suppress(RuntimeError):  # its loop closed: it is gone
                    loop.call_soon_threadsafe(queue.put_nowait, text)

    async def listen(self, ready: Callable[[], None]) -> AsyncIterator[str]:
        me = (asyncio.get_running_loop(), asyncio.Queue[str]())
        with self._lock:
            self._listeners.append(me)
        try:
            ready()
            while True:
                yield await me[1].get()
        finally:
            with self._lock:
                self._listeners.remove(me)


class RedisBroker:
    """Redis pub/sub: published with the synchronous client (one pooled connection per
    process), heard with the asyncio one (a connection per subscription)."""

    def __init__(self, url: str, channel: str) -> None:
        self.url = url
        self.channel = channel
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def publish(self, texts: Sequence[str]) -> None:
        with self._client.pipeline(transaction=False) as pipe:
            for text in texts:
                pipe.publish(self.channel, text)
            pipe.execute()

    async def listen(self, ready: Callable[[], None]) -> AsyncIterator[str]:
        client = aredis.Redis.from_url(self.url, socket_connect_timeout=2)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            async for message in pubsub.listen():
                if message["type"] == "subscribe":
                    ready()  # Redis has it: whatever is published from now on is heard
                elif message["type"] == "message":
                    yield message["data"].decode()
        finally:
            await pubsub.aclose()
            await client.aclose()


@cache
def _memory() -> MemoryBroker:
    return MemoryBroker()


@cache
def _redis(url: str, channel: str) -> RedisBroker:
    return RedisBroker(url, channel)


def broker() -> Broker:
    """This process's bus, as the settings say (module doc)."""
    url = settings.REDIS_URL
    if url:
        return _redis(url, settings.PUSH_CHANNEL)
    return _memory()
