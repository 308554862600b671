"""A club's evening on the embedded default, served exactly as ``scripts/run.sh`` serves
it: gunicorn with ``config/gunicorn_embedded.py`` (one process, threads, the
in-process beat) on a SQLite file, tasks in-process, no PostgreSQL, no Redis.

    .venv/bin/python bench/club_evening.py                  # 10 minutes, as the issue says
    .venv/bin/python bench/club_evening.py --seconds 60 --phones 50

The load, for ``--seconds`` (600):

- **16 tables** (``--tables``) of a public 32-player bräde knockout record whole games
  through the live turn API, a turn every 5 s each (bench/live_board_bench.py's tables,
  in a process of their own): the turn that ends a game enters its result, stores its
  record (verified already by its checked turns, never queued) and starts the next game.
  The first round is played over 11 games, so no table's match is decided within the run.
- **200 phones** (``--phones``): three in four follow one board each, polling its live
  state every ``scoresheets.polling.FOLLOW_EVERY`` seconds with ``If-None-Match``
  (``web/static/web/live-board.js``); one in four has the tournament page open: the page
  once, then its "games in progress" section every 5 s and its bracket every
  ``web.views.public.LIVE_EVERY`` seconds (htmx, ``templates/web/tournament_detail.html``,
  ``_bracket.html``), each sending the ETag it last got, as the browser's cache does.
- **A referee** at the desk enters a result every 10 s through ``POST
  /api/matches/M/games/`` in a second tournament (a 64-player knockout, best of 3), then
  reads the match back; a decided match's winner moves on and the referee takes the next
  match ready to play.
- **Two players** every 30 s in a third tournament whose players report their results
  (16 players, each with an account): one reports the next game of their match (``POST
  /api/matches/M/reports/``), the opponent confirms it (``POST /api/reports/R/confirm/``).

Printed: the requests by kind (count, p50, p99, max), every 5xx and failed connection, the
"database is locked" lines and tracebacks in the server's log, the turn saves' latency,
the game records submitted / verified / pending (read from the SQLite file after the run,
once the in-process beat's sweep has drained them, waiting up to 60 s: how long it took
is printed), the server's resident memory (master and worker, from /proc every 10 s)
after the first minute, at the end and at most, gunicorn's CPU time over the load (one
process: a share near one core is a server at its limit, whatever the machine's other
core does) and the load average at the start and the end. Then one line per goal of the
issue, PASS or FAIL: no 5xx, no record pending, a turn saved at p99 under 250 ms, the
resident size at the end within 50 MB of the size after the first minute (after half the
run when it is shorter than two minutes). Figures only: the bench exits 0 whatever they
are, 1 only when it could not run.

The load generator steps back (``--client-nice``, 10: the phones, the referee and the
players; the tables keep niceness 0 in their own process) so the figures measure the
server on its cores. It makes everything it uses in a temporary folder (bench/serving.py,
``Setup(embedded=True)``: the SQLite file, the secret key, the server's log; kept with
``--keep-logs``) and removes it afterwards, talks to 127.0.0.1 only and is bounded
(``MAX_TABLES`` tables, ``MAX_PHONES`` phones, ``MAX_SECONDS`` seconds). On a busy
machine the figures are pessimistic: read them with the load average printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import random
import signal
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_board_bench import Tables, Viewer, get, table_start, viewer  # noqa: E402
from live_board_bench import populate as live_populate  # noqa: E402
from reliability import Client, Reply  # noqa: E402
from serving import Setup, load, percentile, process_stats, served  # noqa: E402

from scoresheets.polling import FOLLOW_EVERY  # noqa: E402

MAX_TABLES = 64
MAX_PHONES = 2000
MAX_SECONDS = 900.0
LIVE_GAMES = 11  # the live tables' first round: no match decided within the run
PAGE_SHARE = 0.25  # of the phones, those with the tournament page open
SECTION_EVERY = 5.0  # the page's "games in progress" section (hx-trigger "every 5s")
REFEREE_EVERY = 10.0
REPORT_EVERY = 30.0
MEMORY_EVERY = 10.0
BASELINE_AFTER = 60.0  # "the size after the first minute"
DRAIN_SECONDS = 60.0  # how long the records may take to be swept after the load
PASSWORD = "club-evening"
# What a phone's browser sends: for the page itself, and with htmx's polls of its parts
# (the browser's cache adds If-None-Match).
PAGE_HEADERS = ["Accept: text/html,application/xhtml+xml,*/*;q=0.8",
                "Accept-Language: sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7"]  # fmt: skip
HTMX_HEADERS = ["Accept: */*", "HX-Request: true",
                "Accept-Language: sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7"]  # fmt: skip


# --- what is made before the server starts --------------------------------------------------


@dataclass
class Made:
    token: str  # the referee's API token: the tables and the desk
    live: int  # the tournament recorded at the tables
    tables: list[int]  # its first-round matches
    desk: int  # the tournament whose results the referee enters
    reports: int  # the tournament whose players report theirs
    players: dict[int, str] = field(default_factory=dict)  # its player id -> the API token


def populate(tables: int) -> Made:
    """The live tournament (live_board_bench's, its first round over ``LIVE_GAMES``
    games), the referee's tournament and the players' one, drawn and running."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.models import Entry, Player, ResultsBy, Round, Tournament
    from tournaments.round_lengths import round_length_set
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create, tournament_staff_set

    token, matches = live_populate(2 * tables)
    users = get_user_model().objects
    organiser = users.get(username="arrangor")
    referee = users.get(username="domare")
    live = Tournament.objects.get(name="Scoresheet Cup")
    round_length_set(
        round=Round.objects.get(tournament=live, number=1), length=LIVE_GAMES, by=organiser
    )

    def drawn(name: str, players: int, prefix: str, **options: Any) -> Tournament:
        from tournaments.entries import entry_player_add

        tournament = tournament_create(
            by=organiser, name=name, start_date=datetime.date(2026, 11, 28), **options
        )
        tournament_staff_set(tournament=tournament, by=organiser, referees=[referee])
        for i in range(players):
            entry_player_add(tournament=tournament, name=f"{prefix} {i + 1:03d}", by=organiser)
        return tournament_draw(tournament=tournament, by=organiser, draw_seed=1)

    desk = drawn("Klubbmästerskapet", 64, "Medlem")
    reports = drawn("Spelarnas cup", 16, "Rapportör", results_by=ResultsBy.PLAYERS)
    players: dict[int, str] = {}
    for entry in Entry.objects.filter(tournament=reports).select_related("player"):
        user = users.create_user(f"spelare{entry.player_id}", password=PASSWORD)
        Player.objects.filter(pk=entry.player_id).update(user=user)
        players[entry.player_id] = Token.objects.create(user=user).key
    return Made(token, live.pk, matches[:tables], desk.pk, reports.pk, players)


