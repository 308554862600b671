"""Followers pushed to: two app nodes on PostgreSQL and Redis, a 256-player knockout being
played, and a crowd that follows it through the push streams (push/) instead of polling.

    .venv/bin/python bench/followers_bench.py                              # 10,000, 5 min
    .venv/bin/python bench/followers_bench.py --followers 1000 --seconds 60

Each node is a uvicorn (``config.asgi``: the streams, one Redis subscription each) and a
gunicorn of sync workers (the pages and parts, as README's deployment serves them behind
one proxy that sends ``/push/`` to uvicorn); node A on ``--port``, node B beside it.
Followers are spread over the two nodes; the referee enters a game every ``--entry-every``
seconds through node A's API, and ``--tables`` tables record a live game each through node
A (a turn every ``--turn-every`` s, as bench/live_board_bench.py): so every change a
follower on node B sees went from node A through Redis.

The mix (as bench/live_bench.py): 70% the tournament page's bracket (stream
``/push/tournaments/T/``, then ``/tournaments/T/bracket/`` asked with htmx's headers and
its ETag), 20% a recorded match's live board (``/push/matches/M/``; a ``board`` event
makes it ask ``/api/matches/M/live/``, a ``part`` event the live part), 10% the JSON
bracket's client (the tournament's stream, then ``/api/tournaments/T/bracket/``). They
connect over ``--ramp`` seconds and behave as push.js does: an event carrying the part (its
body, or its changes from the answer they hold) is applied, any other asks for the part
with its ETag (``--no-fetch``: the events only). On connecting, a bracket follower stands
for a browser that has just loaded the tournament page (the version it shows: the last
the bench knows, ``Known``); as push.js, no follower names a version in its stream's
address (the page shows the bracket but does not hold its text), so ``hello`` carries
every public part whole. A ``hello`` naming a version the follower does not show and
carrying no part makes it ask for the part. The load generator steps back
(``--client-nice``) and the tables post from a process of their own, as in
live_board_bench.py; the crowd reads each stream's bytes in the loop's own callback as
they arrive (``EventReader``), the time of arrival taken there, so its own cost stays
small beside the nodes' (its CPU is printed). The file limit is raised here
(``RLIMIT_NOFILE``, inherited by the nodes: checked on uvicorn's, and the bench stops
when it is below what the followers need).

Printed: the latency from each change's commit to its event arriving at each follower
concerned, p50/p99/max, apart for node B's followers (a table's turn to its board's
followers too); the same at ``--probes`` bracket followers in a process of their own, not
stepped back, which measures the nodes' delivery without the crowd's own delays (one
process holding every other stream on the same cores; its CPU is printed too); the same
from the moment the change's request was sent (which adds the write's own time, queued
behind the followers' fetches in node A's gunicorn) and to the part fetched; how long the
writes took; dropped streams (ended or failed before the end), errors (a stream not 200, a
fetch not 200/304, a failed connection); each node's CPU (uvicorn, gunicorn) and memory
(RSS of each process group, summed: before the followers, after the ramp, at the end);
what ``hello`` did; the load average before and after, and on each figure line the load
average at the end of the measured part. Figures only.

A change's commit is when the bench's own subscription to the push channel heard it
published (``_heard``: the publisher sends it once the transaction commits), in a process
of its own. The writers stop ``SETTLE`` seconds before the followers do, and a writer that
fell behind its schedule skips the entries it missed rather than sending them in a burst
(``next_slot``): so every change counted had time to reach the followers, and a follower
counted as missing one was connected while it was pushed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_bench import HTMX, JSON, Entry, version_of  # noqa: E402
from live_board_bench import Save, table, table_start  # noqa: E402
from reliability import Client, Processes, RedisServer, wait_for  # noqa: E402
from serving import (  # noqa: E402
    database,
    group_cpu_seconds,
    group_rss_bytes,
    load,
    percentile,
)

DB_NAME = "brade_followers"
MAX_FOLLOWERS = 12000
MAX_SECONDS = 900.0
MIX = (("bracket", 0.7), ("live board", 0.2), ("JSON bracket", 0.1))
SETTLE = 5.0  # the writers stop this long before the followers stop reading (module doc)


def populate(players: int) -> tuple[int, str, list[int]]:
    from live_bench import populate as made

    return made(players)


def playable(tournament: int, skip: set[int]) -> tuple[int, int] | None:
    """The first match ready or being played that no table records; its next game."""
    from matches.models import Match, MatchState

    match = (
        Match.objects.filter(
            tournament_id=tournament, state__in=(MatchState.READY, MatchState.PLAYING)
        )
        .exclude(pk__in=skip)
        .order_by("round__number", "slot")
        .first()
    )
    if match is None:
        return None
    return match.pk, match.games.filter(voided_at__isnull=True).count() + 1


def next_slot(at: float, every: float, now: float) -> float:
    """The writer's next moment after ``at``: ``every`` later, or, when it fell behind (a
    write took longer than ``every``), the first slot still ahead of ``now``: the slots it
    missed are skipped, not sent in a burst."""
    at += every
    if at < now:
        at += every * math.ceil((now - at) / every)
    return at


def referee(
    port: int,
    token: str,
    tournament: int,
    skip: set[int],
    every: float,
    start: float,
    until: float,
    out: list[Entry],
    errors: list[str],
    known: Known | None = None,
) -> None:
    """Enter a game every ``every`` seconds from ``start``; none sent at ``until`` or
    after. ``known``: told each entry's version."""
    client = Client(port, token)
    at = start
    while True:
        at = next_slot(at, every, time.monotonic())
        if at >= until:
            return
        time.sleep(max(0.0, at - time.monotonic()))
        found = playable(tournament, skip)
        if found is None:
            return
        match, number = found
        body: dict[str, Any] = {"number": number, "winner": "W", "outcome": "hemspel"}
        if number == 1:
            body["starter"] = "B"
        sent = time.monotonic()
        if sent >= until:
            return
        reply = client.request("POST", f"/api/matches/{match}/games/", body)
        done = time.monotonic()
        if reply.status != 201:
            errors.append(f"referee: {reply.status} {reply.body[:200]!r}")
            continue
        out.append(Entry(sent, done, version_of(tournament)))
        if known is not None:
            known.seen(out[-1].version)


