"""The digital scoresheet under load: gunicorn on PostgreSQL with Redis (cache, and the
Celery broker of a worker that verifies the records of finished games), 64 tables
recording bräde games at once — each posts a turn every 5 s through the turn API — while
1,000 viewers follow the boards by polling the live state with ``If-None-Match``.

    .venv/bin/python bench/live_board_bench.py
    .venv/bin/python bench/live_board_bench.py --tables 16 --viewers 200 --seconds 30
    .venv/bin/python bench/live_board_bench.py --seconds 360

A game lasts about 50 turns, about 250 s at the default cadence: the default 90 s window
seldom holds a game's end, ``--seconds 360`` holds about one per table (the turns that
enter a result, queue its record and start the next game, printed apart).

Each table is a match of a 128-player knockout recorded by its referee (entered dice, as
at a club): it starts the game (every table before the viewers come), then every
``--turn-every`` seconds (from a random moment of the first interval) posts one turn
chosen at random among the legal plays of its last state (the tek first). The tables post
from a process of their own (niceness ``--tables-nice``): phones beside the boards, whose
timings are not held up by the viewers' event loop. Each viewer follows one board
(chosen at random) as the public match page's script does (``web/static/web/live-board.js``):
it polls ``GET /api/matches/M/live/`` every ``--every`` seconds from a random moment of
the first interval, sending the last ETag it got, ``Accept: application/json``, a Swedish
browser's ``Accept-Language`` and a CSRF cookie of its own, as a browser that opened the
site's pages does (``BROWSER_HEADERS``). The default interval is the page's
(``scoresheets.polling.FOLLOW_EVERY``); a viewer keeps its schedule whatever the answers
take, where the page waits the interval after each answer (a busy server slows the page's
polls down, not the bench's). The first ``--warmup`` seconds (the crowd arriving at a
server just started) run the same load but are printed apart; the figures below are the
``--seconds`` after them.

Printed: the turn saves' latency as the table sees it (p50, p99, max: the POST's round
trip, the new state included) and as gunicorn logs it; the viewers' requests per second,
latency and share of 304s; the **staleness** — for every turn saved and every viewer of
that board, the time from the save's answer to the first poll answered with that turn
(or a later one), p50/p99/max — and every error (a table's answer other than 201, a
viewer's other than 200/304, a failed connection). Goals (the issue): turn saved under
100 ms p99, boards seen within 5 s, no errors. Also gunicorn's CPU time over the run
per live request (/proc: what a request costs whatever else the machine runs). Figures
only; nothing is asserted.

It makes what it needs and removes it afterwards (bench/serving.py, shared with
bench/live_bench.py): a PostgreSQL database of its own (``--db-name``, dropped and made
again), a gunicorn on ``--port``, a Celery worker, their logs (kept with ``--keep-logs``);
the cache and broker are the Redis database at ``--redis-url`` (not flushed: every key
names its version and expires). It installs nothing, talks to 127.0.0.1 only and is bounded (at most
``MAX_VIEWERS`` viewers, ``MAX_SECONDS`` seconds). The machine's load average is printed
before and after: figures taken on a busy machine are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reliability import Client  # noqa: E402
from serving import Setup, load, percentile, served  # noqa: E402

from scoresheets.polling import FOLLOW_EVERY  # noqa: E402

DB_NAME = "sheet_bench"
MAX_VIEWERS = 5000
MAX_SECONDS = 900.0
SEQ = re.compile(rb'"game_number":\d+,"seq":(\d+)')


def populate(players: int) -> tuple[str, list[int]]:
    """A running public bräde knockout: the referee's API token and its first-round
    matches (each one table)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from matches.models import Match
    from tournaments.entries import entry_player_add
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create, tournament_staff_set

    users = get_user_model().objects
    organiser = users.create_user("arrangor", password="sheet-bench")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = users.get(pk=organiser.pk)
    referee = users.create_user("domare", password="sheet-bench")
    tournament = tournament_create(
        by=organiser, name="Scoresheet Cup", start_date=datetime.date(2026, 11, 28)
    )
    tournament_staff_set(tournament=tournament, by=organiser, referees=[referee])
    for i in range(players):
        entry_player_add(tournament=tournament, name=f"Spelare {i + 1:03d}", by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    matches = list(
        Match.objects.filter(tournament=tournament, round__number=1, player2__isnull=False)
        .order_by("slot")
        .values_list("pk", flat=True)
    )
    return Token.objects.create(user=referee).key, matches


# --- the tables ------------------------------------------------------------------------


@dataclass
class Save:
    match: int
    seq: int
    sent: float
    done: float
    status: int
    ended: bool = False  # the turn ended the game (its result entered, the next one begun)


def next_turn(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal turn for the state (entered dice)."""
    if state["phase"] == "start":
        a = rng.randint(1, 6)
        return {"action": "start", "dice": [a, rng.choice([d for d in range(1, 7) if d != a])]}
    legal = state["legal"] or {}
    key = rng.choice(sorted(legal))
    return {
        "action": "play",
        "dice": [int(d) for d in key.split("-")],
        "steps": rng.choice(legal[key]),
    }


def table_start(port: int, token: str, match: int, errors: list[str]) -> dict[str, Any] | None:
    """Start recording the match's game (before the viewers come): its first state."""
    try:
        reply = Client(port, token).request(
            "POST", f"/api/matches/{match}/live/", {"dice": "entered"}
        )
    except OSError as err:
        errors.append(f"table {match} start: {type(err).__name__}")
        return None
    if reply.status not in (200, 201):
        errors.append(f"table {match} start: {reply.status} {reply.body[:200]!r}")
        return None
    return dict(reply.json())


def table(
    port: int, token: str, match: int, state: dict[str, Any], every: float, start: float,
    until: float, saves: list[Save], errors: list[str], seed: int,
) -> None:  # fmt: skip
    client = Client(port, token)
    rng = random.Random(seed)
    device = str(uuid.UUID(int=seed + 1))
    at = start + rng.uniform(0, every)
    while at < until and time.monotonic() < until:
        time.sleep(max(0.0, at - time.monotonic()))
        at += every
        if state["phase"] == "over":
            return  # the match is decided
        body = {"seq": state["seq"] + 1, "device": device, **next_turn(state, rng)}
        sent = time.monotonic()
        try:
            reply = client.request("POST", f"/api/matches/{match}/live/turns/", body)
        except OSError as err:  # a refused or timed-out connection: an error, the table stops
            saves.append(Save(match, body["seq"], sent, time.monotonic(), 0))
            errors.append(f"table {match} seq {body['seq']}: {type(err).__name__}")
            return
        done = time.monotonic()
        if reply.status != 201:
            saves.append(Save(match, body["seq"], sent, done, reply.status))
            errors.append(f"table {match} seq {body['seq']}: {reply.status} {reply.body[:200]!r}")
            return
        after = reply.json()
        ended = after["game_number"] != state["game_number"] or after["status"] == "finished"
        saves.append(Save(match, body["seq"], sent, done, reply.status, ended))
        state = after


# --- the viewers -------------------------------------------------------------------------


@dataclass
class Poll:
    done: float
    status: int
    seq: int  # the state's seq (a 304: the one the viewer holds)
    latency: float


@dataclass
class Viewer:
    match: int
    polls: list[Poll] = field(default_factory=list)


# What a follower's browser sends with the page's poll (web/static/web/live-board.js):
# JSON asked for, a Swedish browser's languages, and the CSRF cookie the site's pages set
# (one of its own per viewer, ``get``'s ``cookie``).
BROWSER_HEADERS = ["Accept: application/json",
                   "Accept-Language: sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7"]  # fmt: skip


async def get(
    port: int,
    path: str,
    tag: str,
    timeout: float,
    cookie: str = "",
    headers: list[str] | None = None,
) -> tuple[int, bytes, str]:
    """GET ``path`` as a browser's script does (``headers``: ``BROWSER_HEADERS`` unless
    given); the status (0: no answer), the body and the ETag."""
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(BROWSER_HEADERS if headers is None else headers)]  # fmt: skip
    if cookie:
        lines.append(f"Cookie: {cookie}")
    if tag:
        lines.append(f"If-None-Match: {tag}")
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            data = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return 0, b"", ""
    head, _, body = data.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0, b"", ""
    etag = ""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"etag":
            etag = value.strip().decode()
    return status, body, etag


async def viewer(port: int, me: Viewer, every: float, start: float, until: float) -> None:
    tag, seq = "", 0
    cookie = f"csrftoken={uuid.uuid4().hex}"
    at = start + random.uniform(0, every)
    while at < until and time.monotonic() < until:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        at += every
        sent = time.monotonic()
        status, body, new = await get(port, f"/api/matches/{me.match}/live/", tag, 30, cookie)
        done = time.monotonic()
        if status == 200:
            found = SEQ.search(body)
            seq = int(found.group(1)) if found else seq
            tag = new or tag
        me.polls.append(Poll(done, status, seq, (done - sent) * 1000))


# --- main ---------------------------------------------------------------------------------


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")  # the servers are stopped on the way out


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--turn-every", type=float, default=5.0, help="a table's cadence (s)")
    parser.add_argument("--every", type=float, default=float(FOLLOW_EVERY),
                        help="a viewer's poll interval (s): the page's")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=90.0,
                        help="how long it is measured, after the warm-up")  # fmt: skip
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="the first seconds of the load, while the viewers arrive: "
                        "run but not measured (their figures are printed apart)")  # fmt: skip
    # one per core: the live paths are CPU-bound, and on 2 cores 4 workers queued the
    # tables' turns behind the polls (p99 at the table 6.2 s with 4, 1.1 s with 2)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2,
                        help="gunicorn sync workers (default: one per core)")  # fmt: skip
    parser.add_argument("--threads", type=int, default=1,
                        help="each worker's threads (1: sync workers, more: gthread)")  # fmt: skip
    parser.add_argument("--proxy", choices=["nginx"], default=None,
                        help="a buffering proxy in front of gunicorn (Debian's nginx), "
                        "as in README's deployment")  # fmt: skip
    parser.add_argument("--port", type=int, default=8170)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument("--db-name", default=DB_NAME, help="dropped and made again")
    parser.add_argument("--no-worker", action="store_true", help="no Celery worker")
    parser.add_argument("--keep-logs", action="store_true", help="keep gunicorn's logs")
    parser.add_argument(
        "--tables-nice",
        type=int,
        default=0,
        help="the niceness of the tables' own process (64 phones posting a turn every few "
        "seconds: little CPU)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=10,
        help="the niceness this process (the viewers) takes once the servers run: 0 to "
        "compete with them as equals",
    )
    args = parser.parse_args()
    if (
        not 1 <= args.viewers <= MAX_VIEWERS
        or not 0 < args.seconds <= MAX_SECONDS
        or not 0 <= args.warmup <= MAX_SECONDS
    ):
        raise SystemExit(f"at most {MAX_VIEWERS} viewers for at most {MAX_SECONDS:g} s")
    print(f"before: {load()}")
    setup = Setup(
        db_name=args.db_name,
        pg=args.pg,
        port=args.port,
        workers=args.workers,
        threads=args.threads,
        proxy=args.proxy,
        redis_url=args.redis_url,
        celery_worker=not args.no_worker,
        log_prefix="sheet-bench-",
        keep_logs=args.keep_logs,
    )
    with served(setup, lambda: populate(2 * args.tables)) as (server, (token, matches)):
        server.warm([f"/api/matches/{matches[0]}/"], 4 * args.workers)
        print(
            f"gunicorn {args.workers} workers of {args.threads} thread(s) on :{args.port}"
            + (f" behind {args.proxy}; " if args.proxy else "; ")
            + f"PostgreSQL {args.db_name}; "
            f"Redis {args.redis_url}; Celery worker: {not args.no_worker}; {args.tables} tables, "
            f"{args.viewers} viewers polling every {args.every:g} s; niceness: viewers "
            f"{args.client_nice}, tables {args.tables_nice}; {load()}"
            + (f"; logs in {server.logdir}" if args.keep_logs else "")
        )
        server.reset_log()
        # every table starts its game first: a viewer follows a board being recorded
        errors: list[str] = []
        started = [(m, table_start(args.port, token, m, errors)) for m in matches[: args.tables]]
        start = time.monotonic() + 2.0
        # The tables and viewers are phones in the room, not processes of the server: the
        # tables post from a process of their own (a turn's latency is not the viewers'
        # event loop holding the interpreter), this process steps back (``--client-nice``)
        # so what the figures measure is the server on its cores. Its own timings can only
        # grow by it (it gets the CPU last).
        tables = Tables(args, token, started, start)
        os.nice(args.client_nice)
        # what is measured begins once the crowd has come (``--warmup``): from then on
        # gunicorn's log and CPU time count
        cpu: list[float] = []

        def measure() -> None:
            server.reset_log()
            cpu.extend((server.cpu_seconds(), server.worker_cpu_seconds()))

        timer = threading.Timer(max(0.0, start + args.warmup - time.monotonic()), measure)
        timer.start()
        result = run(args, started, start, tables)
        timer.join()
        result.cpu = server.cpu_seconds() - cpu[0]
        result.worker_cpu = server.worker_cpu_seconds() - cpu[1]
        result.errors[:0] = errors
        report(args, result, server.access_log)
    print(f"after: {load()}")
    return 0


