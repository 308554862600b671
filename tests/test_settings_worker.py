"""A real worker: ``celery -A config worker`` with Redis as broker and result backend, and
the time limits workers apply.

The worker test needs ``REDIS_URL`` (CI's PostgreSQL + Redis pass sets it); on the embedded
default there is no broker, and tasks run in-process (tested in test_settings.py). The
worker listens on a queue of its own, so other workers on the same Redis do not take the
task.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("REDIS_URL", "")

needs_redis = pytest.mark.skipif(
    not REDIS_URL, reason="needs a real Redis: runs in CI's PostgreSQL + Redis pass"
)


def test_time_limits_come_from_the_environment(tmp_path: Path) -> None:
    """``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT`` are the limits of the
    verification task (a worker applies the task's own ones when a message carries none,
    ``Request.execute_using_pool``), and Redis's visibility timeout follows the hard limit.
    A real worker applying them, and the messages carrying none: test_worker.py."""
    script = (
        "import django; django.setup()\n"
        "from matches.tasks import verify_game_record as task\n"
        "from config.celery import app\n"
        "print(task.soft_time_limit, task.time_limit,"
        " app.conf.broker_transport_options['visibility_timeout'])\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_TASK_SOFT_TIME_LIMIT": "7",
        "CELERY_TASK_TIME_LIMIT": "11",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.stdout.split() == ["7", "11", "21"], done.stderr[-2000:]


@pytest.fixture
def worker_queue() -> Iterator[str]:
    queue = f"test-{uuid.uuid4().hex}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
         "--concurrency", "1", "--pool", "solo", "--without-mingle", "--without-gossip",
         "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        yield queue
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@needs_redis
def test_worker_runs_a_task_sent_through_redis(worker_queue: str) -> None:
    # A client configured like the project (JSON, Redis broker and backend) but not eager:
    # the test settings make the project's own app eager.
    client = Celery("client", broker=REDIS_URL, backend=REDIS_URL)
    client.conf.update(task_serializer="json", result_serializer="json", accept_content=["json"])

    # celery.accumulate is a built-in task every worker has: it returns its arguments.
    result = client.send_task("celery.accumulate", args=[7, "bräde"], queue=worker_queue)

    # Generous: the worker process has to start first (imports Django and the apps).
    assert result.get(timeout=120) == [7, "bräde"]
