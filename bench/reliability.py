"""Reliability figures against the real thing: gunicorn + PostgreSQL + Redis +
Celery workers on this machine, driven over HTTP like referees, players and attackers.

    .venv/bin/python bench/reliability.py            # the full run (a few minutes)
    .venv/bin/python bench/reliability.py --quick    # the small run CI does

It makes everything it needs and removes it afterwards: a database of its own
(``brade_reliability`` on the PostgreSQL at 127.0.0.1:5432, or ``--pg``), a Redis server
of its own on a free port (so the broker outage stops only that one), a PostgreSQL cluster
of its own for the database outage (the server binaries: ``pg_ctl`` on the PATH or
Debian's ``/usr/lib/postgresql/*/bin``; run as root, it runs them as ``postgres``), a
gunicorn with four workers and Celery workers. Scenarios:

- **race**: pairs of referees enter game 1 of the same match at the same moment; each
  pair must give one 201 and one clean 409, and the database one result per game.
- **corrections**: pairs of referees correct the same game at the same moment, both
  naming the version they read (``If-Match``); one 200 and one 409 per pair, and the
  game ends with exactly one new version.
- **worker kill**: a worker is SIGKILLed (its whole process group, as when the machine
  dies) while it verifies two records and more wait in the queue (12 uploads; the full
  run three times 20); a new worker is started, beat is not running. The queued records
  must be taken up at once (the first within 10 s of the restart, no pause as long after),
  the two that were running verified within the hard time limit plus 30 s, each record
  exactly once. ``--only "worker kill"`` runs it alone.
- **broker outage**: Redis stops, players upload records (they must get 202 and stay
  pending), Redis comes back; time until every record is verified (beat running).
- **Redis loss**: records are queued (no worker running), Redis restarts empty (it keeps
  nothing on disk), a worker with beat starts; time until every record is verified (goal:
  under a minute; the database held the lost messages as live for 900 s).
- **PostgreSQL outage**: a gunicorn on a PostgreSQL cluster of its own (``initdb`` into a
  temporary folder, a free port); the cluster stops (``pg_ctl stop -m immediate``, like a
  crash) and pages, the API and sign-in are asked: each must answer 503 with
  ``Retry-After``, none 500; then the cluster starts again under traffic (two clients
  asking the pages and the API without pause from just before ``pg_ctl start`` until
  ``RESTART_WATCH`` seconds after it returned, crash recovery and "the database system is
  starting up" included): each answer must be what it was before the outage or 503 with
  ``Retry-After``, none 500; and the time until every request answers as before is printed.
- **fuzz in-process**: mutated records through the engine's replay with a match scorer;
  anything raised is a crash.
- **fuzz over HTTP**: mutated and hostile uploads (NUL and control bytes, bad UTF-8,
  oversize, JSON and multipart) through gunicorn; any 5xx is a failure, and so is a
  record whose verification crashed.

It prints one table and exits 1 when any scenario failed, so CI can run ``--quick``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DB_NAME = "brade_reliability"
PASSWORD = "brade-bench"
# Short limits, set through the documented variables, so a killed worker's record is due
# quickly; the goal is stated against them.
SOFT_LIMIT = 20
HARD_LIMIT = 30
# A worker restarted after a crash starts the records still queued within this many
# seconds (its own start included); only the ones whose attempt was running wait.
QUEUED_GOAL = 10.0
# Messages with a countdown (a webhook's retry) the killed worker holds besides its records.
HELD_ETA = 3

# A one-game record the engine replays: White bears off the last checker.
RECORD = (
    '[Rules "talisman"]\n\nGame 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\n'
    "Result: White hemspel\n"
)


@dataclass
class Row:
    scenario: str
    runs: int
    figures: str
    ok: bool
    notes: list[str] = field(default_factory=list)


# --- processes ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(condition: Callable[[], bool], seconds: float, what: str, step: float = 0.2) -> float:
    """Seconds it took; raises when ``condition`` is still false after ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if condition():
                return time.monotonic() - start
        except Exception:  # a service still starting answers with errors
            pass
        time.sleep(step)
    raise TimeoutError(f"timed out after {seconds:.0f} s waiting for {what}")