# --- what is asked, and what it took ---------------------------------------------------------


@dataclass
class Asked:
    kind: str
    status: int  # 0: no answer (a refused or timed-out connection)
    ms: float
    at: float  # monotonic, when the answer came


class Log:
    """Every request of the phones, the referee and the players (thread-safe)."""

    def __init__(self) -> None:
        self.rows: list[Asked] = []
        self._lock = threading.Lock()

    def add(self, kind: str, status: int, sent: float) -> None:
        done = time.monotonic()
        with self._lock:
            self.rows.append(Asked(kind, status, (done - sent) * 1000, done))

    def call(
        self, kind: str, client: Client, method: str, path: str, body: Any = None
    ) -> Reply | None:
        """``client``'s request, logged as ``kind``; None when it got no answer."""
        sent = time.monotonic()
        try:
            reply = client.request(method, path, body)
        except OSError:
            self.add(kind, 0, sent)
            return None
        self.add(kind, reply.status, sent)
        return reply


async def page_phone(port: int, tournament: int, every: float, until: float, log: Log) -> None:
    """A phone with the tournament page open (module docstring)."""
    cookie = f"csrftoken={uuid.uuid4().hex}"
    sent = time.monotonic()
    status, _, _ = await get(port, f"/tournaments/{tournament}/", "", 30, cookie, PAGE_HEADERS)
    log.add("tournament page", status, sent)
    parts = {
        "tournament live section": (f"/tournaments/{tournament}/live/?part=section", SECTION_EVERY),
        "tournament bracket": (f"/tournaments/{tournament}/bracket/", every),
    }
    tags = dict.fromkeys(parts, "")
    due = {kind: time.monotonic() + random.uniform(0, pace) for kind, (_, pace) in parts.items()}
    while True:
        kind = min(due, key=lambda k: due[k])
        if due[kind] >= until:
            return
        await asyncio.sleep(max(0.0, due[kind] - time.monotonic()))
        path, pace = parts[kind]
        due[kind] += pace
        sent = time.monotonic()
        status, _, tag = await get(port, path, tags[kind], 30, cookie, HTMX_HEADERS)
        log.add(kind, status, sent)
        if status == 200 and tag:
            tags[kind] = tag


