"""Live pages under load: gunicorn on PostgreSQL with the cache in Redis, on this machine,
a knockout being played, and a crowd that loads the pages and then polls them as the
pages' own script does (htmx, every 10 s, conditional requests) while a referee enters a
result every 2 s through the API.

    .venv/bin/python bench/live_bench.py                      # 16 and 256 players, 1,000 viewers
    .venv/bin/python bench/live_bench.py --players 256 --viewers 200 --seconds 30
    .venv/bin/python bench/live_bench.py --redis-url redis://127.0.0.1:6379/6 --db-name mine

The mix: each viewer watches one thing — 70% the tournament page's bracket
(``/tournaments/N/bracket/``), 20% a first-round match's live part
(``/matches/M/live/``, its match chosen at random), 10% the JSON bracket
(``/api/tournaments/N/bracket/``, a client). It first loads its page without validators
(the tournament page, the match page, or the JSON) at a random moment of the first-load
ramp (``--ramp`` seconds), then polls its part every ``--every`` seconds from a random
moment of the first interval, with htmx's headers and, once it has one, ``If-None-Match``
with the last ETag it got: what Chromium does for htmx's XMLHttpRequest polls (its HTTP
cache revalidates the stored response; tests/e2e/test_live_polling.py shows it). The
referee enters one game every ``--entry-every`` seconds, in the first match that is
ready or being played.

It makes what it needs and removes it afterwards: a database of its own (``--db-name``,
``brade_live`` by default, dropped and made again, on the PostgreSQL at 127.0.0.1:5432 or
``--pg``), a gunicorn (``--workers``, sync workers; bench/serving.py starts and stops
them, as for bench/live_board_bench.py) and a Redis of its own on a free port for the
cache (or the one at ``--redis-url``, whose keys it does not flush: every key names its
version; ``--no-redis`` for each worker's own memory). No Celery worker: entering results
enqueues nothing (only game records do). It installs nothing, talks to 127.0.0.1 only, and
is bounded: at most ``MAX_VIEWERS`` viewers for at most ``MAX_SECONDS`` seconds.
gunicorn's logs are removed too unless ``--keep-logs``.

It prints, per tournament size, a table — requests per second, p50/p99 latency,
the share of 304s, errors (anything but 200 and 304, or a failed connection), the first-
load ramp's p50/p99 — then each kind of viewer on its own, and whether every change was
seen within one poll by the bracket's pollers (each poll sent after the referee's entry
returned shows it: the version in the ETag). With ``--closed-seconds`` it then runs 16
clients without pauses on the bracket and on the tournament page, with and without
``If-None-Match``. Figures only; it asserts nothing. The machine's load average
(``os.getloadavg``) is printed before and after: figures taken on a busy machine are
pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reliability import Client, RedisServer  # noqa: E402
from serving import Setup, load, percentile, served  # noqa: E402

DB_NAME = "brade_live"
PASSWORD = "brade-bench"
VERSION = re.compile(rb'ETag: W/"[a-z-]+-\d+-v(\d+)-', re.IGNORECASE)
MAX_VIEWERS = 5000
MAX_SECONDS = 600.0
# The share of viewers watching each part.
MIX = (("bracket fragment", 0.7), ("match live part", 0.2), ("JSON bracket", 0.1))


# --- the system under test ------------------------------------------------------------


def populate(players: int) -> tuple[int, str, list[int]]:
    """A running public tournament: (its id, the referee's API token, first-round matches)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from matches.models import Match
    from tournaments.entries import entry_player_add
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create, tournament_staff_set

    users = get_user_model().objects
    organiser = users.create_user("arrangor", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = users.get(pk=organiser.pk)
    referee = users.create_user("domare", password=PASSWORD)
    tournament = tournament_create(
        by=organiser, name=f"Live Cup {players}", start_date=datetime.date(2026, 11, 28)
    )
    tournament_staff_set(tournament=tournament, by=organiser, referees=[referee])
    for i in range(players):
        entry_player_add(
            tournament=tournament, name=f"Spelare {i + 1:03d}", seed=i + 1 if i < 8 else None,
            by=organiser,
        )  # fmt: skip
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    matches = list(
        Match.objects.filter(tournament=tournament, round__number=1, player2__isnull=False)
        .order_by("slot")
        .values_list("pk", flat=True)
    )
    return tournament.pk, Token.objects.create(user=referee).key, matches


def version_of(tournament: int) -> int:
    from tournaments.models import Tournament

    return int(Tournament.objects.values_list("version", flat=True).get(pk=tournament))


def playable(tournament: int) -> tuple[int, int] | None:
    """The first match ready or being played, and the number of its next game."""
    from matches.models import Match, MatchState

    match = (
        Match.objects.filter(
            tournament_id=tournament, state__in=(MatchState.READY, MatchState.PLAYING)
        )
        .order_by("round__number", "slot")
        .first()
    )
    if match is None:
        return None
    return match.pk, match.games.filter(voided_at__isnull=True).count() + 1


# --- HTTP, the asyncio way ---------------------------------------------------------------


@dataclass
class Poll:
    sent: float
    done: float
    status: int  # 0: the connection failed
    version: int  # from the ETag; 0 when none
    first: bool = False  # the first load (no validators), not a poll


HTMX = {
    "HX-Request": "true",
    "HX-Target": "bracket",
    "HX-Trigger": "bracket",
    "Accept": "*/*",
    "Cookie": "csrftoken=benchbenchbenchbenchbenchbench12",
}
PAGE = {"Accept": "text/html", "Cookie": "csrftoken=benchbenchbenchbenchbenchbench12"}
JSON = {"Accept": "application/json"}


@dataclass
class Viewer:
    kind: str
    first: str  # the page loaded first
    path: str  # the part polled
    headers: dict[str, str]
    polls: list[Poll] = field(default_factory=list)


async def viewer(
    port: int, me: Viewer, start: float, ramp: float, every: float, until: float,
    timeout: float,
) -> None:  # fmt: skip
    """The first load at a random moment of the ramp, then a poll on a fixed schedule from
    a random moment of the first interval after it, like htmx."""
    await asyncio.sleep(max(0.0, start + random.uniform(0, ramp) - time.monotonic()))
    first = me.headers if me.first == me.path else PAGE
    poll, tag = await get_with_tag(port, me.first, first, timeout)
    poll.first = True
    me.polls.append(poll)
    if me.first != me.path:
        tag = ""  # the page's part has not been fetched on its own yet
    at = time.monotonic() + random.uniform(0, every)
    while at < until:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        headers = dict(me.headers, **({"If-None-Match": tag} if tag else {}))
        poll, new = await get_with_tag(port, me.path, headers, timeout)
        me.polls.append(poll)
        if new:
            tag = new
        at += every


async def get_with_tag(
    port: int, path: str, headers: dict[str, str], timeout: float
) -> tuple[Poll, str]:
    """One GET over a new connection: the poll, and the response's ETag (what the browser
    keeps)."""
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
    port: int, token: str, tournament: int, every: float, start: float, until: float,
    out: list[Entry], errors: list[str],
) -> None:  # fmt: skip
    """One game every ``every`` seconds through the API, in the first playable match."""
    client = Client(port, token)
    at = start + every
    while at < until:
        time.sleep(max(0.0, at - time.monotonic()))
        at += every
        found = playable(tournament)
        if found is None:
            return
        match, number = found
        body = {"number": number, "winner": "W", "outcome": "hemspel"}
        if number == 1:
            body["starter"] = "B"
        sent = time.monotonic()
        reply = client.request("POST", f"/api/matches/{match}/games/", body)
        done = time.monotonic()
        if reply.status != 201:
            errors.append(f"referee: {reply.status} {reply.body[:200]!r}")
            continue
        out.append(Entry(sent, done, version_of(tournament)))


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
    parser.add_argument("--ramp", type=float, default=10.0, help="first loads spread over (s)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long viewers poll")
    parser.add_argument("--players", default="16,256", help="tournament sizes, comma-separated")
    parser.add_argument("--entry-every", type=float, default=2.0, help="referee cadence (s)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--no-redis", action="store_true", help="each worker caches alone")
    parser.add_argument("--redis-url", help="an existing Redis for the cache (not flushed)")
    parser.add_argument("--closed-seconds", type=float, default=0.0,
                        help="per closed-loop comparison run (0: skip them)")  # fmt: skip
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432",
                        help="PostgreSQL server (a database of its own is made there)")  # fmt: skip
    parser.add_argument("--db-name", default=DB_NAME, help="that database (dropped, made again)")
    parser.add_argument("--keep-logs", action="store_true", help="keep gunicorn's logs")
    args = parser.parse_args()
    if not 1 <= args.viewers <= MAX_VIEWERS or not 0 < args.seconds + args.ramp <= MAX_SECONDS:
        raise SystemExit(f"at most {MAX_VIEWERS} viewers for at most {MAX_SECONDS:g} s")
    sizes = [int(n) for n in args.players.split(",")]
    print(f"before: {load()}")
    tables: list[list[str]] = []
    details: list[str] = []
    for players in sizes:
        row, more = run_size(args, players)
        tables.append(row)
        details += more
    print()
    print(f"after: {load()}")
    print()
    print(
        "| tournament | viewers | req/s | p50 / p99 | 304 share | errors "
        "| first-load ramp p50 / p99 |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in tables:
        print("| " + " | ".join(row) + " |")
    print()
    for line in details:
        print(line)
    return 0


def run_size(args: argparse.Namespace, players: int) -> tuple[list[str], list[str]]:
    """One tournament size on a fresh database and gunicorn: its table row and details."""
    redis_server = None if args.no_redis or args.redis_url else RedisServer()
    try:
        if redis_server is not None:
            redis_server.start()
        setup = Setup(
            db_name=args.db_name,
            pg=args.pg,
            workers=args.workers,
            redis_url=redis_server.url if redis_server is not None else args.redis_url,
            access_format="%(s)s %(D)s %(U)s",
            log_prefix="brade-live-",
            keep_logs=args.keep_logs,
        )
        with served(setup, lambda: populate(players)) as (server, made):
            tournament, token, matches = made
            server.warm(
                [
                    f"/tournaments/{tournament}/",
                    f"/tournaments/{tournament}/bracket/",
                    f"/api/tournaments/{tournament}/bracket/",
                    f"/matches/{matches[0]}/",
                ],
                4 * args.workers,
            )
            cache = "Redis" if setup.redis_url else "each worker's memory"
            print(
                f"{players} players: gunicorn {args.workers} sync workers; PostgreSQL "
                f"{args.db_name}; cache: {cache}; {len(matches)} first-round matches; {load()}"
                + (f"; logs in {server.logdir}" if args.keep_logs else "")
            )
            server.reset_log()  # the warm-up's requests are not counted
            row, lines = run_viewers(args, server.port, tournament, token, matches, players)
            return row, lines + server_times(server.access_log, tournament)
    finally:
        if redis_server is not None:
            redis_server.close()


def make_viewers(n: int, tournament: int, matches: list[int]) -> list[Viewer]:
    rng = random.Random(20)
    out = []
    counts = [round(n * share) for _kind, share in MIX]
    counts[0] += n - sum(counts)
    for (kind, _share), count in zip(MIX, counts, strict=True):
        for _ in range(count):
            if kind == "bracket fragment":
                out.append(Viewer(kind, f"/tournaments/{tournament}/",
                                  f"/tournaments/{tournament}/bracket/", HTMX))  # fmt: skip
            elif kind == "match live part":
                match = rng.choice(matches)
                live = dict(HTMX, **{"HX-Target": "match-live", "HX-Trigger": "match-live"})
                out.append(Viewer(kind, f"/matches/{match}/", f"/matches/{match}/live/", live))
            else:
                path = f"/api/tournaments/{tournament}/bracket/"
                out.append(Viewer(kind, path, path, JSON))
    return out


def summary(polls: list[Poll]) -> tuple[float, float, float, int]:
    """p50, p99 (ms), the share of 304s (%), errors."""
    latencies = [(p.done - p.sent) * 1000 for p in polls]
    statuses = Counter(p.status for p in polls)
    errors = sum(n for status, n in statuses.items() if status not in (200, 304))
    share = 100 * statuses[304] / len(polls) if polls else float("nan")
    return percentile(latencies, 0.5), percentile(latencies, 0.99), share, errors


def run_viewers(
    args: argparse.Namespace, port: int, tournament: int, token: str, matches: list[int],
    players: int,
) -> tuple[list[str], list[str]]:  # fmt: skip
    viewers = make_viewers(args.viewers, tournament, matches)
    entries: list[Entry] = []
    errors: list[str] = []
    start = time.monotonic() + 1.0
    until = start + args.ramp + args.seconds
    ref = threading.Thread(
        target=referee,
        args=(port, token, tournament, args.entry_every, start, until - args.every, entries,
              errors),
    )  # fmt: skip
    ref.start()

    async def everyone() -> None:
        await asyncio.gather(
            *(viewer(port, v, start, args.ramp, args.every, until, 10.0) for v in viewers)
        )

    print(
        f"  {args.viewers} viewers: first loads over {args.ramp:g} s, then a poll every "
        f"{args.every:g} s each for {args.seconds:g} s …"
    )
    asyncio.run(everyone())
    ref.join()

    every = [p for v in viewers for p in v.polls]
    polls = [p for p in every if not p.first]
    firsts = [p for p in every if p.first]
    elapsed = max(p.done for p in polls) - min(p.sent for p in polls)
    p50, p99, share, failed = summary(polls)
    f50, f99, _fshare, ffailed = summary(firsts)
    row = [
        f"{players} players",
        str(args.viewers),
        f"{len(polls) / elapsed:.0f}",
        f"{p50:.0f} / {p99:.0f} ms",
        f"{share:.0f}%",
        f"{failed + ffailed}" + (f" (referee: {len(errors)})" if errors else ""),
        f"{f50:.0f} / {f99:.0f} ms",
    ]
    lines = [f"{players} players, each kind of viewer (polls after the first load):"]
    for kind, _share in MIX:
        mine = [p for v in viewers if v.kind == kind for p in v.polls if not p.first]
        first = [p for v in viewers if v.kind == kind for p in v.polls if p.first]
        k50, k99, kshare, kfailed = summary(mine)
        f50k, f99k, _s, _f = summary(first)
        lines.append(
            f"  {kind:<17} {len(mine):>6} polls, p50 {k50:6.1f} ms, p99 {k99:6.1f} ms, "
            f"304 {kshare:5.1f}%, errors {kfailed}; first load p50 {f50k:.0f} ms, "
            f"p99 {f99k:.0f} ms"
        )
    # Every change seen within one poll: each bracket poll sent after an entry returned
    # shows it (the tournament's version in the ETag).
    missed = 0
    delays: list[float] = []
    watchers = [v for v in viewers if v.kind == "bracket fragment"]
    for entry in entries:
        for v in watchers:
            later = [p for p in v.polls if not p.first and p.sent >= entry.done
                     and p.status in (200, 304)]  # fmt: skip
            if not later:
                continue
            if later[0].version < entry.version:
                missed += 1
            showing = next((p for p in later if p.version >= entry.version), None)
            if showing is not None:
                delays.append(showing.done - entry.sent)
    entry_ms = statistics.median([(e.done - e.sent) * 1000 for e in entries] or [float("nan")])
    lines += [
        f"  referee: {len(entries)} games entered through the API, one every "
        f"{args.entry_every:g} s; median {entry_ms:.0f} ms each"
        + (f"; {len(errors)} refused: {errors[:2]}" if errors else ""),
        f"  every change seen by the bracket's pollers within one poll: "
        f"{'yes' if missed == 0 else 'NO'} ({missed} polls sent after a change did not show "
        f"it); entry → first poll showing it: median "
        f"{statistics.median(delays) if delays else float('nan'):.1f} s, max "
        f"{max(delays) if delays else float('nan'):.1f} s (poll interval {args.every:g} s)",
    ]
    if args.closed_seconds > 0:
        lines += run_closed(args, port, tournament)
    return row, lines


def server_times(log: Path, tournament: int) -> list[str]:
    """The time gunicorn's workers spent on each kind of request (its access log's
    ``%(D)s``: from reading the request to sending the response, the queue before it not
    counted), to set against the latencies the viewers saw."""
    kinds = {
        "tournament page": re.compile(rf"^/tournaments/{tournament}/$"),
        "bracket fragment": re.compile(rf"^/tournaments/{tournament}/bracket/$"),
        "match page": re.compile(r"^/matches/\d+/$"),
        "match live part": re.compile(r"^/matches/\d+/live/$"),
        "JSON bracket": re.compile(rf"^/api/tournaments/{tournament}/bracket/$"),
        "referee's entry": re.compile(r"^/api/matches/\d+/games/$"),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for line in log.read_text(errors="replace").splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        status, micros, path = parts
        kind = next((k for k, pattern in kinds.items() if pattern.match(path)), None)
        if kind is not None:
            times.setdefault((kind, status), []).append(int(micros) / 1000)
    lines = ["  server time per request (gunicorn's access log, queueing not counted):"]
    for (kind, status), values in sorted(times.items()):
        lines.append(
            f"    {kind:<17} {status} ×{len(values):>6}: p50 {percentile(values, 0.5):6.1f} ms, "
            f"p99 {percentile(values, 0.99):6.1f} ms"
        )
    return lines


def run_closed(args: argparse.Namespace, port: int, tournament: int) -> list[str]:
    rows = [f"  16 clients without pauses, {args.closed_seconds:g} s each (closed loop)"]
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
                f"    {name:<15} {how:<19} {rate:7.1f} requests/s, p50 "
                f"{percentile(latencies, 0.5):6.1f} ms, p99 {percentile(latencies, 0.99):6.1f} "
                f"ms, statuses {dict(sorted(statuses.items()))}"
            )
    return rows


if __name__ == "__main__":
    sys.exit(main())