class RedisServer:
    """A private redis-server (no persistence) that can be stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="brade-redis-")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self.ping, 20, "redis-server")

    def ping(self) -> bool:
        import redis

        return bool(redis.Redis.from_url(self.url, socket_timeout=1).ping())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def queued(self) -> int:
        import redis

        return int(redis.Redis.from_url(self.url, socket_timeout=2).llen("celery"))

    def unacked(self) -> int:
        """Messages workers have taken and not acknowledged (kombu's ``unacked`` hash)."""
        import redis

        return int(redis.Redis.from_url(self.url, socket_timeout=2).hlen("unacked"))

    def queued_tasks(self) -> list[tuple[str, int | None]]:
        """Each queued message's task and first argument (None when it has none, or it
        is not a number); ``("?", None)`` for a message it cannot read."""
        import base64
        import json

        import redis

        tasks: list[tuple[str, int | None]] = []
        for item in redis.Redis.from_url(self.url, socket_timeout=2).lrange("celery", 0, -1):
            try:
                message = json.loads(item)
                body = message["body"]
                if message.get("properties", {}).get("body_encoding") == "base64":
                    body = base64.b64decode(body)
                args = json.loads(body)[0]
                first = args[0] if args and isinstance(args[0], int) else None
                tasks.append((str(message["headers"]["task"]), first))
            except (KeyError, IndexError, TypeError, ValueError):
                tasks.append(("?", None))
        return tasks

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PgCluster:
    """A private PostgreSQL cluster (``initdb`` into a temporary folder, trust
    authentication, a free port on 127.0.0.1) that can be stopped and started again."""

    def __init__(self) -> None:
        self.bin = self._bin()
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="brade-pg-")
        self.data = os.path.join(self.dir, "data")
        self.as_postgres = os.geteuid() == 0  # PostgreSQL refuses to run as root
        if self.as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")

    @staticmethod
    def _bin() -> Path:
        found = shutil.which("pg_ctl")
        if found:
            return Path(found).resolve().parent
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not versions:
            raise RuntimeError("no PostgreSQL server binaries (pg_ctl) on this machine")
        return versions[-1].parent

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/brade"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def create(self) -> None:
        self._run("initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "brade")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l",
                  os.path.join(self.dir, "log"), "-w", "start")  # fmt: skip

    def stop(self, mode: str = "immediate") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def close(self) -> None:
        with suppress(subprocess.CalledProcessError):
            self.stop("fast")
        shutil.rmtree(self.dir, ignore_errors=True)


class Processes:
    """gunicorn and Celery workers with the bench environment; all stopped on close."""

    def __init__(self, env: dict[str, str], logdir: Path) -> None:
        self.env = env
        self.logdir = logdir
        self.procs: list[subprocess.Popen[bytes]] = []

    def spawn(self, name: str, args: list[str], **extra_env: str) -> subprocess.Popen[bytes]:
        log = open(self.logdir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT, env={**self.env, **extra_env}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches the pool too
        )  # fmt: skip
        self.procs.append(proc)
        return proc

    def worker(self, name: str, *, beat: bool = False, **extra_env: str) -> subprocess.Popen[bytes]:
        node = f"{name}-{uuid.uuid4().hex[:6]}@%h"
        args = ["celery", "-A", "config", "worker", "--loglevel", "INFO", "--concurrency", "2",
                "--without-mingle", "--without-gossip", "-n", node]  # fmt: skip
        if beat:
            args += ["--beat", "--schedule", str(self.logdir / f"beat-{uuid.uuid4().hex}")]
        return self.spawn(name, args, **extra_env)

    @staticmethod
    def kill(proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL the process and everything in its group (a worker and its pool)."""
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    @staticmethod
    def stop(proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            Processes.kill(proc)

    def close(self) -> None:
        for proc in self.procs:
            self.stop(proc)


# --- HTTP -----------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body or b"null")


class Client:
    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        hdrs = {"Accept": "application/json", "Accept-Language": "en", **(headers or {})}
        if self.token:
            hdrs["Authorization"] = f"Token {self.token}"
        data: bytes | None = raw
        if body is not None:
            data = json.dumps(body).encode()
        if data is not None:
            hdrs["Content-Type"] = content_type
        try:
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
        finally:
            conn.close()

    def upload(self, match: int, payload: bytes) -> Reply:
        boundary = f"----brade{uuid.uuid4().hex}"
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="record.txt"\r\nContent-Type: text/plain\r\n\r\n'
            ).encode()
            + payload
            + f"\r\n--{boundary}--\r\n".encode()
        )
        return self.request(
            "POST", f"/api/matches/{match}/records/", raw=body,
            content_type=f"multipart/form-data; boundary={boundary}",
        )  # fmt: skip


def pair(*calls: Callable[[], Reply]) -> list[Reply | BaseException]:
    """Run the calls at the same moment (a barrier), each in its own thread."""
    barrier = threading.Barrier(len(calls))
    out: list[Reply | BaseException] = [RuntimeError("not run")] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            out[i] = calls[i]()
        except BaseException as err:  # reported in the table
            out[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def statuses(replies: list[Reply | BaseException]) -> list[int | str]:
    return [r.status if isinstance(r, Reply) else type(r).__name__ for r in replies]


# --- the system under test ------------------------------------------------------------


@dataclass
class World:
    port: int
    tokens: dict[str, str]  # user name → API token
    matches: list[int]  # first-round matches, both players known, nothing entered
    redis: RedisServer
    procs: Processes

    def client(self, user: str | None = None) -> Client:
        return Client(self.port, self.tokens[user] if user else None)


def recreate_database(pg: str) -> str:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    return f"{pg}/{DB_NAME}"


def drop_database(pg: str) -> None:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def populate(players: int) -> tuple[dict[str, str], list[int]]:
    """One organiser, two referees, two player accounts and a drawn tournament."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from matches.models import Match
    from tournaments.entries import entry_player_add
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create, tournament_staff_set

    users = {}
    for name in ("arrangor", "domare1", "domare2", "spelare"):
        user = get_user_model().objects.create_user(name, password=PASSWORD)
        users[name] = user
    users["arrangor"].user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = get_user_model().objects.get(pk=users["arrangor"].pk)
    tournament = tournament_create(
        by=organiser, name="Reliability Cup", start_date=datetime.date(2026, 11, 23)
    )
    tournament_staff_set(
        tournament=tournament, by=organiser, referees=[users["domare1"], users["domare2"]]
    )
    for i in range(players):
        entry_player_add(tournament=tournament, name=f"Spelare {i + 1:03d}", by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    matches = list(
        Match.objects.filter(
            tournament=tournament, round__number=1, player1__isnull=False, player2__isnull=False
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    tokens = {name: Token.objects.create(user=user).key for name, user in users.items()}
    return tokens, matches


@contextmanager
def system(pg: str, players: int, logdir: Path) -> Iterator[World]:
    redis_server = RedisServer()
    redis_server.start()
    database_url = recreate_database(pg)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_server.url,
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "CELERY_TASK_SOFT_TIME_LIMIT": str(SOFT_LIMIT),
        "CELERY_TASK_TIME_LIMIT": str(HARD_LIMIT),
        "PYTHONPATH": str(ROOT),
    }
    procs = Processes(env, logdir)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL",
                                                "REDIS_URL", "DJANGO_DEBUG")})  # fmt: skip
        import django

        django.setup()
        tokens, matches = populate(players)
        from django.db import connections

        connections.close_all()
        port = free_port()
        procs.spawn(
            "gunicorn",
            ["gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "4",
             "--timeout", "60"],
        )  # fmt: skip
        wait_for(lambda: Client(port).request("GET", "/healthz").status == 200, 60, "gunicorn")
        yield World(port, tokens, matches, redis_server, procs)
    finally:
        procs.close()
        redis_server.close()
        from django.db import connections

        connections.close_all()
        drop_database(pg)