# --- the referee and the players -----------------------------------------------------------------


def next_match(client: Client, log: Log, tournament: int, who: str) -> int | None:
    """The first match of the tournament being played, else ready to play (both players
    known), as the desk's list shows them."""
    for state in ("playing", "ready"):
        path = f"/api/matches/?tournament={tournament}&state={state}&ordering=round,id"
        reply = log.call(f"{who}: match list", client, "GET", path)
        if reply is None or reply.status != 200:
            continue
        for match in reply.json().get("results", []):
            if match["player1"] and match["player2"]:
                return int(match["id"])
    return None


def open_match(
    client: Client, log: Log, tournament: int, match: int | None, who: str
) -> tuple[int, dict[str, Any]] | None:
    """The match to enter a game of (``match`` while it is undecided, else the next one),
    read as its page shows it: its id and the API's detail; None when none is left."""
    for _ in range(3):
        match = match or next_match(client, log, tournament, who)
        if match is None:
            return None
        reply = log.call(f"{who}: match read", client, "GET", f"/api/matches/{match}/")
        if reply is None or reply.status != 200:
            return None
        detail = reply.json()
        if detail["match"]["state"] != "decided":
            return match, detail
        match = None
    return None


def next_game(detail: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The next game's result, at random (the tek's starter for game 1)."""
    number = len(detail["games"]) + 1
    body: dict[str, Any] = {"number": number, "winner": rng.choice("WB"), "outcome": "hemspel"}
    if number == 1:
        body["starter"] = "W"
    return body


def at_intervals(every: float, start: float, until: float, rng: random.Random) -> Any:
    """Sleep to each moment ``every`` seconds apart (the first at random in the first
    interval) before ``until``, yielding after each sleep."""
    at = start + rng.uniform(0, every)
    while at < until:
        time.sleep(max(0.0, at - time.monotonic()))
        at += every
        yield


def referee(port: int, token: str, tournament: int, start: float, until: float, log: Log) -> None:
    """The referee at the desk: one game's result entered every ``REFEREE_EVERY`` seconds
    in the match being played (read first, as its page shows it); the next match once one
    is decided."""
    client = Client(port, token)
    rng = random.Random(11)
    match: int | None = None
    for _ in at_intervals(REFEREE_EVERY, start, until, rng):
        opened = open_match(client, log, tournament, match, "referee")
        if opened is None:
            return  # the tournament is over (or the server does not answer: counted)
        match, detail = opened
        body = next_game(detail, rng)
        log.call("referee: game entered", client, "POST", f"/api/matches/{match}/games/", body)


def players(
    port: int, tokens: dict[int, str], tournament: int, start: float, until: float, log: Log
) -> None:
    """Two players every ``REPORT_EVERY`` seconds: the match's first player reports its
    next game, the second confirms it."""
    rng = random.Random(13)
    look = Client(port, next(iter(tokens.values())))
    match: int | None = None
    for _ in at_intervals(REPORT_EVERY, start, until, rng):
        opened = open_match(look, log, tournament, match, "players")
        if opened is None:
            return
        match, detail = opened
        one, two = detail["match"]["player1"]["id"], detail["match"]["player2"]["id"]
        body = next_game(detail, rng)
        reporter, opponent = Client(port, tokens[one]), Client(port, tokens[two])
        report = log.call(
            "players: report", reporter, "POST", f"/api/matches/{match}/reports/", body
        )
        if report is None or report.status != 201:
            continue
        confirm = f"/api/reports/{report.json()['id']}/confirm/"
        log.call("players: confirm", opponent, "POST", confirm)


# --- the server's memory and log ---------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc): gunicorn's worker."""
    return [child for child, fields in process_stats() if int(fields[1]) == pid]