# --- the followers ------------------------------------------------------------------------


@dataclass
class Follower:
    kind: str
    node: int  # 0: A, 1: B
    stream: str
    parts: dict[str, tuple[str, dict[str, str]]]  # event -> (path, headers)
    match: int | None = None
    events: list[tuple[float, str, int]] = field(default_factory=list)  # arrival, event, v
    fetched: list[tuple[float, str, int]] = field(default_factory=list)  # done, event, status
    applied: list[tuple[float, str, str]] = field(default_factory=list)  # at, event, how
    status: int = 0
    dropped: str = ""
    sample: bool = False  # keeps its parts' texts, compared with a fresh answer at the end
    texts: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    page: bool = False  # stands for a page just loaded: its stream names the version shown
    hello: dict[str, str] = field(default_factory=dict)  # event -> body, shown or fetched


@dataclass
class Known:
    """The tournament's last version the bench knows (the referee's entries), as the page a
    browser loads now would show it."""

    version: int = 0

    def seen(self, version: int) -> None:
        self.version = max(self.version, version)


async def fetch(
    port: int, path: str, headers: dict[str, str], tag: str, keep: dict[str, str] | None = None
) -> tuple[int, str]:
    """(status, ETag); the body in ``keep["body"]`` when ``keep`` is given and it is a 200."""
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if tag:
        lines.append(f"If-None-Match: {tag}")
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            data = await asyncio.wait_for(reader.read(), 30)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return 0, tag
    head, _, payload = data.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0, tag
    if keep is not None and status == 200:
        if b"transfer-encoding: chunked" in head.lower():
            payload = _unchunked(payload)
        keep["body"] = payload.decode()
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"etag":
            tag = value.strip().decode()
    return status, tag