def record_state(pk: int) -> tuple[str, int, str]:
    from matches.models import GameRecordSubmission

    sub = GameRecordSubmission.objects.get(pk=pk)
    return sub.state, sub.attempts, sub.message


def is_verifying(pk: int) -> bool:
    return record_state(pk)[0] == "verifying"


def is_done(pk: int) -> bool:
    from matches.models import RECORD_DONE_STATES

    return record_state(pk)[0] in RECORD_DONE_STATES


# --- scenarios ------------------------------------------------------------------------


def scenario_race(world: World, pairs: int) -> Row:
    from matches.models import GameResult

    matches = world.matches[:pairs]
    one, two = world.client("domare1"), world.client("domare2")
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for pk in matches:

        def enter(client: Client, winner: str, pk: int = pk) -> Callable[[], Reply]:
            body = {"number": 1, "winner": winner, "outcome": "hemspel", "starter": "W"}
            return lambda: client.request("POST", f"/api/matches/{pk}/games/", body)

        got = statuses(pair(enter(one, "W"), enter(two, "B")))
        seen.update(str(s) for s in got)
        if sorted(map(str, got)) != ["201", "409"]:
            bad.append(f"match {pk}: {got}")
    results = GameResult.objects.filter(game__match_id__in=matches, confirmed=True).count()
    if results != len(matches):
        bad.append(f"{results} confirmed results for {len(matches)} games")
    figures = (
        f"{seen['201']} × 201, {seen['409']} × 409, {results} results for {len(matches)} games"
    )
    return Row("race (2 referees, same game)", pairs, figures, not bad, bad[:5])


def scenario_corrections(world: World, pairs: int) -> Row:
    from matches.models import GameResult

    matches = world.matches[:pairs]  # game 1 entered by the race
    one, two = world.client("domare1"), world.client("domare2")
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for pk in matches:
        path = f"/api/matches/{pk}/games/1/"
        got = one.request("GET", path)
        etag = got.headers.get("etag", "")
        if got.status != 200 or not etag:
            bad.append(f"match {pk}: GET game gave {got.status}, ETag {etag!r}")
            continue
        current = got.json()["winner"]
        versions = GameResult.objects.filter(game__match_id=pk, game__number=1).count()

        def correct(
            client: Client, outcome: str, path: str = path, etag: str = etag, was: str = current
        ) -> Callable[[], Reply]:
            body = {"winner": "B" if was == "W" else "W", "outcome": outcome}
            return lambda: client.request("PUT", path, body, headers={"If-Match": etag})

        replies = pair(correct(one, "jan"), correct(two, "sprangjan"))
        got_s = statuses(replies)
        seen.update(str(s) for s in got_s)
        if sorted(map(str, got_s)) != ["200", "409"]:
            bad.append(f"match {pk}: {got_s}")
        after = GameResult.objects.filter(game__match_id=pk, game__number=1).count()
        if after != versions + 1:
            bad.append(f"match {pk}: {after - versions} new versions")
    figures = f"{seen['200']} × 200, {seen['409']} × 409"
    return Row("correction race (If-Match)", pairs, figures, not bad, bad[:5])


def _started_at(pk: int) -> float | None:
    """When the record's latest attempt claimed it (epoch seconds), None if none did."""
    from matches.models import GameRecordSubmission

    started = GameRecordSubmission.objects.get(pk=pk).started_at
    return started.timestamp() if started is not None else None


def _verifying_at_least(pks: list[int], count: int) -> bool:
    return sum(map(is_verifying, pks)) >= count


def _all_started(pks: list[int]) -> bool:
    return all(_started_at(pk) is not None for pk in pks)