def resident_mb(pid: int) -> float:
    """The process's resident size (VmRSS) in MB; 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass
class Sample:
    at: float  # seconds since the load began
    master: float  # MB
    worker: float  # MB (the sum, were there ever more than one)
    workers: tuple[int, ...]  # their pids: a new one is a worker restarted

    @property
    def total(self) -> float:
        return self.master + self.worker


class Memory:
    """gunicorn's resident sizes every ``MEMORY_EVERY`` seconds from ``start``."""

    def __init__(self, master: int, start: float) -> None:
        self.master = master
        self.start = start
        self.samples: list[Sample] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sample(self) -> Sample:
        workers = tuple(children(self.master))
        taken = Sample(
            time.monotonic() - self.start,
            resident_mb(self.master),
            sum(resident_mb(pid) for pid in workers),
            workers,
        )
        self.samples.append(taken)
        return taken

    def _run(self) -> None:
        at = self.start
        while not self._stop.wait(max(0.0, at - time.monotonic())):
            self.sample()
            at += MEMORY_EVERY

    def stop(self) -> Sample:
        """Stop sampling; one last sample, the end's."""
        self._stop.set()
        self._thread.join()
        return self.sample()


LOG_MARKS = {
    "database is locked": "database is locked",
    "tracebacks": "Traceback (most recent call last)",
    "internal server errors logged": "Internal Server Error",
    "worker timeouts": "WORKER TIMEOUT",
    "workers booted": "Booting worker",
}


def log_marks(path: Path) -> dict[str, int]:
    text = path.read_text(errors="replace") if path.exists() else ""
    return {name: text.count(mark) for name, mark in LOG_MARKS.items()}


def records() -> Counter[str]:
    """The game records' states, read from the SQLite file (this process's Django)."""
    from django.db import connections

    from matches.models import GameRecordSubmission

    try:
        return Counter(GameRecordSubmission.objects.values_list("state", flat=True))
    finally:
        connections.close_all()


def drained(seconds: float) -> tuple[Counter[str], float]:
    """The records' states once none is pending or being verified (the in-process beat's
    sweep), or after ``seconds``; and how long it took."""
    began = time.monotonic()
    while True:
        states = records()
        if not pending(states) or time.monotonic() - began >= seconds:
            return states, time.monotonic() - began
        time.sleep(1.0)


def pending(states: Counter[str]) -> int:
    return states["pending"] + states["verifying"]


# --- main --------------------------------------------------------------------------------------


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")  # the server is stopped on the way out


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16, help="tables recording (16)")
    parser.add_argument("--phones", type=int, default=200, help="phones following (200)")
    parser.add_argument("--seconds", type=float, default=600.0, help="the load's length (600)")
    parser.add_argument("--port", type=int, default=8180)
    parser.add_argument("--turn-every", type=float, default=5.0, help="a table's cadence (s)")
    parser.add_argument("--client-nice", type=int, default=10,
                        help="this process's niceness once the server runs (the phones, the "
                        "referee, the players); the tables keep 0")  # fmt: skip
    parser.add_argument("--keep-logs", action="store_true",
                        help="keep the temporary folder (SQLite file, server's log)")  # fmt: skip
    args = parser.parse_args()
    if (
        not 1 <= args.tables <= MAX_TABLES
        or not 0 <= args.phones <= MAX_PHONES
        or not 0 < args.seconds <= MAX_SECONDS
        or not 1.0 <= args.turn_every <= 60.0
        or not 1024 <= args.port <= 65535
    ):
        raise SystemExit(
            f"at most {MAX_TABLES} tables and {MAX_PHONES} phones for at most "
            f"{MAX_SECONDS:g} s, a turn every 1 to 60 s, a port from 1024"
        )
    return args


