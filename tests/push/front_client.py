"""Asking the ASGI server's application (``config.asgi``) for a push stream, in the test's
event loop, as uvicorn would: a scope, ``receive`` that gives the (empty) request and then
waits for the reader to leave, ``send`` that hands the answer over. A signed-in reader is
one whose ``AsyncClient`` signed in: its cookies are sent.

``send`` returns once the test has taken what it sent, as a reader that reads no further
holds the server's write back (a full socket): a stream's next event is then made only
after the test took the last one, so a test can leave a follower behind."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from django.test import AsyncClient

from config.asgi import application

WAIT = 20.0  # a guard against a hang, not a measure

# the streams asked for and not yet ended: their tasks and the events of their readers
# leaving (``push_close``)
_running: dict[asyncio.Task[None], Callable[[], None]] = {}


@dataclass
class Answer:
    status_code: int
    headers: dict[str, str]
    streaming_content: AsyncIterator[bytes]
    text: str = ""  # the body of an answer that is not a stream

    def __getitem__(self, name: str) -> str:
        return self.headers[name.lower()]


def scope_of(url: str, cookies: str = "", method: str = "GET", **headers: str) -> dict[str, Any]:
    path, _sep, query = url.partition("?")
    sent = [(b"host", b"testserver")]
    if cookies:
        sent.append((b"cookie", cookies.encode()))
    sent += [(k.lower().replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": sent,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def push_get(
    client: AsyncClient | None, url: str, method: str = "GET", **headers: str
) -> Answer:
    """The answer of ``config.asgi.application`` to ``url``; a stream's chunks come as the
    application sends them, and closing them is the reader leaving."""
    cookies = "; ".join(f"{k}={m.value}" for k, m in client.cookies.items()) if client else ""
    scope = scope_of(url, cookies, method, **headers)
    sent: asyncio.Queue[tuple[MutableMapping[str, Any], asyncio.Event] | None]
    sent = asyncio.Queue()
    left = asyncio.Event()
    waiting: set[asyncio.Event] = set()  # what was sent and not taken (``send``)
    asked = False

    def leave() -> None:
        left.set()
        for taken in waiting:  # the reader's socket is gone: nothing waits for it
            taken.set()

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await left.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if left.is_set():
            return  # as uvicorn's to a reader gone
        taken = asyncio.Event()
        waiting.add(taken)
        await sent.put((message, taken))
        await taken.wait()
        waiting.discard(taken)

    task = asyncio.get_running_loop().create_task(application(scope, receive, send))
    _running[task] = leave
    task.add_done_callback(lambda t: _running.pop(t, None))
    task.add_done_callback(lambda _t: sent.put_nowait(None))

    async def message() -> MutableMapping[str, Any]:
        found = await asyncio.wait_for(sent.get(), WAIT)
        if found is None:
            task.result()  # raises what the application raised
            raise AssertionError("the application ended without answering")
        found[1].set()
        return found[0]

    start = await message()
    assert start["type"] == "http.response.start", start
    answer_headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}

    async def chunks() -> AsyncIterator[bytes]:
        try:
            while True:
                found = await message()
                if found.get("body"):
                    yield found["body"]
                if not found.get("more_body"):
                    return
        finally:
            leave()

    answer = Answer(start["status"], answer_headers, chunks())
    if answer_headers.get("content-type") != "text/event-stream":
        answer.text = b"".join([c async for c in answer.streaming_content]).decode()
    return answer


async def push_close() -> None:
    """Every reader of a stream still open leaves, and their streams end (a test's end)."""
    for leave in list(_running.values()):
        leave()
    tasks = list(_running)
    if tasks:
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT)
