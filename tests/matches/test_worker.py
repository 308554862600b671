"""The record pipeline with real ``celery -A config worker`` processes on Redis.

Runs when ``REDIS_URL`` is set and the database is PostgreSQL (CI's PostgreSQL +
Redis pass): the worker is another process, so it reaches the test database by
name, which an in-memory SQLite database cannot offer. Beat never runs here, and
only the lost-message test calls its sweep: otherwise recovery must come from the
broker and the lease.

- A whole worker SIGKILLed mid-verification (its message stays unacknowledged in
  Redis until the visibility timeout, just over the hard time limit): a new worker
  gets it back and verifies, exactly once, within the hard limit + 30 s.
- A worker's pool process SIGKILLed (its parent hands the message back at once):
  the redelivered task waits out the dead attempt's lease and verifies.
- No worker: n submissions leave n messages in the queue, not one per submission
  per pending record.
- Redis loses the queued messages: beat's sweep (called here as its task) sends each
  record one new message at once, not after the message's 900 s slot.
- The time limits a worker applies are the ones in the environment, and a record
  that runs out of time on its last attempt does not promise a retry.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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


# Short limits, so that a worker killed outright is covered in seconds: the visibility
# timeout follows the hard limit (config/settings/base.py), and the goal is "verified
# within the hard limit + 30 s of the kill". The verification delay (4 s) lets the test
# kill a worker in the middle; the lease (2 s) is renewed twice during it.
SOFT_LIMIT, HARD_LIMIT = 8, 10
LIMITS = {
    "CELERY_TASK_SOFT_TIME_LIMIT": str(SOFT_LIMIT),
    "CELERY_TASK_TIME_LIMIT": str(HARD_LIMIT),
    "BRADE_VERIFY_DELAY": "4",
    "BRADE_LEASE_SECONDS": "2",
}


@dataclass
class Workers:
    queue: str
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, *, pool: str = "solo", **env: str) -> subprocess.Popen[bytes]:
        environ = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.matches.worker_settings",
            "BRADE_WORKER_DB_NAME": connection.settings_dict["NAME"],
            "BRADE_QUEUE": self.queue,
            **LIMITS,
            **env,
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", self.queue,
             "--pool", pool, "--concurrency", "1", "--without-mingle", "--without-gossip",
             "--loglevel", "INFO"],
            cwd=ROOT, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.started.append(proc)
        return proc


@pytest.fixture
def workers() -> Iterator[Workers]:
    """Workers on a private queue; the test process publishes there, not eagerly."""
    import redis

    from config.celery import app

    queue = f"test-records-{uuid.uuid4().hex}"
    saved = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    pool = Workers(queue)
    try:
        yield pool
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = saved
        for proc in pool.started:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        broker = redis.Redis.from_url(REDIS_URL)
        broker.delete(queue, *broker.keys(f"_kombu.binding*.{queue}"))


def _state(pk: int) -> GameRecordSubmission:
    return GameRecordSubmission.objects.get(pk=pk)


def _verified_once(sub: GameRecordSubmission, match: Any) -> None:
    final = _state(sub.pk)
    assert final.state == RecordState.ENTERED, final.message
    assert final.attempts == 2
    assert Game.objects.filter(match=match).count() == 1
    assert MatchEvent.objects.filter(match=match, kind=EventKind.RECORD_VERIFIED).count() == 1


def _done(pk: int) -> bool:
    return _state(pk).state not in (RecordState.PENDING, RecordState.VERIFYING)


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_verification_verifies_exactly_once(workers: Workers) -> None:
    """The whole worker dies (SIGKILL): nobody hands its message back, Redis keeps it
    unacknowledged; the next worker restores it after the visibility timeout, and the
    dead attempt's lease has long run out."""
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    first = workers.start()
    sub = services.game_record_submit(match=match, text=RECORD, by=s.referee)
    _wait(lambda: _state(sub.pk).state == RecordState.VERIFYING, 60, "the worker to verify")
    first.send_signal(signal.SIGKILL)  # in the middle of the 4 s verification
    first.wait()
    assert _state(sub.pk).state == RecordState.VERIFYING and _state(sub.pk).attempts == 1
    workers.start()
    _wait(lambda: _done(sub.pk), HARD_LIMIT + 30, "a verdict within the hard limit + 30 s")
    _verified_once(sub, match)


def _pool_child(parent: subprocess.Popen[bytes]) -> int:
    path = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
    children = path.read_text().split()
    assert len(children) == 1, children
    return int(children[0])


