"""A real Celery worker on Redis delivers a decided match's event, retrying a receiver
that fails twice with the backoff the settings give (``redis`` and ``postgres`` marks:
run with ``REDIS_URL`` and a PostgreSQL ``DATABASE_URL``, as CI does)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from matches.services import game_result_enter
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from tests.webhooks.receiver import Receiver
from webhooks.models import DeliveryState, WebhookDelivery
from webhooks.services import hook_create
from webhooks.signing import signature_valid

ROOT = Path(__file__).resolve().parent.parent.parent
REDIS_URL = os.environ.get("REDIS_URL", "")
BACKOFF = 0.5

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.skipif(not REDIS_URL, reason="needs a real Redis: set REDIS_URL (CI does)"),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the worker process reaches the test database by name: needs PostgreSQL",
    ),
]


@pytest.fixture
def worker(settings: Any) -> Iterator[str]:
    """A thread-pool worker on a queue of its own; this process publishes there."""
    import redis

    from config.celery import app

    queue = f"test-webhooks-{uuid.uuid4().hex}"
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    settings.WEBHOOKS_QUEUE = queue
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.matches.worker_settings",
        "BRADE_WORKER_DB_NAME": connection.settings_dict["NAME"],
        "BRADE_QUEUE": queue,
        "WEBHOOKS_QUEUE": queue,
        "WEBHOOKS_ALLOW_PRIVATE": "true",
        "WEBHOOKS_BACKOFF_BASE": str(BACKOFF),
        "WEBHOOKS_TIMEOUT": "2",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
         "--pool", "threads", "--concurrency", "4", "--without-mingle", "--without-gossip",
         "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield queue
    finally:
        app.conf.task_always_eager = saved
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        broker = redis.Redis.from_url(REDIS_URL)
        broker.delete(queue, *broker.keys(f"_kombu.binding*.{queue}"))


@pytest.mark.django_db(transaction=True)
def test_a_worker_retries_with_backoff_then_delivers(worker: str, receiver: Receiver) -> None:
    receiver.script = [503, 503]
    s = drawn(2, lengths=[3])
    hook = hook_create(
        tournament=s.tournament, url=receiver.url, events=["match.decided"], by=s.organiser
    )
    m = match_of(s.tournament, 1, 0)
    game_result_enter(match=m, number=1, result=won("W", "hemspel"), starter="W", by=s.referee)
    game_result_enter(match=m, number=2, result=won("W", "jan"), by=s.referee)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(receiver.received) < 3:
        time.sleep(0.1)
    time.sleep(BACKOFF)  # the worker writes the last answer down
    assert len(receiver.received) == 3
    first, second, third = receiver.received
    # Exponential backoff: at least base, then 2 × base between the attempts.
    assert second.at - first.at >= BACKOFF * 0.95
    assert third.at - second.at >= 2 * BACKOFF * 0.95
    assert first.body == second.body == third.body
    assert signature_valid(hook.secret, third.body, third.headers["X-Brade-Signature"])
    assert json.loads(third.body)["data"]["match"]["id"] == m.pk
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.DELIVERED,
        3,
        200,
    )