def _all_done(pks: list[int]) -> bool:
    return all(map(is_done, pks))


def scenario_worker_kill(world: World, matches: list[int], uploads: int) -> Row:
    """Per run: ``uploads`` records are uploaded to a worker (two processes, each
    verification held 8 s) that is SIGKILLed with its pool while two are verifying and the
    rest wait in the queue, holding ``HELD_ETA`` messages that wait for their countdown
    (as a webhook's retry does; Celery raises a worker's prefetch by one for each); a new
    worker starts (no beat). The records still queued must
    be taken up at once: the first within ``QUEUED_GOAL`` seconds of the restart (the new
    worker's own start included), then one after another with no pause that long (a
    message the dead worker had reserved would wait the visibility timeout). The ones
    whose attempt was running wait for their lease only, not for Redis to hand their
    message back (the visibility timeout): the new worker queues beat's sweep for once
    the dead leases have run out (``matches.tasks.sweep_after_a_start``), and they must
    be verified within their lease + 30 s. Every record is verified exactly once."""
    from core.registered_tasks import registered_task
    from matches.models import EventKind, Game, MatchEvent
    from matches.task_names import VERIFY_GAME_RECORD

    referee = world.client("domare1")
    first_starts: list[float] = []  # restart → the first queued record's attempt
    last_starts: list[float] = []  # restart → the last queued record's attempt
    gaps: list[float] = []  # the longest pause between two queued records' attempts
    queued = 0
    running_waits: list[float] = []  # kill → a running record's verdict
    held: list[int] = []  # messages the killed worker held unacknowledged
    bad: list[str] = []
    from django.conf import settings

    lease = float(settings.GAME_RECORD_LEASE_SECONDS)
    goal = lease + 30
    runs = len(matches) // uploads
    for run in range(runs):
        batch = matches[run * uploads : (run + 1) * uploads]
        victim = world.procs.worker(
            f"victim{run}", DJANGO_SETTINGS_MODULE="tests.matches.worker_settings",
            BRADE_WORKER_DB_NAME=DB_NAME, BRADE_VERIFY_DELAY="8",
        )  # fmt: skip
        for _ in range(HELD_ETA):  # for no record: a no-op once its countdown is over
            registered_task(VERIFY_GAME_RECORD).apply_async(args=[0], countdown=30)
        pks: dict[int, int] = {}  # record → match
        for match in batch:
            reply = referee.request("POST", f"/api/matches/{match}/records/", {"text": RECORD})
            if reply.status != 202:
                bad.append(f"upload gave {reply.status}")
                continue
            pks[reply.json()["id"]] = match
        try:
            wait_for(partial(_verifying_at_least, list(pks), min(2, len(pks))), 60,
                     "two verifications")  # fmt: skip
        except TimeoutError as err:
            bad.append(str(err))
        time.sleep(1)
        Processes.kill(victim)  # mid-verification: the delay is 8 s
        killed = time.monotonic()
        held.append(world.redis.unacked())
        running = [pk for pk in pks if record_state(pk)[0] == "verifying"]
        waiting = [pk for pk in pks if record_state(pk)[0] == "pending"]
        queued += len(waiting)
        restarted = time.time()
        rescuer = world.procs.worker(f"rescuer{run}")  # no beat
        try:
            wait_for(partial(_all_started, waiting), goal + 30, "the queued records' attempts",
                     0.1)  # fmt: skip
            starts = sorted((_started_at(pk) or 0.0) - restarted for pk in waiting)
            if starts:
                first_starts.append(starts[0])
                last_starts.append(starts[-1])
                gaps.append(max((b - a for a, b in pairwise(starts)), default=0.0))
            for pk in running:
                wait_for(partial(is_done, pk), goal + 30, "the running records' verdicts", 0.1)
                running_waits.append(time.monotonic() - killed)
            wait_for(partial(_all_done, list(pks)), 60, "every verdict", 0.1)
            # and the countdown messages run (no-ops), so that none is left to later scenarios
            wait_for(lambda: world.redis.queued() + world.redis.unacked() == 0, 60,
                     "the countdown messages to run")  # fmt: skip
        except TimeoutError as err:
            bad.append(f"{err}; states {Counter(record_state(pk)[0] for pk in pks)}")
        finally:
            Processes.stop(rescuer)
        for pk, match in pks.items():
            state, attempts, message = record_state(pk)
            games = Game.objects.filter(match_id=match).count()
            verified = MatchEvent.objects.filter(
                match_id=match, kind=EventKind.RECORD_VERIFIED
            ).count()
            if state != "entered" or games != 1 or verified != 1:
                bad.append(
                    f"record {pk}: {state}, {attempts} attempts, {games} games, "
                    f"{verified} verified events ({message[:80]})"
                )
    first = max(first_starts, default=float("nan"))
    last = max(last_starts, default=float("nan"))
    gap = max(gaps, default=float("nan"))
    running_worst = max(running_waits, default=float("nan"))
    if not (first <= QUEUED_GOAL and gap <= QUEUED_GOAL):
        bad.append(f"queued records: the first started {first:.1f} s after the restart, "
                   f"pauses up to {gap:.1f} s (goal ≤ {QUEUED_GOAL:.0f} s)")  # fmt: skip
    if not running_worst <= goal:
        bad.append(f"running records verified {running_worst:.1f} s after the kill "
                   f"(goal ≤ {goal} s)")  # fmt: skip
    figures = (
        f"killed holding {max(held, default=0)} unacknowledged; {queued} queued records: "
        f"first started {first:.1f} s after the restart (goal ≤ {QUEUED_GOAL:.0f} s), "
        f"longest pause {gap:.1f} s, last {last:.1f} s; {len(running_waits)} running ones "
        f"verified {running_worst:.1f} s after the kill at worst (their lease, {lease:.0f} s, "
        f"not the visibility timeout, {HARD_LIMIT + 10} s; goal ≤ {goal:.0f} s; beat off)"
    )
    return Row("worker SIGKILLed mid-verification", runs * uploads, figures, not bad, bad[:5])