@pytest.mark.django_db(transaction=True)
def test_pool_process_killed_mid_verification_verifies_exactly_once(workers: Workers) -> None:
    """A prefork pool process dies (SIGKILL): its parent hands the message back at once
    (reject_on_worker_lost), before the dead attempt's lease has run out. The redelivered
    task must not take the record for taken: it waits the lease out and verifies."""
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    worker = workers.start(pool="prefork")
    sub = services.game_record_submit(match=match, text=RECORD, by=s.referee)
    _wait(lambda: _state(sub.pk).state == RecordState.VERIFYING, 60, "the worker to verify")
    os.kill(_pool_child(worker), signal.SIGKILL)
    _wait(lambda: _done(sub.pk), HARD_LIMIT + 30, "a verdict within the hard limit + 30 s")
    _verified_once(sub, match)
    assert worker.poll() is None  # the same worker took it up again


def _record_messages(broker: Any, queue: str) -> int:
    """The records' verification messages waiting in ``queue`` (other tasks, such as a
    notification of the draw, share the queue and are not counted)."""
    import json

    return sum(
        json.loads(raw)["headers"]["task"] == "matches.verify_game_record"
        for raw in broker.lrange(queue, 0, -1)
    )


@pytest.mark.django_db(transaction=True)
def test_submissions_leave_one_message_per_record_in_the_broker(
    workers: Workers, settings: Any
) -> None:
    """No worker runs and every record is past the pending grace: each submission's sweep
    used to send every pending record again (8 submissions: 36 messages)."""
    import redis

    settings.GAME_RECORD_PENDING_GRACE = 0
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    subs = [services.game_record_submit(match=match, text=RECORD, by=s.referee) for _ in range(8)]
    assert services.game_records_requeue() == []  # beat's sweep adds nothing either
    broker = redis.Redis.from_url(REDIS_URL)
    assert _record_messages(broker, workers.queue) == len(subs)
    assert all(_state(sub.pk).state == RecordState.PENDING for sub in subs)


@pytest.mark.django_db(transaction=True)
def test_worker_applies_the_time_limits_of_the_environment(workers: Workers) -> None:
    """Soft limit 2 s from the environment (the task used to hard-code 60 s): each attempt
    is cut at 2 s, the record is given a new message at once, and after the last attempt
    it is failed, saying so, with no promise of a retry."""
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    workers.start(
        pool="prefork",  # the solo pool applies no time limits
        CELERY_TASK_SOFT_TIME_LIMIT="2",
        CELERY_TASK_TIME_LIMIT="4",
        BRADE_VERIFY_DELAY="30",
    )
    sub = services.game_record_submit(match=match, text=RECORD, by=s.referee)
    _wait(lambda: _done(sub.pk), 90, "the attempts to run out of time")
    final = _state(sub.pk)
    assert final.state == RecordState.FAILED, final.message
    assert final.attempts == services.RECORD_MAX_ATTEMPTS
    assert "longer than the limit of 2 seconds" in final.message
    assert "retried" not in final.message and "administrator" in final.message
    assert not Game.objects.filter(match=match).exists()


@pytest.mark.django_db(transaction=True)
def test_messages_lost_with_redis_are_sent_again_by_the_next_sweep(
    workers: Workers, settings: Any
) -> None:
    """Redis loses the queued messages (here: the queue's keys deleted, as a restart
    without persistence leaves it): the records still hold live slots, yet beat's next
    sweep sends each one new message, and a worker verifies them. A message a worker has
    taken and not acknowledged (kombu's ``unacked``) counts as held: not sent twice."""
    import redis
    from django.utils import timezone

    from config.celery import app
    from matches import tasks
    from matches.record_broker import held_records

    settings.GAME_RECORD_BROKER_RECHECK = 0.2
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    subs = [services.game_record_submit(match=match, text=RECORD, by=s.referee) for _ in range(5)]
    pks = {sub.pk for sub in subs}
    broker = redis.Redis.from_url(REDIS_URL)
    assert _record_messages(broker, workers.queue) == 5
    assert held_records(timezone.now()) == pks
    assert tasks.requeue_game_records.apply().get() == []

    broker.delete(workers.queue)  # the restart: every queued message is gone
    assert tasks.requeue_game_records.apply().get() == sorted(pks)
    assert _record_messages(broker, workers.queue) == 5
    assert tasks.requeue_game_records.apply().get() == []  # one message per record

    with app.connection_for_read() as conn:  # a worker takes one and holds it unacked
        taken = conn.default_channel.basic_get(workers.queue, no_ack=False)
        assert taken is not None
        assert held_records(timezone.now()) == pks
        assert tasks.requeue_game_records.apply().get() == []
        taken.ack()
    held = held_records(timezone.now())
    assert held is not None and len(held) == 4
    assert len(tasks.requeue_game_records.apply().get()) == 1  # its worker died unacked

    workers.start(BRADE_VERIFY_DELAY="0")
    _wait(lambda: all(_done(pk) for pk in pks), 60, "every record's verdict")
    assert all(_state(pk).attempts == 1 for pk in pks)