@dataclass
class Run:
    saves: list[Save]
    errors: list[str]
    viewers: list[Viewer]
    seconds: float  # measured (after the warm-up)
    measured_from: float  # the monotonic time the measured part begins
    cpu: float = 0.0  # gunicorn's CPU seconds over the measured part
    worker_cpu: float = 0.0  # the Celery worker's


class Tables:
    """The tables, posting their turns from a process of their own (``main``), its
    niceness ``--tables-nice``; what they saw comes back through a file."""

    def __init__(
        self, args: argparse.Namespace, token: str, started: list[Any], start: float
    ) -> None:
        self.out = Path(tempfile.mkstemp(prefix="sheet-bench-tables-", suffix=".json")[1])
        context = multiprocessing.get_context("fork")
        self.process = context.Process(
            target=tables_run, args=(args, token, started, start, str(self.out)), daemon=True
        )
        self.process.start()

    def result(self, timeout: float) -> tuple[list[Save], list[str]]:
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        try:
            data = json.loads(self.out.read_text() or "{}")
        finally:
            self.out.unlink(missing_ok=True)
        if not data:
            return [], [f"the tables' process ended with {self.process.exitcode}"]
        return [Save(*row) for row in data["saves"]], list(data["errors"])


def tables_run(
    args: argparse.Namespace, token: str, started: list[Any], start: float, out: str
) -> None:
    """The tables' process: one thread per table until the run's end."""
    os.nice(args.tables_nice)
    saves: list[Save] = []
    errors: list[str] = []
    until = start + args.warmup + args.seconds
    threads = [
        threading.Thread(
            target=table,
            args=(args.port, token, match, state, args.turn_every, start, until, saves, errors, i),
            daemon=True,
        )
        for i, (match, state) in enumerate(started)
        if state is not None
    ]
    for t in threads:
        t.start()
    deadline = until + 70  # a table's last request times out within 60 s
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    rows = [[s.match, s.seq, s.sent, s.done, s.status, s.ended] for s in list(saves)]
    Path(out).write_text(json.dumps({"saves": rows, "errors": list(errors)}))