def scenario_outage(world: World, records: int, matches: list[int]) -> Row:
    referee = world.client("domare2")
    bad: list[str] = []
    world.redis.stop()
    pks: list[int] = []
    codes: Counter[int] = Counter()
    for i in range(records):
        match = matches[i]
        reply = referee.request("POST", f"/api/matches/{match}/records/", {"text": RECORD})
        codes[reply.status] += 1
        if reply.status == 202:
            pks.append(reply.json()["id"])
    pending = sum(record_state(pk)[0] == "pending" for pk in pks)
    health = Client(world.port).request("GET", "/healthz").status
    world.redis.start()
    back = time.monotonic()
    worker = world.procs.worker("outage", beat=True)
    took = float("nan")
    try:
        wait_for(lambda: all(is_done(pk) for pk in pks), 240, "every record's verdict", 0.2)
        took = time.monotonic() - back
    except TimeoutError as err:
        bad.append(str(err))
    finally:
        Processes.stop(worker)
    if codes.get(202, 0) != records:
        bad.append(f"uploads while Redis was down: {dict(codes)}")
    if pending != len(pks):
        bad.append(f"{pending} of {len(pks)} stayed pending while Redis was down")
    states = Counter(record_state(pk)[0] for pk in pks)
    figures = (
        f"{codes.get(202, 0)}/{records} accepted while down (healthz {health}), "
        f"all verified {took:.1f} s after Redis was back ({dict(states)})"
    )
    return Row("broker outage (Redis stopped)", records, figures, not bad, bad[:5])


def scenario_redis_loss(world: World, matches: list[int]) -> Row:
    """Records queued in Redis, no worker running; Redis restarts empty. The database
    still holds each record's message as live (for ``GAME_RECORD_MESSAGE_TTL``, 900 s);
    beat's sweep must notice the loss and send new messages."""
    from matches.task_names import VERIFY_GAME_RECORD

    referee = world.client("domare1")
    bad: list[str] = []
    pks: list[int] = []
    # Messages an earlier scenario left are lost with the rest; only the uploads' own are
    # counted. They are other tasks' (the notifications of the results the outage's records
    # entered, still queued when its worker stopped) or a verification's for a record
    # already done (the worker discards it); a record not done must not have one.
    spare = world.redis.queued_tasks()
    earlier = Counter(task for task, _ in spare)
    undone = [
        pk for task, pk in spare if task == VERIFY_GAME_RECORD and (pk is None or not is_done(pk))
    ]
    if undone:
        bad.append(f"messages left by earlier scenarios for records not done: {undone}")
    for match in matches:
        reply = referee.request("POST", f"/api/matches/{match}/records/", {"text": RECORD})
        if reply.status != 202:
            bad.append(f"upload gave {reply.status}")
            continue
        pks.append(reply.json()["id"])
    ours = Counter(world.redis.queued_tasks()) - Counter(spare)
    queued = sum(ours.values())
    if ours != Counter((VERIFY_GAME_RECORD, pk) for pk in pks):
        bad.append(f"the uploads queued {dict(ours)}, not one verification for each of {pks}")
    world.redis.stop()  # killed: nothing is kept (no persistence)
    world.redis.start()
    back = time.monotonic()
    left = world.redis.queued()
    worker = world.procs.worker("loss", beat=True)
    goal = 60.0
    took = float("nan")
    try:
        wait_for(lambda: all(is_done(pk) for pk in pks), 120, "every record's verdict", 0.2)
        took = time.monotonic() - back
    except TimeoutError as err:
        bad.append(str(err))
    finally:
        Processes.stop(worker)
    states = Counter(record_state(pk)[0] for pk in pks)
    attempts = Counter(record_state(pk)[1] for pk in pks)
    if states != Counter({"entered": len(matches)}) or attempts != Counter({1: len(matches)}):
        bad.append(f"records {dict(states)}, attempts {dict(attempts)}")
    if queued != len(pks) or left != 0:
        bad.append(f"{queued} messages queued before the restart, {left} after")
    if not took < goal:
        bad.append(f"verified {took:.1f} s after Redis was back (goal under {goal:.0f} s)")
    figures = (
        f"{queued} queued (and {sum(earlier.values())} left by earlier scenarios: "
        f"{dict(earlier)}), Redis restarted empty; "
        f"all verified {took:.1f} s after it was back (goal < {goal:.0f} s; the messages' "
        "slots had 900 s to run)"
    )
    return Row("Redis lost its queue (restarted empty)", len(matches), figures, not bad, bad[:5])