def _unchunked(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out


async def follow(
    me: Follower,
    stream_port: int,
    page_port: int,
    at: float,
    until: float,
    do_fetch: bool,
    shows: Callable[[], int] = lambda: 0,
) -> None:
    """``shows()``: the version the page of a follower that stands for one shows now."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    shown = {"part": shows()} if me.page else {}
    tags = me.tags
    busy: dict[str, bool] = {}
    again: dict[str, bool] = {}
    tasks: set[asyncio.Task[None]] = set()

    async def get(event: str) -> None:
        if event not in me.parts:
            return
        if busy.get(event):
            again[event] = True
            return
        busy[event] = True
        while True:
            path, headers = me.parts[event]
            keep: dict[str, str] | None = {} if me.sample else None
            status, tags[event] = await fetch(page_port, path, headers, tags.get(event, ""), keep)
            if keep:
                me.texts[event] = keep["body"]
            me.fetched.append((time.monotonic(), event, status))
            if not again.pop(event, False):
                break
        busy[event] = False

    def asked(event: str) -> None:
        if do_fetch:
            task = asyncio.get_running_loop().create_task(get(event))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    def pushed(event: str, data: dict[str, Any], now: float, how: str = "body") -> bool:
        """Apply the part carried by the event (push.js's way), if it can be."""
        tag = data.get("etag")
        if not tag or busy.get(event):
            return False
        if "body" in data:
            if me.sample:
                me.texts[event] = data["body"]
        elif "diff" in data and data.get("base") == tags.get(event):
            how = "diff"
            if me.sample and event in me.texts:
                me.texts[event] = _patch(me.texts[event], data["diff"])
        else:
            return False
        tags[event] = tag
        me.applied.append((now, event, how))
        return True

    def arrived(name: str, payload: bytes, now: float) -> None:
        """An event of the stream, as push.js takes it."""
        # a follower that keeps no text reads the fields it uses only, as a browser's cost
        # is its own: the generator's is everyone's
        fields: dict[str, Any] = (
            json.loads(payload)
            if me.sample
            else _hello_head(payload)
            if name == "hello"
            else _head(payload)
        )
        if name == "hello":
            # as push.js: a part carried is applied; one not at the version the page shows
            # is asked for
            bodies = fields.get("bodies", {})
            for event in me.parts:
                if event in bodies and pushed(event, bodies[event], now, "hello"):
                    me.hello[event] = "body"
                elif event in shown and fields.get(event) == shown[event]:
                    me.hello[event] = "shown"
                else:
                    me.hello[event] = "fetched"
                    asked(event)
            return
        version = int(fields.get("v", 0))
        me.events.append((now, name, version))
        if not pushed(name, fields, now):
            asked(name)

    loop = asyncio.get_running_loop()
    try:
        transport, reading = await asyncio.wait_for(
            loop.create_connection(lambda: EventReader(arrived), "127.0.0.1", stream_port), 30
        )
    except (OSError, TimeoutError) as err:
        me.dropped = f"connect: {type(err).__name__}"
        return
    try:
        stream = me.stream  # as push.js: no ?v= (the page does not hold the part's text)
        transport.write(
            f"GET {stream} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        head = await asyncio.wait_for(reading.head, 30)
        me.status = int(head.split(b" ", 2)[1])
        if me.status != 200:
            return
        # one deadline for the whole read; the events are taken as their bytes arrive
        # (``EventReader``), no task woken for each
        try:
            async with asyncio.timeout_at(loop.time() + until - time.monotonic()):
                me.dropped = await asyncio.shield(reading.done)
        except TimeoutError:
            return
    except (OSError, ValueError, IndexError) as err:
        me.dropped = type(err).__name__
    finally:
        transport.close()
        for task in list(tasks):
            task.cancel()


class EventReader(asyncio.Protocol):
    """A stream's answer read as its bytes arrive: the head (``head``), then its events,
    each handed to ``arrived(name, data, arrival)`` from the loop's own callback, so a
    crowd of 10,000 streams wakes no task per event (asyncio's streams woke the reading
    task for each: most of the crowd's own cost). ``done`` says why the answer ended
    before the reader closed it: "ended" (the server ended it), or the error's name."""

    def __init__(self, arrived: Callable[[str, bytes, float], None]) -> None:
        loop = asyncio.get_running_loop()
        self.arrived = arrived
        self.head: asyncio.Future[bytes] = loop.create_future()
        self.done: asyncio.Future[str] = loop.create_future()
        self.raw = b""  # what arrived and is not read yet (the head's, or chunks')
        self.text = b""  # the events' text not yet ended (``\n\n``)
        self.chunked = False

    def data_received(self, data: bytes) -> None:
        if self.done.done():
            return
        try:
            self._read(data, time.monotonic())
        except (ValueError, IndexError) as err:
            self._end(type(err).__name__)

    def connection_lost(self, exc: Exception | None) -> None:
        self._end("ended" if exc is None else type(exc).__name__)

    def _end(self, why: str) -> None:
        if not self.head.done():
            self.head.set_exception(ConnectionResetError(why))
        if not self.done.done():
            self.done.set_result(why)

    def _read(self, data: bytes, now: float) -> None:
        self.raw += data
        if not self.head.done():
            head, sep, rest = self.raw.partition(b"\r\n\r\n")
            if not sep:
                return
            self.raw = rest
            self.chunked = b"transfer-encoding: chunked" in head.lower()
            self.head.set_result(head)
        if not self.chunked:
            self.text += self.raw
            self.raw = b""
        ended = False
        while self.chunked:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                break
            size = int(self.raw[:line_end].split(b";")[0].strip() or b"0", 16)
            if size == 0:  # the last chunk: the events before it are read first
                ended = True
                break
            if len(self.raw) < line_end + size + 4:
                break
            self.text += self.raw[line_end + 2 : line_end + 2 + size]
            self.raw = self.raw[line_end + size + 4 :]
        while b"\n\n" in self.text:
            block, self.text = self.text.split(b"\n\n", 1)
            name, payload = "", b""
            for line in block.split(b"\n"):
                if line.startswith(b"event: "):
                    name = line[7:].decode()
                elif line.startswith(b"data: "):
                    payload = line[6:]
            if name:
                self.arrived(name, payload, now)
        if ended:
            self._end("ended")


_HEAD = re.compile(
    rb'^\{"v":(\d+),"etag":"((?:[^"\\]|\\.)*)",(?:"base":"((?:[^"\\]|\\.)*)",)?"(body|diff)":'
)


def _head(payload: bytes) -> dict[str, Any]:
    """An event's fields a follower that keeps no text uses (``v``, ``etag``, ``base``,
    and whether it carries a ``body`` or a ``diff``), read from the start of its data as
    ``push.shared`` writes it, without parsing a body of 150 KB; other data whole."""
    found = _HEAD.match(payload)
    if found is None:
        out: dict[str, Any] = json.loads(payload)
        return out
    v, etag, base, what = found.groups()
    head: dict[str, Any] = {
        "v": int(v),
        "etag": json.loads(b'"' + etag + b'"'),
        what.decode(): None,
    }
    if base is not None:
        head["base"] = json.loads(b'"' + base + b'"')
    return head


_BODY_HEAD = re.compile(rb'"(part|board)":\{"v":(\d+),"etag":"((?:[^"\\]|\\.)*)","body":')


def _hello_head(payload: bytes) -> dict[str, Any]:
    """A ``hello``'s versions and the heads of the parts it carries (as ``_head``), read
    without parsing their bodies: ``{"part": V, …, "bodies": {event: {"v", "etag",
    "body": None}}}``, as ``push.views._hello`` writes it (a quote inside a body is
    escaped, so the heads' pattern cannot match inside one)."""
    versions, _sep, bodies = payload.partition(b',"bodies":{')
    out: dict[str, Any] = json.loads(versions + b"}") if bodies else json.loads(payload)
    if bodies:
        out["bodies"] = {
            event.decode(): {"v": int(v), "etag": json.loads(b'"' + etag + b'"'), "body": None}
            for event, v, etag in _BODY_HEAD.findall(bodies)
        }
    return out


def _patch(text: str, diff: list[Any]) -> str:
    out, last = [], 0
    for start, end, new in diff:
        out += [text[last:start], new]
        last = end
    return "".join([*out, text[last:]])


def bracket_follower(node: int, tournament: int, bodies: bool = True) -> Follower:
    return Follower(
        "bracket",
        node,
        f"/push/tournaments/{tournament}/{'?body=bracket' if bodies else ''}",
        {"part": (f"/tournaments/{tournament}/bracket/", HTMX)},
        page=bodies,
    )


def make_followers(
    n: int, tournament: int, boards: list[int], bodies: bool = True, sample: int = 0
) -> list[Follower]:
    """The crowd (module doc); ``bodies``: their streams ask for the shared parts (and a
    bracket follower names the version its page shows); the first ``sample`` of each kind
    keep their parts' texts (``Follower.sample``)."""
    rng = random.Random(20)
    counts = [round(n * share) for _kind, share in MIX]
    counts[0] += n - sum(counts)
    out: list[Follower] = []
    for (kind, _share), count in zip(MIX, counts, strict=True):
        for _ in range(count):
            node = len(out) % 2
            if kind == "bracket":
                out.append(bracket_follower(node, tournament, bodies))
            elif kind == "live board":
                m = rng.choice(boards)
                live = dict(HTMX, **{"HX-Target": "match-live", "HX-Trigger": "match-live"})
                out.append(
                    Follower(
                        kind,
                        node,
                        f"/push/matches/{m}/{'?body=live,board' if bodies else ''}",
                        {
                            "part": (f"/matches/{m}/live/", live),
                            "board": (f"/api/matches/{m}/live/", JSON),
                        },
                        m,
                    )
                )
            else:
                path = f"/api/tournaments/{tournament}/bracket/"
                stream = f"/push/tournaments/{tournament}/{'?body=api-bracket' if bodies else ''}"
                out.append(Follower(kind, node, stream, {"part": (path, JSON)}))
    seen: dict[str, int] = {}
    for f in out:
        seen[f.kind] = seen.get(f.kind, 0) + 1
        f.sample = seen[f.kind] <= sample
    return out


# --- the nodes ----------------------------------------------------------------------------


@dataclass
class Node:
    name: str
    stream_port: int
    page_port: int
    uvicorn: subprocess.Popen[bytes]
    gunicorn: subprocess.Popen[bytes]

    def cpu(self) -> tuple[float, float]:
        return group_cpu_seconds(self.uvicorn.pid), group_cpu_seconds(self.gunicorn.pid)

    def rss(self) -> tuple[int, int]:
        """Resident memory of uvicorn's and gunicorn's process groups (bytes)."""
        return group_rss_bytes(self.uvicorn.pid), group_rss_bytes(self.gunicorn.pid)


def open_files_limit(pid: int) -> int:
    """The soft limit of open files of process ``pid`` (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise ValueError(f"no open files limit for {pid}")


def files_needed(followers: int) -> int:
    """Open files the bench's own process needs at least: a stream each, fetches and the
    writers beside them."""
    return followers + 1024


def raise_file_limit(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft), max(want, hard)))
    except (ValueError, OSError):  # not root: as far as the hard limit allows
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(want, soft), hard), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=10000)
    parser.add_argument("--ramp", type=float, default=60.0, help="connections spread over (s)")
    parser.add_argument("--seconds", type=float, default=300.0, help="measured after the ramp")
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--entry-every", type=float, default=2.0)
    parser.add_argument("--turn-every", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers per node")
    parser.add_argument("--port", type=int, default=8270, help="node A's uvicorn; the rest follow")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument("--db-name", default=DB_NAME, help="dropped and made again")
    parser.add_argument("--no-fetch", action="store_true", help="followers take the events only")
    parser.add_argument(
        "--no-bodies", action="store_true", help="streams carry no parts: every event is fetched"
    )
    parser.add_argument(
        "--sample", type=int, default=10, help="followers of each kind checking their texts"
    )
    parser.add_argument("--client-nice", type=int, default=10)
    parser.add_argument(
        "--probes",
        type=int,
        default=20,
        help="bracket followers in a process of their own, not stepped back (module doc)",
    )
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.followers <= MAX_FOLLOWERS or not 0 < args.seconds + args.ramp <= MAX_SECONDS:
        raise SystemExit(f"at most {MAX_FOLLOWERS} followers for at most {MAX_SECONDS:g} s")
    limit = raise_file_limit(2 * args.followers + 4096)
    print(f"before: {load()}; file limit {limit}")
    if limit < files_needed(args.followers):
        raise SystemExit(
            f"the file limit {limit} is below the {files_needed(args.followers)} the "
            "followers need: raise the hard limit (ulimit -Hn) or follow fewer"
        )
    redis_server = RedisServer()
    redis_server.start()
    logdir = Path(tempfile.mkdtemp(prefix="brade-followers-"))
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "GUNICORN_"))
        },
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database(args.pg, args.db_name),
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "REDIS_URL": redis_server.url,
        "DJANGO_PUSH": "true",
    }
    procs = Processes(env, logdir)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_"))})
        import django

        django.setup()
        tournament, token, matches = populate(args.players)
        from django.db import connections

        connections.close_all()
        nodes = []
        for i, name in enumerate("AB"):
            stream_port, page_port = args.port + 2 * i, args.port + 2 * i + 1
            uv = procs.spawn(
                f"uvicorn-{name}",
                [
                    "uvicorn",
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(stream_port),
                    "--no-access-log",
                    "--backlog",
                    "4096",
                    "--timeout-keep-alive",
                    "30",
                ],
                DJANGO_SETTINGS_MODULE="config.settings.base",
            )
            gu = procs.spawn(
                f"gunicorn-{name}",
                [
                    "gunicorn",
                    "config.wsgi",
                    "--bind",
                    f"127.0.0.1:{page_port}",
                    "--workers",
                    str(args.workers),
                    "--timeout",
                    "60",
                    "--backlog",
                    "4096",
                ],
            )
            nodes.append(Node(name, stream_port, page_port, uv, gu))
        for node in nodes:
            for port in (node.stream_port, node.page_port):

                def up(p: int = port) -> bool:
                    return Client(p).request("GET", "/healthz").status == 200

                wait_for(up, 60, f"node {node.name} :{port}")
        node_limits = [open_files_limit(n.uvicorn.pid) for n in nodes]
        print(f"uvicorn's file limit (inherited): {node_limits}")
        if min(node_limits) < limit:
            raise SystemExit("the nodes did not inherit the raised file limit")
        for node in nodes:
            for path in (
                f"/tournaments/{tournament}/bracket/",
                f"/api/tournaments/{tournament}/bracket/",
            ):
                for _ in range(4):
                    Client(node.page_port).request("GET", path)
        a = nodes[0]
        errors: list[str] = []
        started = [(m, table_start(a.page_port, token, m, errors)) for m in matches[: args.tables]]
        known = Known(version_of(tournament))  # the tables started: as a page shows it now
        boards = [m for m, state in started if state is not None]
        followers = make_followers(
            args.followers, tournament, boards, not args.no_bodies, args.sample
        )
        start = time.monotonic() + 2.0
        until = start + args.ramp + args.seconds
        print(
            f"{args.players} players, {len(boards)} tables recording, {args.followers} followers "
            f"over {args.ramp:g} s then {args.seconds:g} s; nodes "
            f"A :{a.stream_port}/:{a.page_port}, "
            f"B :{nodes[1].stream_port}/:{nodes[1].page_port} (uvicorn/gunicorn {args.workers} "
            f"workers); Redis {redis_server.url}; {load()}"
        )
        # the tables: a process of their own (bench/live_board_bench.py's ``table``)
        saves_file = logdir / "saves.json"
        heard_file = logdir / "heard.json"
        from django.conf import settings

        heard_proc = _heard(redis_server.url, settings.PUSH_CHANNEL, tournament, until, heard_file)
        tables_proc = _tables(
            a.page_port, token, started, args.turn_every, start, until - SETTLE, saves_file
        )
        probes_file = logdir / "probes.json"
        probes_proc = _probes(
            args.probes, nodes, tournament, not args.no_bodies, start, args.ramp, until, probes_file
        )
        entries: list[Entry] = []
        ref = threading.Thread(
            target=referee,
            args=(
                a.page_port,
                token,
                tournament,
                set(boards),
                args.entry_every,
                start + args.ramp / 2,
                until - SETTLE,
                entries,
                errors,
                known,
            ),
        )
        ref.start()
        os.nice(args.client_nice)
        cpu0: list[tuple[float, float]] = []
        rss = {"before": [n.rss() for n in nodes]}
        loads = {"before": os.getloadavg()}
        measured = start + args.ramp

        crowd_cpu: list[float] = []

        def mark() -> None:
            cpu0.extend(n.cpu() for n in nodes)
            crowd_cpu.append(_own_cpu())
            rss["after the ramp"] = [n.rss() for n in nodes]
            loads["after the ramp"] = os.getloadavg()

        timer = threading.Timer(max(0.0, measured - time.monotonic()), mark)
        timer.start()
        rng = random.Random(3)

        async def everyone() -> None:
            await asyncio.gather(
                *(
                    follow(
                        f,
                        nodes[f.node].stream_port,
                        nodes[f.node].page_port,
                        start + rng.uniform(0, args.ramp),
                        until,
                        not args.no_fetch,
                        lambda: known.version,
                    )
                    for f in followers
                )
            )

        _loop_run(everyone())
        cpu1 = [n.cpu() for n in nodes]
        crowd_cpu.append(_own_cpu())
        rss["at the end"] = [n.rss() for n in nodes]
        loads["at the end"] = os.getloadavg()
        checked = asyncio.run(sample_check(followers, nodes))
        ref.join()
        timer.join()
        tables_proc.join(timeout=90)
        heard_proc.join(timeout=30)
        probes_proc.join(timeout=60)
        probes = _probes_read(probes_file)
        found = json.loads(heard_file.read_text()) if heard_file.exists() else {}
        heard = {int(v): t for v, t in found.get("t", {}).items()}
        boards_heard = [(int(m), int(v), float(t)) for m, v, t in found.get("b", [])]
        saves = (
            [Save(*row) for row in json.loads(saves_file.read_text() or "[]")]
            if saves_file.exists()
            else []
        )
        report(
            args,
            followers,
            entries,
            heard,
            boards_heard,
            saves,
            errors,
            nodes,
            cpu0,
            cpu1,
            measured,
            until,
            checked,
            rss,
            loads,
            probes,
            crowd_cpu,
        )
    finally:
        procs.close()
        redis_server.close()
        from django.db import connections

        connections.close_all()
        database(args.pg, args.db_name, drop_only=True)
        if args.keep_logs:
            print(f"logs in {logdir}")
        else:
            shutil.rmtree(logdir, ignore_errors=True)
    print(f"after: {load()}")
    return 0


def _own_cpu() -> float:
    """This process's CPU seconds (the crowd, and the referee's thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _loop_run(main: Any) -> None:
    """Run the crowd on uvloop when it is installed (uvicorn's own fast loop, as the nodes
    run): the generator's cost per event is then a fraction of asyncio's."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


async def sample_check(followers: list[Follower], nodes: list[Node]) -> tuple[int, int, int]:
    """The sampled followers' texts against a fresh answer of the same part: (equal,
    compared, held another ETag than the fresh answer's)."""
    equal = compared = other = 0
    for f in followers:
        if not f.sample or f.status != 200:
            continue
        for event, text in f.texts.items():
            path, headers = f.parts[event]
            keep: dict[str, str] = {}
            status, tag = await fetch(nodes[f.node].page_port, path, headers, "", keep)
            if status != 200:
                continue
            compared += 1
            if tag != f.tags.get(event):
                other += 1
            elif keep["body"] == text:
                equal += 1
    return equal, compared, other


def _tables(
    port: int, token: str, started: list[Any], every: float, start: float, until: float, out: Path
) -> Any:
    import multiprocessing

    def run() -> None:
        saves: list[Save] = []
        errs: list[str] = []
        threads = [
            threading.Thread(
                target=table,
                args=(port, token, m, state, every, start, until, saves, errs, i),
                daemon=True,
            )
            for i, (m, state) in enumerate(started)
            if state
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=max(0.0, until + 60 - time.monotonic()))
        out.write_text(
            json.dumps([[s.match, s.seq, s.sent, s.done, s.status, s.ended] for s in saves])
        )

    proc = multiprocessing.get_context("fork").Process(target=run, daemon=True)
    proc.start()
    return proc


def _probes(
    n: int,
    nodes: list[Node],
    tournament: int,
    bodies: bool,
    start: float,
    ramp: float,
    until: float,
    out: Path,
) -> Any:
    """``n`` bracket followers in a process of their own at the nodes' priority, connected
    over the ramp as the crowd is: their arrivals measure the nodes' delivery apart from
    the crowd's own delays (a process holding 10,000 streams, stepped back); written to
    ``out`` as ``[[node, status, [[arrival, event, version], …]], …]``."""
    import multiprocessing

    def run() -> None:
        probes = [bracket_follower(i % 2, tournament, bodies) for i in range(n)]

        async def all_of() -> None:
            await asyncio.gather(
                *(
                    follow(
                        f,
                        nodes[f.node].stream_port,
                        nodes[f.node].page_port,
                        start + ramp * (i + 0.5) / n,
                        until,
                        False,
                    )
                    for i, f in enumerate(probes)
                )
            )

        _loop_run(all_of())
        out.write_text(json.dumps([[f.node, f.status, f.events] for f in probes]))

    proc = multiprocessing.get_context("fork").Process(target=run, daemon=True)
    proc.start()
    return proc


def _probes_read(path: Path) -> list[Follower]:
    out = []
    for node, status, events in json.loads(path.read_text()) if path.exists() else []:
        f = Follower("bracket", node, "", {})
        f.status = status
        f.events = [(float(t), str(e), int(v)) for t, e, v in events]
        out.append(f)
    return out


def _heard(url: str, channel: str, tournament: int, until: float, out: Path) -> Any:
    """The bench's own subscription to the push channel, in a process of its own: when
    each version of ``tournament`` was published (its commit, module doc), written to
    ``out`` at ``until``: ``{"t": {version: monotonic time}, "b": [[match, version, time]]}``
    (the tournament's versions, the live boards'). Back once subscribed."""
    import multiprocessing

    import redis

    context = multiprocessing.get_context("fork")
    subscribed = context.Event()

    def run() -> None:
        heard: dict[int, float] = {}
        boards: list[tuple[int, int, float]] = []
        pubsub = redis.Redis.from_url(url).pubsub()
        pubsub.subscribe(channel)
        while time.monotonic() < until:
            message = pubsub.get_message(timeout=0.5)
            now = time.monotonic()
            if message is None:
                continue
            if message["type"] == "subscribe":
                subscribed.set()
            elif message["type"] == "message":
                data = json.loads(message["data"])
                if data.get("k") == "t" and data.get("t") == tournament:
                    heard.setdefault(int(data["v"]), now)
                elif data.get("k") == "b" and data.get("t") == tournament:
                    boards.append((int(data["id"]), int(data["v"]), now))
        out.write_text(json.dumps({"t": heard, "b": boards}))

    proc = context.Process(target=run, daemon=True)
    proc.start()
    if not subscribed.wait(30):
        raise SystemExit("the bench's subscription to the push channel did not start")
    return proc


@dataclass
class Arrivals:
    """The changes' arrivals at the followers of the bracket (``arrivals``)."""

    committed: dict[int, list[float]]  # node -> commit → event, seconds
    sent: list[float]  # the change's request sent → event
    shown: list[float]  # commit → the part fetched after the event
    counted: int = 0  # entries measured
    missed: int = 0  # (entry, follower) pairs: the follower never had the event
    late: int = 0  # entries published too near the end (or never heard): not counted


def arrivals(
    entries: list[Entry],
    heard: dict[int, float],
    watchers: list[Follower],
    measured: float,
    until: float,
) -> Arrivals:
    """Each entry sent from ``measured`` on and published by ``until - SETTLE`` (``heard``:
    version → when published), against each follower in ``watchers``: when the first
    ``part`` event of that version or a later one arrived, if it did (module doc)."""
    out = Arrivals({0: [], 1: []}, [], [])
    for entry in entries:
        if entry.sent < measured:
            continue
        commit = min((t for v, t in heard.items() if v >= entry.version), default=None)
        if commit is None or commit > until - SETTLE:
            out.late += 1
            continue
        out.counted += 1
        for f in watchers:
            got = next((t for t, e, v in f.events if e == "part" and v >= entry.version), None)
            if got is None:
                out.missed += 1
                continue
            out.committed[f.node].append(got - commit)
            out.sent.append(got - entry.sent)
            # shown: the part fetched or applied after the event, whichever came first
            done = min(
                [t for t, e, _s in f.fetched if e == "part" and t >= got]
                + [t for t, e, _h in f.applied if e == "part" and t >= got],
                default=None,
            )
            if done is not None:
                out.shown.append(done - commit)
    return out


def _load_text(load: tuple[float, float, float]) -> str:
    return f"load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}"


def report(
    args: argparse.Namespace,
    followers: list[Follower],
    entries: list[Entry],
    heard: dict[int, float],
    boards_heard: list[tuple[int, int, float]],
    saves: list[Save],
    errors: list[str],
    nodes: list[Node],
    cpu0: list[tuple[float, float]],
    cpu1: list[tuple[float, float]],
    measured: float,
    until: float,
    checked: tuple[int, int, int] = (0, 0, 0),
    rss: dict[str, list[tuple[int, int]]] | None = None,
    loads: dict[str, tuple[float, float, float]] | None = None,
    probes: list[Follower] | None = None,
    crowd_cpu: list[float] | None = None,
) -> None:
    watchers = [f for f in followers if f.kind != "live board" and f.status == 200]
    bracket = arrivals(entries, heard, watchers, measured, until)
    arrive, shown, missed = bracket.committed, bracket.shown, bracket.missed
    writes = [e.done - e.sent for e in entries if e.sent >= measured]
    by_match: dict[int, list[Follower]] = {}
    for f in followers:
        if f.match is not None and f.status == 200:
            by_match.setdefault(f.match, []).append(f)
    board: list[float] = []
    for save in saves:
        if save.status != 201 or save.sent < measured:
            continue
        # its commit: the first version of its board heard published after it was sent
        commit = next(
            ((v, t) for m, v, t in boards_heard if m == save.match and t >= save.sent), None
        )
        if commit is None:
            continue
        for f in by_match.get(save.match, []):
            got = next((t for t, e, v in f.events if e == "board" and v >= commit[0]), None)
            if got is not None:
                board.append(got - commit[1])
    fetches = [s for f in followers for _t, _e, s in f.fetched]
    bad = [s for s in fetches if s not in (200, 304)]
    streams_bad = [f.status for f in followers if f.status != 200]
    dropped = [f.dropped for f in followers if f.dropped]
    both = arrive[0] + arrive[1]
    span = args.seconds
    end_load = (loads or {}).get("at the end", os.getloadavg())
    tail = f" [{_load_text(end_load)}]"  # the load at the end of the measured part

    def line(text: str) -> None:
        print(text + tail)

    print()
    print(
        f"measured {span:g} s after the {args.ramp:g} s ramp; {len(entries)} entries "
        f"({bracket.counted} measured, {bracket.late} published too near the end to count), "
        f"{len([s for s in saves if s.status == 201])} turns saved"
    )
    line(
        f"entry's commit → event at the follower: p50 {percentile(both, 0.5):.3f} s, "
        f"p99 {percentile(both, 0.99):.3f} s, max {max(both, default=float('nan')):.3f} s over "
        f"{len(both)} arrivals; node B's followers (the entry went through A): p99 "
        f"{percentile(arrive[1], 0.99):.3f} s over {len(arrive[1])}; missed {missed}"
    )
    if probes:
        probed = arrivals(entries, heard, [f for f in probes if f.status == 200], measured, until)
        near = probed.committed[0] + probed.committed[1]
        line(
            f"the same at {len(probes)} probe followers (a process of their own, not stepped "
            f"back: the nodes' delivery without the crowd's own delays): p50 "
            f"{percentile(near, 0.5):.3f} s, p99 {percentile(near, 0.99):.3f} s, max "
            f"{max(near, default=float('nan')):.3f} s over {len(near)}; missed {probed.missed}"
        )
    line(
        f"entry's POST sent → event: p50 {percentile(bracket.sent, 0.5):.3f} s, p99 "
        f"{percentile(bracket.sent, 0.99):.3f} s; the POST itself (node A's gunicorn, behind the "
        f"followers' fetches): p50 {percentile(writes, 0.5):.3f} s, p99 "
        f"{percentile(writes, 0.99):.3f} s"
    )
    line(
        f"entry's commit → part shown (applied from the event, or fetched after it): p50 "
        f"{percentile(shown, 0.5):.3f} s, p99 {percentile(shown, 0.99):.3f} s over {len(shown)}"
    )
    line(
        f"turn's commit → board event: p50 {percentile(board, 0.5):.3f} s, p99 "
        f"{percentile(board, 0.99):.3f} s over {len(board)}"
    )
    line(
        f"fetches: {len(fetches)} ({len(fetches) / (span + args.ramp):.0f}/s), 304 share "
        f"{sum(s == 304 for s in fetches) / max(1, len(fetches)):.0%}"
    )
    hellos = [how for f in followers for how in f.hello.values()]
    line(
        f"hello: {len(hellos)} parts, {hellos.count('body')} carried whole, "
        f"{hellos.count('shown')} at the version the page shows (not sent), "
        f"{hellos.count('fetched')} fetched"
    )
    applied = [how for f in followers for _t, _e, how in f.applied if how != "hello"]
    events = sum(len(f.events) for f in followers)
    line(
        f"events {events}: applied without a request {len(applied)} "
        f"({applied.count('body')} whole bodies, {applied.count('diff')} diffs), "
        f"fetched after {events - len(applied)}; sampled followers' texts equal to a fresh "
        f"answer at the end: {checked[0]} of {checked[1]} ({checked[2]} held another version)"
    )
    line(
        f"streams refused: {len(streams_bad)} {sorted(set(streams_bad))[:5]}; dropped: "
        f"{len(dropped)} {sorted(set(dropped))[:5]}; errors: {len(bad) + len(errors)} "
        f"(fetches {len(bad)}, writers {len(errors)}) {errors[:3]}"
    )
    for i, (node, (u0, g0), (u1, g1)) in enumerate(
        zip(nodes, cpu0 or [(0.0, 0.0)] * 2, cpu1, strict=True)
    ):
        line(
            f"node {node.name} CPU over the measured part: uvicorn {(u1 - u0) / span:.2f} cores, "
            f"gunicorn {(g1 - g0) / span:.2f} cores"
        )
        if rss:
            mb = 1024 * 1024
            line(
                f"node {node.name} memory (RSS): uvicorn "
                + " → ".join(f"{rows[i][0] / mb:.0f} MB {when}" for when, rows in rss.items())
                + "; gunicorn "
                + " → ".join(f"{rows[i][1] / mb:.0f} MB {when}" for when, rows in rss.items())
            )
    if crowd_cpu and len(crowd_cpu) == 2:
        line(
            f"the crowd's process (its {len(followers)} streams, and the referee's thread) "
            f"CPU over the measured part: {(crowd_cpu[1] - crowd_cpu[0]) / span:.2f} cores"
        )
    if loads:
        print("; ".join(f"{_load_text(value)} {when}" for when, value in loads.items()))
    failed = len(bad) + len(errors) + len(streams_bad)
    print(
        json.dumps(
            {
                "followers": args.followers,
                "event_p99_s": round(percentile(both, 0.99), 3),
                "missed": missed,
                "shown_p99_s": round(percentile(shown, 0.99), 3),
                "dropped": len(dropped),
                "errors": failed,
                "fetches": len(fetches),
                "load_end": [round(x, 2) for x in end_load],
            }
        )
    )


if __name__ == "__main__":
    raise SystemExit(main())