@dataclass
class Evening:
    log: Log
    saves: list[Any]  # live_board_bench.Save
    table_errors: list[str]
    viewers: list[Viewer]
    memory: list[Sample]
    states: Counter[str]
    drain_seconds: float
    marks: dict[str, int]
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]
    cpu: float  # gunicorn's CPU seconds (master and worker) over the load
    seconds: float  # the load's length, as it ran


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    args = arguments()
    print(f"before: {load()}")
    setup = Setup(port=args.port, embedded=True, log_prefix="club-evening-",
                  keep_logs=args.keep_logs)  # fmt: skip
    with served(setup, lambda: populate(args.tables)) as (server, made):
        from web.views.public import LIVE_EVERY

        page = f"/tournaments/{made.live}/"
        server.warm([page, f"{page}bracket/", f"{page}live/?part=section"], rounds=2)
        print(
            f"the embedded default as scripts/run.sh serves it: gunicorn -c "
            f"config/gunicorn_embedded.py on :{args.port}, SQLite in {server.logdir}; "
            f"{args.tables} tables (a turn every {args.turn_every:g} s), {args.phones} phones, "
            f"a referee, two players; {args.seconds:g} s"
        )
        table_errors: list[str] = []
        started = [(m, table_start(args.port, made.token, m, table_errors)) for m in made.tables]
        start = time.monotonic() + 2.0
        until = start + args.seconds
        load_start = os.getloadavg()
        tables = Tables(
            argparse.Namespace(port=args.port, turn_every=args.turn_every, warmup=0.0,
                               seconds=args.seconds, tables_nice=0),
            made.token, started, start,
        )  # fmt: skip
        os.nice(args.client_nice)  # the phones and the desk step back (module docstring)
        memory = Memory(server.group, start)
        cpu = server.cpu_seconds()
        log = Log()
        span = (start, until, log)
        desks = [
            threading.Thread(target=referee, args=(args.port, made.token, made.desk, *span)),
            threading.Thread(target=players, args=(args.port, made.players, made.reports, *span)),
        ]
        for desk in desks:
            desk.start()
        boards = [m for m, state in started if state is not None] or made.tables
        rng = random.Random(7)
        on_page = round(args.phones * PAGE_SHARE)
        viewers = [Viewer(rng.choice(boards)) for _ in range(args.phones - on_page)]

        async def phones() -> None:
            await asyncio.gather(
                *(viewer(args.port, v, float(FOLLOW_EVERY), start, until) for v in viewers),
                *(page_phone(args.port, made.live, float(LIVE_EVERY), until, log)
                  for _ in range(on_page)),
            )  # fmt: skip

        asyncio.run(phones())
        for desk in desks:
            desk.join(timeout=max(0.0, until + 70 - time.monotonic()))
        saves, errors = tables.result(timeout=max(0.0, until + 75 - time.monotonic()))
        end = memory.stop()
        cpu = server.cpu_seconds() - cpu
        load_end = os.getloadavg()
        print(f"the load is over ({end.at:.0f} s); waiting for the records to be swept")
        states, drain = drained(DRAIN_SECONDS)
        evening = Evening(
            log, saves, table_errors + errors, viewers, memory.samples, states, drain,
            log_marks(server.logdir / "gunicorn.log"), load_start, load_end, cpu, end.at,
        )  # fmt: skip
        report(args, evening)
    print(f"after: {load()}")
    return 0


def figures(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):6.0f} ms, p99 {percentile(values, 0.99):6.0f} ms, "
        f"max {max(values, default=float('nan')):6.0f} ms"
    )