# What the database outage asks: pages (the list, a tournament, the ratings) and the API as
# a viewer or a client would (what the site answered before, it must answer after), and
# the two ways of signing in (each must fail cleanly while down and work after).
OUTAGE_READS = ["/", "/tournaments/{t}/", "/ratings/", "/api/tournaments/",
                "/api/tournaments/{t}/bracket/"]  # fmt: skip
FORM = "application/x-www-form-urlencoded"


def _csrf_cookie(reply: Reply) -> str:
    cookie = reply.headers.get("set-cookie", "")
    return cookie.split("csrftoken=", 1)[1].split(";", 1)[0] if "csrftoken=" in cookie else ""


def _sign_ins(port: int, csrf: str) -> list[tuple[str, Reply]]:
    """``POST /api/token/`` and the sign-in form (with its CSRF cookie and token)."""
    form = f"username=arrangor&password={PASSWORD}&csrfmiddlewaretoken={csrf}".encode()
    return [
        ("POST /api/token/", Client(port).request(
            "POST", "/api/token/", {"username": "arrangor", "password": PASSWORD})),
        ("POST /accounts/login/", Client(port).request(
            "POST", "/accounts/login/", raw=form, content_type=FORM,
            headers={"Cookie": f"csrftoken={csrf}"})),
    ]  # fmt: skip


# Seconds of traffic kept up after ``pg_ctl start`` returned (the cluster accepts
# connections then; each gunicorn worker's first request after it reconnects).
RESTART_WATCH = 3.0


@contextmanager
def _traffic(port: int, reads: list[str]) -> Iterator[list[tuple[str, Reply]]]:
    """Two clients asking ``reads`` in turn without pause until the block ends; yields
    the list their answers are added to (complete once the block has ended)."""
    answers: list[tuple[str, Reply]] = []
    stop = threading.Event()

    def ask(offset: int) -> None:
        i = offset
        while not stop.is_set():
            path = reads[i % len(reads)]
            i += 1
            with suppress(OSError, http.client.HTTPException):
                answers.append((f"GET {path}", Client(port).request("GET", path)))

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    try:
        yield answers
    finally:
        stop.set()
        for t in threads:
            t.join()