def run(args: argparse.Namespace, started: list[Any], start: float, tables: Tables) -> Run:
    boards = [m for m, state in started if state is not None]
    until = start + args.warmup + args.seconds
    rng = random.Random(7)
    viewers = [Viewer(rng.choice(boards)) for _ in range(args.viewers)]

    async def everyone() -> None:
        await asyncio.gather(*(viewer(args.port, v, args.every, start, until) for v in viewers))

    asyncio.run(everyone())
    saves, errors = tables.result(timeout=max(0.0, until + 75 - time.monotonic()))
    return Run(saves, errors, viewers, args.seconds, start + args.warmup)


def report(args: argparse.Namespace, result: Run, log: Path) -> None:
    begin = result.measured_from
    ok = [s for s in result.saves if s.status == 201 and s.sent >= begin]
    save_ms = [(s.done - s.sent) * 1000 for s in ok]
    polls = [p for v in result.viewers for p in v.polls if p.done >= begin]
    # every error counts, the warm-up's too
    bad_polls = [p for v in result.viewers for p in v.polls if p.status not in (200, 304)]
    early_saves = [(s.done - s.sent) * 1000 for s in result.saves if s.sent < begin]
    early_polls = [p.latency for v in result.viewers for p in v.polls if p.done < begin]
    stale: list[float] = []
    unseen = 0
    by_match: dict[int, list[Viewer]] = {}
    for v in result.viewers:
        by_match.setdefault(v.match, []).append(v)
    end = max((p.done for p in polls), default=0.0)
    for save in ok:
        for v in by_match.get(save.match, []):
            seen = next(
                (p.done for p in v.polls if p.done >= save.done and p.seq >= save.seq), None
            )
            if seen is None:
                if save.done < end - 2 * args.every:
                    unseen += 1  # not seen although polls came after it
                continue
            stale.append(seen - save.done)
    server = server_times(log)
    print()
    print(f"warm-up (the first {args.warmup:g} s: the crowd arriving, not counted below): "
          f"{len(early_saves)} turn saves, p99 {percentile(early_saves, 0.99):.0f} ms; "
          f"{len(early_polls)} polls, p99 {percentile(early_polls, 0.99):.0f} ms")  # fmt: skip
    print(f"measured: {result.seconds:g} s")
    print(f"turn saves: {len(ok)} of {len([s for s in result.saves if s.sent >= begin])} sent "
          f"({len(ok) / result.seconds:.1f}/s); latency at the table "
          f"p50 {percentile(save_ms, 0.5):.0f} ms, p99 {percentile(save_ms, 0.99):.0f} ms, "
          f"max {max(save_ms, default=float('nan')):.0f} ms; in gunicorn p50 "
          f"{percentile(server['POST'], 0.5):.0f} ms, p99 "
          f"{percentile(server['POST'], 0.99):.0f} ms")  # fmt: skip
    # A turn that ends a game also enters its result (the record submitted, the game
    # added, the match scored and moved on, the next game begun): apart, and in the above.
    plain = [(s.done - s.sent) * 1000 for s in ok if not s.ended]
    ending = [(s.done - s.sent) * 1000 for s in ok if s.ended]
    longest = max(ending, default=float("nan"))
    print(f"  of which {len(plain)} within a game: p50 {percentile(plain, 0.5):.0f} ms, "
          f"p99 {percentile(plain, 0.99):.0f} ms; {len(ending)} ending a game: p50 "
          f"{percentile(ending, 0.5):.0f} ms, max {longest:.0f} ms")  # fmt: skip
    lat = [p.latency for p in polls]
    share = sum(p.status == 304 for p in polls) / max(1, len(polls))
    print(f"viewer polls: {len(polls)} ({len(polls) / result.seconds:.0f}/s), p50 "
          f"{percentile(lat, 0.5):.0f} ms, p99 {percentile(lat, 0.99):.0f} ms, 304 share "
          f"{share:.0%}; in gunicorn p50 {percentile(server['GET'], 0.5):.0f} ms, p99 "
          f"{percentile(server['GET'], 0.99):.0f} ms")  # fmt: skip
    print(f"staleness (turn saved -> seen by each viewer of its board): "
          f"p50 {percentile(stale, 0.5):.2f} s, p99 {percentile(stale, 0.99):.2f} s, "
          f"max {max(stale, default=float('nan')):.2f} s over {len(stale)} sightings; "
          f"never seen: {unseen}")  # fmt: skip
    served = len(server["GET"]) + len(server["POST"])
    print(f"gunicorn's CPU: {result.cpu:.1f} s over the run ({result.cpu / result.seconds:.2f} "
          f"cores), {1000 * result.cpu / max(1, served):.1f} ms per live request "
          f"({served} logged); the Celery worker's: {result.worker_cpu:.1f} s")  # fmt: skip
    errors = result.errors + [f"viewer poll: {p.status}" for p in bad_polls]
    print(f"errors: {len(errors)}")
    for line in errors[:20]:
        print(f"  {line}")
    print(
        json.dumps(
            {
                "save_p50_ms": round(percentile(save_ms, 0.5), 1),
                "save_p99_ms": round(percentile(save_ms, 0.99), 1),
                "save_within_game_p99_ms": round(percentile(plain, 0.99), 1),
                "game_ending_saves": len(ending),
                "stale_p99_s": round(percentile(stale, 0.99), 2),
                "stale_max_s": round(max(stale, default=float("nan")), 2),
                "errors": len(errors),
            }
        )
    )


def server_times(log: Path) -> dict[str, list[float]]:
    """Milliseconds per request as gunicorn logged them, by method (the live API only)."""
    out: dict[str, list[float]] = {"GET": [], "POST": []}
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and "/live/" in parts[3] and parts[2] in out:
            out[parts[2]].append(int(parts[1]) / 1000)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
