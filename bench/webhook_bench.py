"""Webhook delivery time: from a decided match to the receiver, on Redis + a real worker.

A tournament of 512 players is drawn; 200 first-round matches are decided one after the
other (two games each, at ``--rate`` matches a second, as a busy club evening's referees
would). The tournament has two hooks for ``match.decided``: one to a receiver that
answers 200 at once, one to a receiver that fails the first two tries of every event
(503, then a timeout) and then answers 200 — so that hook's figure includes two retries
and their backoff (``--backoff`` seconds, doubling: base + 2·base). The receivers are one
tiny HTTP server on 127.0.0.1:8112 in this process (``WEBHOOKS_ALLOW_PRIVATE=true``).

Measured per delivery: from just before the service call that decides the match (its
commit makes and enqueues the event) to the moment the receiver has the body that it
answers 200. Printed: p50, p99 and max over the 200 deliveries of each hook, and that
every event arrived with a valid signature and no event id twice answered 200.

Environment (defaults for this branch): ``DATABASE_URL`` (PostgreSQL; the database is
recreated), ``REDIS_URL`` (``redis://127.0.0.1:6379/9``). The worker is started here with
``DJANGO_SETTINGS_MODULE=config.settings.base`` given explicitly, and stopped at the end.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hooks23 \\
    REDIS_URL=redis://127.0.0.1:6379/9 .venv/bin/python bench/webhook_bench.py
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from contextlib import suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PORT = 8112
DELIVERIES = 200
PLAYERS = 512


class Receiver:
    """``/ok`` answers 200; ``/flaky`` answers 503, then sleeps past the sender's timeout,
    then 200, per event id. Keeps when each event id was first answered 200."""

    def __init__(self, port: int, timeout: float) -> None:
        self.tries: Counter[tuple[str, str]] = Counter()
        self.arrived: dict[tuple[str, str], float] = {}
        self.bodies: dict[tuple[str, str], tuple[bytes, str]] = {}
        self.twice: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                at = time.monotonic()
                path = urlsplit(self.path).path
                key = (path, self.headers.get("X-Brade-Event-Id", ""))
                with receiver.lock:
                    receiver.tries[key] += 1
                    tries = receiver.tries[key]
                if path == "/flaky" and tries == 1:
                    self.send_response(503)
                    self.end_headers()
                    return
                if path == "/flaky" and tries == 2:
                    time.sleep(timeout + 0.5)  # the sender has given up: a timeout
                    with suppress(OSError):
                        self.send_response(200)
                        self.end_headers()
                    return
                with receiver.lock:
                    if key in receiver.arrived:
                        receiver.twice.append(key)
                    else:
                        receiver.arrived[key] = at
                        receiver.bodies[key] = (body, self.headers.get("X-Brade-Signature", ""))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin.replace("postgres://", "postgresql://", 1), autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deliveries", type=int, default=DELIVERIES)
    parser.add_argument("--rate", type=float, default=10.0, help="matches decided a second")
    parser.add_argument("--backoff", type=float, default=1.0, help="first retry's delay, s")
    parser.add_argument("--timeout", type=float, default=1.0, help="WEBHOOKS_TIMEOUT, s")
    parser.add_argument("--pool", default="threads", help="the worker's pool (threads, prefork)")
    parser.add_argument("--concurrency", type=int, default=16, help="the worker's pool size")
    parser.add_argument(
        "--flaky", action=argparse.BooleanOptionalAction, default=True,
        help="also the hook whose receiver fails the first two tries",
    )  # fmt: skip
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hooks23")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    recreate_database(database_url)
    queue = f"webhook-bench-{uuid.uuid4().hex[:8]}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "false",
        "WEBHOOKS_ALLOW_PRIVATE": "true",
        "WEBHOOKS_TIMEOUT": str(args.timeout),
        "WEBHOOKS_BACKOFF_BASE": str(args.backoff),
        "WEBHOOKS_QUEUE": queue,
        "PYTHONPATH": str(ROOT),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
        check=True,
    )  # fmt: skip
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings

    # Deliveries go to a queue of the bench's own (WEBHOOKS_QUEUE), which its worker reads.
    assert queue == settings.WEBHOOKS_QUEUE
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.db import connections

    from games.results import ResultValue
    from matches.models import Match
    from matches.services import game_result_enter
    from tournaments.entries import entry_player_add
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create
    from webhooks.services import hook_create
    from webhooks.signing import signature_valid

    organiser = get_user_model().objects.create_user("arrangor", password="x")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = get_user_model().objects.get(pk=organiser.pk)
    tournament = tournament_create(
        by=organiser, name="Webhook Cup", start_date=datetime.date(2026, 11, 25)
    )
    for i in range(PLAYERS):
        entry_player_add(tournament=tournament, name=f"Spelare {i + 1:03d}", by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    matches = list(
        Match.objects.filter(tournament=tournament, round__number=1).order_by("slot")[
            : args.deliveries
        ]
    )
    base = f"http://127.0.0.1:{PORT}"
    ok = hook_create(
        tournament=tournament, url=f"{base}/ok", events=["match.decided"], by=organiser
    )
    hooks = {"/ok": ok}
    if args.flaky:
        hooks["/flaky"] = hook_create(
            tournament=tournament, url=f"{base}/flaky", events=["match.decided"], by=organiser
        )
    connections.close_all()

    receiver = Receiver(PORT, args.timeout)
    log_path = Path(tempfile.gettempdir()) / f"{queue}-worker.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed below
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
         "--pool", args.pool, "--concurrency", str(args.concurrency), "--loglevel", "WARNING",
         "--without-mingle", "--without-gossip", "-n", f"{queue}@%h"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.base"},
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        time.sleep(4)  # the worker connects
        decided_at: dict[int, float] = {}
        committed_at: dict[int, float] = {}
        started = time.monotonic()
        for i, match in enumerate(matches):
            wait = started + i / args.rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            game_result_enter(
                match=match,
                number=1,
                result=ResultValue(winner=0, outcome="hemspel"),
                starter="W",
                by=organiser,
            )
            decided_at[match.pk] = time.monotonic()
            game_result_enter(
                match=match, number=2, result=ResultValue(winner=0, outcome="jan"), by=organiser
            )
            committed_at[match.pk] = time.monotonic()  # committed, event made and enqueued
        wanted = len(hooks) * len(matches)
        deadline = time.monotonic() + 120 + 4 * args.backoff
        while len(receiver.arrived) < wanted and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # any late duplicate
    finally:
        with suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        log.close()
        receiver.close()

    secrets = {path: hook.secret for path, hook in hooks.items()}
    result: dict[str, Any] = {
        "deliveries": len(matches),
        "rate_per_s": args.rate,
        "backoff_s": args.backoff,
        "timeout_s": args.timeout,
    }
    print(
        f"{len(matches)} matches decided at {args.rate:g}/s; worker pool {args.pool} × "
        f"{args.concurrency}; backoff {args.backoff:g} s doubling; timeout {args.timeout:g} s"
    )
    labels = {"/ok": "answers at once", "/flaky": "fails twice (503, timeout)"}
    for path, label in ((p, labels[p]) for p in hooks):
        times: list[float] = []
        queued: list[float] = []  # from the deciding call's return (commit, enqueue done)
        bad = 0
        for (p, event_id), at in receiver.arrived.items():
            if p != path:
                continue
            body, sig = receiver.bodies[(p, event_id)]
            bad += not signature_valid(secrets[path], body, sig)
            match_id = json.loads(body)["data"]["match"]["id"]
            times.append((at - decided_at[match_id]) * 1000)
            queued.append((at - committed_at[match_id]) * 1000)
        got = len(times)
        tries = sum(n for (p, _e), n in receiver.tries.items() if p == path)
        p50, p99, top = (
            (percentile(times, 50), percentile(times, 99), max(times)) if times else (0, 0, 0)
        )
        print(f"  {path:7s} receiver {label:27s}: {got}/{len(matches)} delivered, "
              f"{tries} requests, p50 {p50:8.1f} ms  p99 {p99:8.1f} ms  max {top:8.1f} ms, "
              f"bad signatures {bad}")  # fmt: skip
        if queued:
            print(
                f"          of which after the deciding call returned (queue, worker, HTTP): "
                f"p50 {percentile(queued, 50):8.1f} ms  p99 {percentile(queued, 99):8.1f} ms"
            )
        result[path.strip("/")] = {
            "delivered": got,
            "requests": tries,
            "p50_ms": round(p50, 1),
            "p99_ms": round(p99, 1),
            "max_ms": round(top, 1),
            "after_return_p50_ms": round(percentile(queued, 50), 1) if queued else None,
            "bad_signatures": bad,
        }
    result["answered_200_twice"] = len(receiver.twice)
    print(f"  event ids answered 200 twice: {len(receiver.twice)}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