def scenario_pg_outage(world: World, cluster: PgCluster, rounds: int) -> Row:
    """gunicorn (two workers) on a private cluster; the cluster crashes (stopped
    immediately) and comes back. While it is down: 503 with Retry-After everywhere (JSON
    ``database_unavailable`` under /api/), never a 500."""
    bad: list[str] = []
    env = {**world.procs.env, "DATABASE_URL": cluster.url}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    setup = (
        "import datetime\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.auth.models import Permission\n"
        "from tournaments.entries import entry_player_add\n"
        "from tournaments.stage_draws import tournament_draw\n"
        "from tournaments.tournament_setup import tournament_create\n"
        f"u = get_user_model().objects.create_user('arrangor', password={PASSWORD!r})\n"
        "u.user_permissions.add(Permission.objects.get(codename='add_tournament'))\n"
        "u = get_user_model().objects.get(pk=u.pk)\n"
        "d = datetime.date(2026, 11, 25)\n"
        "t = tournament_create(by=u, name='Outage Cup', start_date=d)\n"
        "for i in range(8):\n"
        "    entry_player_add(tournament=t, name=f'Spelare {i + 1}', by=u)\n"
        "tournament_draw(tournament=t, by=u, draw_seed=1)\n"
        "print(t.pk)\n"
    )
    made = subprocess.run([sys.executable, "manage.py", "shell", "-c", setup], cwd=ROOT,
                          env=env, check=True, capture_output=True, text=True)  # fmt: skip
    tournament = made.stdout.strip().splitlines()[-1]
    reads = [path.format(t=tournament) for path in OUTAGE_READS]
    port = free_port()
    web = world.procs.spawn(
        "gunicorn-pg-outage",
        ["gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--timeout", "60"],
        DATABASE_URL=cluster.url,
    )  # fmt: skip
    codes: Counter[int] = Counter()
    restart_codes: Counter[int] = Counter()
    restart_bad: Counter[str] = Counter()
    latencies: list[float] = []
    health, pg_start, recovery = 0, float("nan"), float("nan")
    try:
        wait_for(lambda: Client(port).request("GET", "/healthz").status == 200, 60, "gunicorn")
        before = {path: Client(port).request("GET", path).status for path in reads}
        csrf = _csrf_cookie(Client(port).request("GET", "/accounts/login/"))
        signed = {name: reply.status for name, reply in _sign_ins(port, csrf)}
        if any(code != 200 for code in before.values()) or signed != {
            "POST /api/token/": 201, "POST /accounts/login/": 302}:  # fmt: skip
            bad.append(f"before the outage: {before} {signed}")
        cluster.stop("immediate")
        for _ in range(rounds):
            replies = []
            for path in reads:
                started = time.monotonic()
                replies.append((f"GET {path}", Client(port).request("GET", path)))
                latencies.append(time.monotonic() - started)
            replies += _sign_ins(port, csrf)
            for name, reply in replies:
                codes[reply.status] += 1
                if reply.status != 503 or not reply.headers.get("retry-after"):
                    bad.append(f"{name}: {reply.status}, Retry-After "
                               f"{reply.headers.get('retry-after')!r}")  # fmt: skip
                elif "/api/" in name and reply.json()["error"]["code"] != "database_unavailable":
                    bad.append(f"{name}: {reply.body[:100]!r}")
        health = Client(port).request("GET", "/healthz").status
        with _traffic(port, reads) as restart:
            started = time.monotonic()
            cluster.start()
            pg_start = time.monotonic() - started
            time.sleep(RESTART_WATCH)
        for name, reply in restart:
            restart_codes[reply.status] += 1
            expected = reply.status == before[name.removeprefix("GET ")] or (
                reply.status == 503 and reply.headers.get("retry-after")
            )
            if not expected:
                restart_bad[f"{name}: {reply.status} {reply.headers.get('content-type')}"] += 1
        if restart_bad:
            bad.append(f"while PostgreSQL started: {dict(restart_bad)}")

        def recovered() -> bool:  # every page as before, several times (both workers)
            return all(
                Client(port).request("GET", path).status == before[path]
                for _ in range(3)
                for path in reads
            )

        recovery = wait_for(recovered, 60, "the site to answer as before", 0.1)
        after = {name: reply.status for name, reply in _sign_ins(port, csrf)}
        if after != {"POST /api/token/": 200, "POST /accounts/login/": 302}:
            bad.append(f"signing in after the outage: {after}")
    except Exception as err:  # reported in the table
        bad.append(f"{type(err).__name__}: {err}")
    finally:
        Processes.stop(web)
    latencies.sort()
    worst = latencies[-1] if latencies else float("nan")
    median = latencies[len(latencies) // 2] if latencies else float("nan")
    figures = (
        f"{sum(codes.values())} requests while down: {dict(sorted(codes.items()))} "
        f"(p50 {median * 1000:.0f} ms, max {worst * 1000:.0f} ms; healthz {health}); "
        f"PostgreSQL up in {pg_start:.1f} s; {sum(restart_codes.values())} requests while "
        f"it started and {RESTART_WATCH:.0f} s after: {dict(sorted(restart_codes.items()))}, "
        f"{restart_codes[500]} × 500 (goal 0); the site answering as before "
        f"{recovery:.1f} s after"
    )
    return Row("PostgreSQL outage (503, then back)", sum(codes.values()), figures, not bad,
               bad[:5])  # fmt: skip


def fuzz_inputs(count: int, seed: int) -> Iterator[bytes]:
    """Mutations of real records (the engine's corpus) and hostile bytes."""
    from engine.corpus import CORPUS

    rng = random.Random(seed)
    seeds = [spec.text(games=3).encode() for spec in CORPUS] + [RECORD.encode()]
    tokens = [b"\x00", b"\x01", b"\x1b[2J", b"\x7f", b"\xff\xfe", b"\xc3(", b"\ufeff",
              "ä".encode(), b"\r\n", b"Game 2\n", b"Result: White jan\n", b"W resigns\n",
              b"Position: W 24 | B 1:15 | W\n", b'[Length "3"]\n', b'[Rules "vasa"]\n',
              b"bar/3", b"(99)", b"*", b"6-6: ", b"<script>alert(1)</script>"]  # fmt: skip
    for _ in range(count):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            kind = rng.random()
            pos = rng.randrange(len(data) + 1)
            digits = [i for i, b in enumerate(data) if 0x30 <= b <= 0x39]
            if kind < 0.45 and digits:  # another number: often still a record, now illegal
                data[rng.choice(digits)] = rng.randrange(0x30, 0x3A)
            elif kind < 0.6:
                data[pos:pos] = rng.choice(tokens)
            elif kind < 0.7 and data:
                del data[pos : pos + rng.randint(1, 20)]
            elif kind < 0.75 and data:
                data[min(pos, len(data) - 1)] = rng.randrange(256)
            elif kind < 0.9:
                lines = bytes(data).split(b"\n")
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
                data = bytearray(b"\n".join(lines))
            else:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        yield bytes(data)


def scenario_fuzz_engine(count: int) -> Row:
    from engine.replay import replay_text
    from scoring.match import match_state

    def scorer(*, tags: Any, rules: str, outcomes: Any, games_in_record: int) -> Any:
        return dict(match_state(length=3, outcomes=list(outcomes)).to_report())

    crashes: list[str] = []
    kinds: Counter[str] = Counter()
    start = time.process_time()
    for data in fuzz_inputs(count, seed=11):
        try:
            report = replay_text(data, match_scorer=scorer)
            kinds["valid" if report.valid else report.error.kind] += 1  # type: ignore[union-attr]
            json.dumps(report.to_dict())
        except Exception as err:  # counted: the engine promises not to raise
            crashes.append(f"{type(err).__name__}: {err}"[:120])
    took = time.process_time() - start
    figures = f"{len(crashes)} raised; {dict(kinds.most_common())}; {count / took:,.0f} records/s"
    return Row("fuzz in-process (engine replay)", count, figures, not crashes, crashes[:5])


def scenario_fuzz_http(world: World, count: int, match: int) -> Row:
    player = world.client("domare1")
    codes: Counter[int] = Counter()
    bad: list[str] = []
    accepted: list[int] = []
    big = RECORD.encode() * (1_000_000 // len(RECORD) + 2)
    worker = world.procs.worker("fuzz")
    try:
        for i, data in enumerate(fuzz_inputs(count, seed=29)):
            if i % 50 == 7:
                data = big  # over the 1 MB limit
            if i % 2:
                reply = player.upload(match, data)
            else:
                text = data.decode("utf-8", errors="replace") if i % 4 else data.decode("latin-1")
                reply = player.request("POST", f"/api/matches/{match}/records/", {"text": text})
            codes[reply.status] += 1
            if reply.status >= 500:
                bad.append(f"input {i}: {reply.status} {reply.body[:100]!r}")
            elif reply.status == 202:
                accepted.append(reply.json()["id"])
        wait_for(lambda: all(is_done(pk) for pk in accepted), 300, "the fuzzed records' verdicts")
    except TimeoutError as err:
        bad.append(str(err))
    finally:
        Processes.stop(worker)
    crashed = [pk for pk in accepted if "crashed" in record_state(pk)[2]]
    if crashed:
        bad.append(f"verifier crashed on records {crashed[:10]}")
    states = Counter(record_state(pk)[0] for pk in accepted)
    fivexx = sum(n for code, n in codes.items() if code >= 500)
    figures = f"{fivexx} × 5xx; {dict(sorted(codes.items()))}; verdicts {dict(states)}"
    return Row("fuzz over HTTP (uploads)", count, figures, not bad, bad[:5])


def _with_cluster(world: World, rounds: int) -> Row:
    cluster = PgCluster()
    try:
        cluster.create()
        return scenario_pg_outage(world, cluster, rounds)
    finally:
        cluster.close()


# --- main -----------------------------------------------------------------------------

SCENARIOS = ("fuzz in-process", "race", "corrections", "worker kill", "broker outage",
             "Redis loss", "PostgreSQL outage", "fuzz over HTTP")  # fmt: skip


def main() -> int:
    global DB_NAME
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the small run CI does")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432",
                        help="PostgreSQL server (a database of its own is made there)")  # fmt: skip
    parser.add_argument("--db", default=DB_NAME,
                        help=f"the name of that database (default {DB_NAME})")  # fmt: skip
    parser.add_argument("--only", action="append", choices=SCENARIOS, metavar="SCENARIO",
                        help=f"run only these (repeatable): {', '.join(SCENARIOS)}; "
                        "corrections needs race")  # fmt: skip
    args = parser.parse_args()
    DB_NAME = args.db
    # kills: runs of the worker kill, each with kill_uploads records (60 in all when full)
    n = dict(race=10, corrections=5, kills=1, kill_uploads=12, outage=3, loss=5, pg=2,
             fuzz=500, http=30)  # fmt: skip
    if not args.quick:
        n = dict(race=100, corrections=20, kills=3, kill_uploads=20, outage=10, loss=5, pg=5,
                 fuzz=10_000, http=200)  # fmt: skip
    # First-round matches for every scenario, each its own: a full bracket, no byes.
    kill_matches = n["kills"] * n["kill_uploads"]
    needed = n["race"] + kill_matches + n["outage"] + n["loss"] + 1
    players = 2 ** (2 * needed - 1).bit_length()

    logdir = Path(tempfile.mkdtemp(prefix="brade-reliability-"))
    rows: list[Row] = []
    started = time.monotonic()

    def run(name: str, func: Callable[[], Row]) -> None:
        if args.only and name not in args.only:
            return
        try:
            rows.append(func())
        except Exception as err:  # a scenario that broke is a failed row
            rows.append(Row(name, 0, "did not finish", False, [f"{type(err).__name__}: {err}"]))

    run("fuzz in-process", lambda: scenario_fuzz_engine(n["fuzz"]))
    with system(args.pg, players, logdir) as world:
        run("race", lambda: scenario_race(world, n["race"]))
        run("corrections", lambda: scenario_corrections(world, n["corrections"]))
        free = world.matches[n["race"] :]
        kills, free = free[:kill_matches], free[kill_matches:]
        outage, free = free[: n["outage"]], free[n["outage"] :]
        loss, free = free[: n["loss"]], free[n["loss"] :]
        run("worker kill", lambda: scenario_worker_kill(world, kills, n["kill_uploads"]))
        run("broker outage", lambda: scenario_outage(world, n["outage"], outage))
        run("Redis loss", lambda: scenario_redis_loss(world, loss))
        run("PostgreSQL outage", lambda: _with_cluster(world, n["pg"]))
        run("fuzz over HTTP", lambda: scenario_fuzz_http(world, n["http"], free[0]))

    width = max((len(r.scenario) for r in rows), default=8)
    print(f"\n{'scenario':<{width}}  {'runs':>6}  ok    figures")
    for r in rows:
        print(f"{r.scenario:<{width}}  {r.runs:>6}  {'yes' if r.ok else 'NO ':<4}  {r.figures}")
        for note in r.notes:
            print(f"{'':<{width}}          ! {note}")
    print(f"\n{'quick' if args.quick else 'full'} run in {time.monotonic() - started:.0f} s; "
          f"limits soft {SOFT_LIMIT} s / hard {HARD_LIMIT} s; logs in {logdir}")  # fmt: skip
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
