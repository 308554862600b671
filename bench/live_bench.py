"""Live pages under load (issue 12, item 7): gunicorn on PostgreSQL on this machine, a
64-player tournament being played, and many viewers polling its bracket as the
tournament page does (htmx, every 10 s) while a referee enters results through the API.

    .venv/bin/python bench/live_bench.py                   # 1,000 viewers for 60 s
    .venv/bin/python bench/live_bench.py --viewers 200 --seconds 30 --redis

It makes what it needs and removes it afterwards: a database of its own (``brade_live`` on
the PostgreSQL at 127.0.0.1:5432, or ``--pg``), a gunicorn (``--workers``, sync workers as
in bench/reliability.py, whose process helpers it uses) and, with ``--redis``, a Redis of
its own on a free port for the cache (without it, each gunicorn worker caches in its own
memory, the embedded default). It installs nothing.

Viewers are asyncio tasks speaking HTTP/1.1 over a new connection per poll (a browser's
keep-alive connection would be closed by gunicorn between two polls 10 s apart anyway).
Each polls ``/tournaments/N/bracket/`` on a fixed schedule, starting at a random moment of
the first interval, with htmx's headers and, from the second poll on, ``If-None-Match``
with the last ETag it got: what Chromium does for htmx's XMLHttpRequest polls (its HTTP
cache revalidates the stored response; tests/e2e/test_live_polling.py shows it).
The referee enters one game every ``--entry-every`` seconds, match after match.

It prints the viewers, requests per second, the statuses, p50/p99/max latency, errors
(anything but 200 and 304, or a failed connection), and whether every change was seen
within one poll: each poll sent after the referee's entry returned must show it (the
version in the ETag), and the time from the entry to the first poll that shows it.
Then, for comparison with the issue's "before" figures (16 clients without pauses:
117 requests/s, p99 329 ms on the 16-player demo), 16 clients without pauses on the
bracket and on the tournament page, with and without ``If-None-Match``.
Figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reliability import Client, Processes, RedisServer, free_port, wait_for  # noqa: E402

DB_NAME = "brade_live"
PASSWORD = "brade-bench"
VERSION = re.compile(rb'ETag: W/"[a-z-]+-\d+-v(\d+)-', re.IGNORECASE)


# --- the system under test ------------------------------------------------------------


def database(pg: str, *, drop_only: bool = False) -> str:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {DB_NAME}")
    return f"{pg}/{DB_NAME}"


def populate(players: int) -> tuple[int, str, list[int]]:
    """A running public tournament: (its id, the referee's API token, first-round matches)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from matches.models import Match
    from tournaments import services as ts

    users = get_user_model().objects
    organiser = users.create_user("arrangor", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = users.get(pk=organiser.pk)
    referee = users.create_user("domare", password=PASSWORD)
    tournament = ts.tournament_create(
        by=organiser, name="Live Cup", start_date=datetime.date(2026, 11, 28)
    )
    ts.tournament_staff_set(tournament=tournament, by=organiser, referees=[referee])
    for i in range(players):
        ts.entry_player_add(
            tournament=tournament, name=f"Spelare {i + 1:03d}", seed=i + 1 if i < 8 else None,
            by=organiser,
        )  # fmt: skip
    ts.tournament_bracket_generate(tournament=tournament, by=organiser, draw_seed=1)
    matches = list(
        Match.objects.filter(tournament=tournament, round__number=1, player2__isnull=False)
        .order_by("slot")
        .values_list("pk", flat=True)
    )
    return tournament.pk, Token.objects.create(user=referee).key, matches


def version_of(tournament: int) -> int:
    from tournaments.models import Tournament

    return int(Tournament.objects.values_list("version", flat=True).get(pk=tournament))


def match_decided(pk: int) -> bool:
    from matches.models import FINISHED_STATES, Match

    return Match.objects.values_list("state", flat=True).get(pk=pk) in FINISHED_STATES


# --- HTTP, the asyncio way ---------------------------------------------------------------


@dataclass
class Poll:
    sent: float
    done: float
    status: int  # 0: the connection failed
    version: int  # from the ETag; 0 when none


HTMX = {
    "HX-Request": "true",
    "HX-Target": "bracket",
    "HX-Trigger": "bracket",
    "Accept": "*/*",
    "Cookie": "csrftoken=benchbenchbenchbenchbenchbench12",
}


@dataclass
class Viewer:
    polls: list[Poll] = field(default_factory=list)


async def viewer(
    port: int, path: str, start: float, every: float, until: float, me: Viewer, timeout: float
) -> None:
    """Poll on a fixed schedule from a random moment of the first interval, like htmx."""
    tag = ""
    at = start + random.uniform(0, every)
    while at < until:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        headers = dict(HTMX, **({"If-None-Match": tag} if tag else {}))
        poll = await get_with_tag(port, path, headers, timeout)
        me.polls.append(poll[0])
        if poll[1]:
            tag = poll[1]
        at += every


async def get_with_tag(
    port: int, path: str, headers: dict[str, str], timeout: float
) -> tuple[Poll, str]:
    """``get``, also returning the response's ETag (what the browser keeps)."""
    sent = time.monotonic()
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            data = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return Poll(sent, time.monotonic(), 0, 0), ""
    done = time.monotonic()
    head = data.split(b"\r\n\r\n", 1)[0]
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return Poll(sent, done, 0, 0), ""
    tag = ""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"etag":
            tag = value.strip().decode()
    found = VERSION.search(head)
    return Poll(sent, done, status, int(found.group(1)) if found else 0), tag


@dataclass
class Entry:
    sent: float
    done: float
    version: int  # the tournament's version once the entry returned


def referee(
    port: int, token: str, tournament: int, matches: list[int], every: float,
    start: float, until: float, out: list[Entry], errors: list[str],
) -> None:  # fmt: skip
    """One game every ``every`` seconds through the API, match after match."""
    client = Client(port, token)
    queue = list(matches)
    number = 1
    at = start + every
    while queue and at < until:
        time.sleep(max(0.0, at - time.monotonic()))
        at += every
        match = queue[0]
        body = {"number": number, "winner": "W", "outcome": "hemspel"}
        if number == 1:
            body["starter"] = "B"
        sent = time.monotonic()
        reply = client.request("POST", f"/api/matches/{match}/games/", body)
        done = time.monotonic()
        if reply.status != 201:
            errors.append(f"referee: {reply.status} {reply.body[:200]!r}")
            queue.pop(0)
            number = 1
            continue
        out.append(Entry(sent, done, version_of(tournament)))
        number += 1
        if match_decided(match):
            queue.pop(0)
            number = 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def closed_loop(
    port: int, path: str, clients: int, seconds: float, revalidate: bool
) -> tuple[float, list[float], Counter[int]]:
    """``clients`` clients without pauses: requests/s, latencies (ms), statuses."""
    _first, tag = await get_with_tag(port, path, dict(HTMX), 30)
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    end = time.monotonic() + seconds

    async def one() -> None:
        headers = dict(HTMX, **({"If-None-Match": tag} if revalidate and tag else {}))
        while time.monotonic() < end:
            poll, _tag = await get_with_tag(port, path, headers, 30)
            latencies.append((poll.done - poll.sent) * 1000)
            statuses[poll.status] += 1

    started = time.monotonic()
    await asyncio.gather(*(one() for _ in range(clients)))
    return len(latencies) / (time.monotonic() - started), latencies, statuses


# --- main ---------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--every", type=float, default=10.0, help="poll interval (s)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long viewers poll")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--entry-every", type=float, default=2.0, help="referee cadence (s)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--redis", action="store_true", help="cache in a Redis of its own")
    parser.add_argument("--closed-seconds", type=float, default=10.0,
                        help="per comparison run (0: skip them)")  # fmt: skip
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432",
                        help="PostgreSQL server (a database of its own is made there)")  # fmt: skip
    args = parser.parse_args()

    logdir = Path(tempfile.mkdtemp(prefix="brade-live-"))
    redis_server = RedisServer() if args.redis else None
    database_url = database(args.pg)
    env = {
        **{k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }  # fmt: skip
    procs = Processes(env, logdir)
    try:
        if redis_server is not None:
            redis_server.start()
            env["REDIS_URL"] = redis_server.url
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")})
        os.environ.pop("REDIS_URL", None)  # this process: eager tasks, no broker needed
        import django

        django.setup()
        tournament, token, matches = populate(args.players)
        from django.db import connections

        connections.close_all()
        port = free_port()
        procs.spawn(
            "gunicorn",
            ["gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.workers), "--timeout", "60", "--backlog", "2048"],
        )  # fmt: skip
        wait_for(lambda: Client(port).request("GET", "/healthz").status == 200, 60, "gunicorn")
        path = f"/tournaments/{tournament}/bracket/"
        # Warm every worker up (imports, templates, catalogues, its database connection):
        # a server that has run for a while is warm; figures are taken after this.
        for _ in range(8 * args.workers):
            Client(port).request("GET", path)
            Client(port).request("GET", f"/tournaments/{tournament}/")
        print(
            f"gunicorn: {args.workers} sync workers; PostgreSQL {DB_NAME}; cache: "
            f"{'Redis' if redis_server else 'per-process memory'}; {args.players} players; "
            f"{len(matches)} first-round matches; logs in {logdir}"
        )
        rows = run_viewers(args, port, path, tournament, token, matches)
        if args.closed_seconds > 0:
            rows += run_closed(args, port, tournament)
        print()
        for row in rows:
            print(row)
        return 0
    finally:
        procs.close()
        if redis_server is not None:
            redis_server.close()
        from django.db import connections

        connections.close_all()
        database(args.pg, drop_only=True)


def run_viewers(
    args: argparse.Namespace, port: int, path: str, tournament: int, token: str,
    matches: list[int],
) -> list[str]:  # fmt: skip
    viewers = [Viewer() for _ in range(args.viewers)]
    entries: list[Entry] = []
    errors: list[str] = []
    start = time.monotonic() + 1.0
    until = start + args.seconds
    ref = threading.Thread(
        target=referee,
        args=(port, token, tournament, matches, args.entry_every, start, until - args.every,
              entries, errors),
    )  # fmt: skip
    ref.start()

    async def everyone() -> None:
        await asyncio.gather(
            *(viewer(port, path, start, args.every, until, v, 10.0) for v in viewers)
        )

    print(f"{args.viewers} viewers polling every {args.every:g} s for {args.seconds:g} s …")
    asyncio.run(everyone())
    ref.join()

    polls = [p for v in viewers for p in v.polls]
    latencies = [(p.done - p.sent) * 1000 for p in polls]
    statuses = Counter(p.status for p in polls)
    failed = sum(n for status, n in statuses.items() if status not in (200, 304))
    elapsed = max(p.done for p in polls) - min(p.sent for p in polls)

    # Every change seen within one poll: each poll sent after an entry returned shows it.
    missed = 0
    delays: list[float] = []
    for entry in entries:
        for v in viewers:
            later = [p for p in v.polls if p.sent >= entry.done and p.status in (200, 304)]
            if not later:
                continue
            if later[0].version < entry.version:
                missed += 1
            showing = next((p for p in v.polls if p.version >= entry.version), None)
            if showing is not None:
                delays.append(showing.done - entry.sent)
    entry_ms = statistics.median([(e.done - e.sent) * 1000 for e in entries] or [float("nan")])
    rows = [
        "live polling (open loop, like htmx in browsers)",
        f"  viewers {args.viewers}, one poll every {args.every:g} s each; "
        f"{len(polls)} requests in {elapsed:.1f} s = {len(polls) / elapsed:.1f} requests/s",
        f"  statuses {dict(sorted(statuses.items()))}; errors {failed}"
        + (f" (referee: {len(errors)}: {errors[:2]})" if errors else ""),
        f"  latency p50 {percentile(latencies, 0.50):.1f} ms, p99 "
        f"{percentile(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms",
        f"  referee: {len(entries)} games entered through the API, one every "
        f"{args.entry_every:g} s; median {entry_ms:.0f} ms each",
        f"  every change seen within one poll: {'yes' if missed == 0 else 'NO'} "
        f"({missed} polls sent after a change did not show it); entry → first poll showing "
        f"it: median {statistics.median(delays) if delays else float('nan'):.1f} s, max "
        f"{max(delays) if delays else float('nan'):.1f} s (poll interval {args.every:g} s)",
    ]
    return rows


def run_closed(args: argparse.Namespace, port: int, tournament: int) -> list[str]:
    rows = [f"16 clients without pauses, {args.closed_seconds:g} s each (closed loop)"]
    for name, path in (
        ("bracket", f"/tournaments/{tournament}/bracket/"),
        ("tournament page", f"/tournaments/{tournament}/"),
    ):
        for revalidate in (False, True):
            rate, latencies, statuses = asyncio.run(
                closed_loop(port, path, 16, args.closed_seconds, revalidate)
            )
            how = "with If-None-Match" if revalidate else "no If-None-Match"
            rows.append(
                f"  {name:<15} {how:<19} {rate:7.1f} requests/s, p50 "
                f"{percentile(latencies, 0.5):6.1f} ms, p99 {percentile(latencies, 0.99):6.1f} "
                f"ms, statuses {dict(sorted(statuses.items()))}"
            )
    return rows


if __name__ == "__main__":
    sys.exit(main())