def report(args: argparse.Namespace, evening: Evening) -> None:
    rows = list(evening.log.rows)
    rows += [Asked("phone: board live state", p.status, p.latency, p.done)
             for v in evening.viewers for p in v.polls]  # fmt: skip
    rows += [Asked("table: turn saved", s.status, (s.done - s.sent) * 1000, s.done)
             for s in evening.saves]  # fmt: skip
    kinds: dict[str, list[Asked]] = {}
    for row in rows:
        kinds.setdefault(row.kind, []).append(row)
    print()
    print(f"requests by kind over {args.seconds:g} s (latency as the client sees it):")
    for kind in sorted(kinds):
        got = kinds[kind]
        statuses = Counter(r.status for r in got)
        shown = ", ".join(f"{n} × {s or 'no answer'}" for s, n in sorted(statuses.items()))
        print(f"  {kind:28} {len(got):6}  {figures([r.ms for r in got])}  ({shown})")
    server_errors = [r for r in rows if r.status >= 500]
    unanswered = [r for r in rows if r.status == 0]
    print(f"5xx: {len(server_errors)}; no answer: {len(unanswered)}; "
          f"tables' errors: {len(evening.table_errors)}")  # fmt: skip
    for line in evening.table_errors[:10]:
        print(f"  {line}")
    print("server's log: " + ", ".join(f"{n} × {name}" for name, n in evening.marks.items()))

    ok = [s for s in evening.saves if s.status == 201]
    turn_ms = [(s.done - s.sent) * 1000 for s in ok]
    ending = [(s.done - s.sent) * 1000 for s in ok if s.ended]
    print(f"turn saves: {len(ok)} of {len(evening.saves)} answered 201: {figures(turn_ms)}; "
          f"{len(ending)} ending a game: {figures(ending)}")  # fmt: skip

    states = evening.states
    done = states["verified"] + states["entered"] + states["mismatch"]
    print(f"game records: {sum(states.values())} submitted, {done} verified, "
          f"{pending(states)} pending after waiting {evening.drain_seconds:.0f} s "
          f"(up to {DRAIN_SECONDS:g}); states: {dict(states)}")  # fmt: skip

    samples = evening.memory
    baseline_at = min(BASELINE_AFTER, args.seconds / 2)
    first = next((s for s in samples if s.at >= baseline_at), samples[-1])
    last = samples[-1]
    most = max(samples, key=lambda s: s.total)
    workers = {pid for s in samples for pid in s.workers}
    print(f"memory (RSS, master + worker): after {first.at:.0f} s {first.total:.0f} MB "
          f"({first.master:.0f} + {first.worker:.0f}), at the end ({last.at:.0f} s) "
          f"{last.total:.0f} MB ({last.master:.0f} + {last.worker:.0f}), max {most.total:.0f} MB "
          f"at {most.at:.0f} s; end − first minute {last.total - first.total:+.1f} MB; "
          f"worker pids seen: {len(workers)}")  # fmt: skip
    minutes = [s for s in samples if round(s.at) % 60 < MEMORY_EVERY] + [last]
    print("  each minute: " + ", ".join(f"{s.at:.0f} s {s.total:.0f} MB" for s in minutes))
    print(f"gunicorn's CPU: {evening.cpu:.0f} s over {evening.seconds:.0f} s "
          f"({evening.cpu / evening.seconds:.2f} of a core: one process, so at most about one), "
          f"{1000 * evening.cpu / max(1, len(rows)):.1f} ms per request")  # fmt: skip
    one, five, fifteen = evening.load_start
    print(
        f"load average at the start {one:.2f}, {five:.2f}, {fifteen:.2f}; at the end "
        "{:.2f}, {:.2f}, {:.2f} on {} cores".format(*evening.load_end, os.cpu_count())
    )

    turn_p99 = percentile(turn_ms, 0.99)
    growth = last.total - first.total
    goals = [
        ("0 × 5xx", not server_errors, f"{len(server_errors)} × 5xx"),
        ("0 records left pending", pending(states) == 0, f"{pending(states)} pending"),
        ("a turn saved at p99 < 250 ms", turn_p99 < 250, f"p99 {turn_p99:.0f} ms"),
        ("memory flat (end within 50 MB of the first minute)", abs(growth) <= 50,
         f"{growth:+.1f} MB"),
    ]  # fmt: skip
    for goal, passed, figure in goals:
        print(f"{'PASS' if passed else 'FAIL'}  {goal}: {figure}")
    print(json.dumps({
        "requests": len(rows), "5xx": len(server_errors), "no_answer": len(unanswered),
        "database_locked": evening.marks["database is locked"],
        "turn_p50_ms": round(percentile(turn_ms, 0.5), 1), "turn_p99_ms": round(turn_p99, 1),
        "turn_max_ms": round(max(turn_ms, default=float("nan")), 1),
        "records": sum(states.values()), "records_pending": pending(states),
        "drain_s": round(evening.drain_seconds, 1),
        "rss_first_minute_mb": round(first.total, 1), "rss_end_mb": round(last.total, 1),
        "rss_max_mb": round(most.total, 1), "rss_growth_mb": round(growth, 1),
        "cpu_cores": round(evening.cpu / evening.seconds, 2),
        "load_start": [round(x, 2) for x in evening.load_start],
        "load_end": [round(x, 2) for x in evening.load_end],
    }))  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
