"""The record pipeline with a real ``celery -A config worker`` on Redis.

Runs when ``REDIS_URL`` is set and the database is PostgreSQL (CI's PostgreSQL +
Redis pass): the worker is another process, so it reaches the test database by
name, which an in-memory SQLite database cannot offer. The test kills the worker
(SIGKILL) in the middle of a verification, starts a new one, and checks that the
record ends verified exactly once: one attempt cut short, one that finished, the
game entered once, one "verified" event.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from matches import services
from matches.models import EventKind, Game, GameRecordSubmission, MatchEvent, RecordState
from tests.tournaments.helpers import drawn, match_of

ROOT = Path(__file__).resolve().parent.parent.parent
REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.skipif(not REDIS_URL, reason="needs a real Redis: set REDIS_URL (CI does)"),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the worker process reaches the test database by name: needs PostgreSQL",
    ),
]

# A one-game record the engine can replay: White bears off the last checker.
RECORD = (
    '[White "P001"]\n[Black "P002"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
)


def _wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker() -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """Start workers on a private queue; the test process publishes there, not eagerly."""
    from config.celery import app

    queue = f"test-records-{uuid.uuid4().hex}"
    saved = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.matches.worker_settings",
        "BRADE_WORKER_DB_NAME": connection.settings_dict["NAME"],
        "BRADE_VERIFY_DELAY": "4",
        "BRADE_STALE_SECONDS": "1",
    }
    started: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
             "--pool", "solo", "--without-mingle", "--without-gossip", "--loglevel", "INFO"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = saved
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_verification_verifies_exactly_once(worker: Any, settings: Any) -> None:
    settings.GAME_RECORD_STALE_SECONDS = 1
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    first = worker()
    sub = services.game_record_submit(match=match, text=RECORD, by=s.referee)

    def state() -> GameRecordSubmission:
        return GameRecordSubmission.objects.get(pk=sub.pk)

    _wait(lambda: state().state == RecordState.VERIFYING, 60, "the worker to start verifying")
    first.send_signal(signal.SIGKILL)  # in the middle of the 4 s verification
    first.wait()
    assert state().state == RecordState.VERIFYING and state().attempts == 1
    worker()
    time.sleep(1.5)  # let the record go stale (BRADE_STALE_SECONDS=1)
    assert services.game_records_requeue() == [sub.pk]
    _wait(lambda: state().state not in (RecordState.PENDING, RecordState.VERIFYING), 90, "verdict")
    final = state()
    assert final.state == RecordState.ENTERED, final.message
    assert final.attempts == 2
    assert Game.objects.filter(match=match).count() == 1
    assert MatchEvent.objects.filter(match=match, kind=EventKind.RECORD_VERIFIED).count() == 1
