"""The embedded default's server: gunicorn with threads, and beat's schedule in-process.

``scripts/run.sh`` serves with ``gunicorn -c config/gunicorn_embedded.py config.wsgi``
(one process, threads, ``config/gunicorn_embedded.py``) and that process runs the beat
schedule itself (``config/embedded_beat.py``). The last test starts the real server on a
fresh SQLite file and writes from many threads at once.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from config.embedded_beat import FIRST_RUN_AFTER_SECONDS, EmbeddedBeat
from config.serve_address import bind_address_for

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_beat_runs_each_entry_first_soon_after_the_start_then_every_period() -> None:
    clock = Clock()
    ran: list[str] = []
    beat = EmbeddedBeat(
        schedule={
            "sweep": {"task": "a.sweep", "schedule": 30.0},
            "daily": {"task": "a.daily", "schedule": timedelta(hours=1)},
        },
        runner=ran.append,
        clock=clock,
    )
    assert beat.run_due() == [] and beat.seconds_to_next() == FIRST_RUN_AFTER_SECONDS
    clock.now += FIRST_RUN_AFTER_SECONDS
    assert beat.run_due() == ["sweep", "daily"]
    clock.now += 29.0
    assert beat.run_due() == []
    clock.now += 1.0
    assert beat.run_due() == ["sweep"]
    assert ran == ["a.sweep", "a.daily", "a.sweep"]
    assert beat.seconds_to_next() == 30.0


def test_a_failing_task_is_logged_and_tried_at_its_next_period(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    calls: list[str] = []

    def runner(name: str) -> None:
        calls.append(name)
        if len(calls) == 1:
            raise RuntimeError("database is locked")

    beat = EmbeddedBeat(
        schedule={"sweep": {"task": "a.sweep", "schedule": 30}}, runner=runner, clock=clock
    )
    clock.now += FIRST_RUN_AFTER_SECONDS
    with caplog.at_level(logging.ERROR, logger="config.embedded_beat"):
        assert beat.run_due() == ["sweep"]
    assert "sweep failed; tried again in 30 s" in caplog.text
    clock.now += 30
    assert beat.run_due() == ["sweep"] and calls == ["a.sweep", "a.sweep"]


@pytest.mark.parametrize("schedule", ["*/5 * * * *", 0, -1.0, None])
def test_a_schedule_it_cannot_keep_is_refused_naming_the_entry(schedule: Any) -> None:
    with pytest.raises(ValueError, match="'nightly'"):
        EmbeddedBeat(schedule={"nightly": {"task": "a.b", "schedule": schedule}}, runner=print)


def test_the_projects_schedule_runs_in_process() -> None:
    """Every entry of the project's beat schedule is one the in-process beat can keep."""
    from config.celery import app

    clock = Clock()
    ran: list[str] = []
    beat = EmbeddedBeat(schedule=app.conf.beat_schedule, runner=ran.append, clock=clock)
    clock.now += FIRST_RUN_AFTER_SECONDS
    assert beat.run_due() == list(app.conf.beat_schedule)
    assert ran == [entry["task"] for entry in app.conf.beat_schedule.values()]


@pytest.mark.parametrize(
    ("addr", "bind"),
    [
        ("8000", "127.0.0.1:8000"),
        ("0.0.0.0:8101", "0.0.0.0:8101"),
        ("[::]:8000", "[::]:8000"),
        (" 127.0.0.1:8000 ", "127.0.0.1:8000"),
    ],
)
def test_addr_in_runservers_forms_binds_gunicorn(addr: str, bind: str) -> None:
    assert bind_address_for(addr) == bind


def test_run_sh_serves_with_gunicorn_and_the_embedded_settings() -> None:
    text = (ROOT / "scripts/run.sh").read_text(encoding="utf-8")
    assert "gunicorn -c config/gunicorn_embedded.py config.wsgi" in text
    assert "runserver" not in text.split("exec", 1)[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _get(url: str, **kwargs: Any) -> tuple[int, bytes]:
    request = urllib.request.Request(url, **kwargs)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The embedded server as ``run.sh`` starts it, on a SQLite file of its own."""
    folder = tmp_path_factory.mktemp("embedded")
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOWED_HOSTS")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.demo",
        DJANGO_SECRET_KEY_FILE=str(folder / "secret-key"),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        ADDR=f"127.0.0.1:{port}",
        GUNICORN_THREADS="8",
    )
    python = Path(sys.executable)
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    make_user = (
        "import django; django.setup(); from django.contrib.auth import get_user_model; "
        "u = get_user_model().objects.create_superuser('kim', password='pw'); "
        "from rest_framework.authtoken.models import Token; "
        "print(Token.objects.create(user=u).key)"
    )
    made = subprocess.run(
        [python, "-c", make_user], cwd=ROOT, env=env, capture_output=True, text=True
    )
    token = made.stdout.strip() if made.returncode == 0 else None
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [python.parent / "gunicorn", "-c", "config/gunicorn_embedded.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                _get(base + "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        yield {"base": base, "log": folder / "server.log", "token": token, "process": process}
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_the_server_answers_and_runs_the_beat(server: dict[str, Any]) -> None:
    status, _ = _get(server["base"] + "/")
    assert status == 200
    deadline = time.monotonic() + FIRST_RUN_AFTER_SECONDS + 20
    text = ""
    while time.monotonic() < deadline:
        text = server["log"].read_text(encoding="utf-8")
        if "in-process beat started" in text:
            break
        time.sleep(0.2)
    assert "in-process beat started: requeue-game-records" in text
    assert "Using worker: gthread" in text
    assert text.count("Booting worker") == 1  # one process: the cache is its memory
    assert "Control socket listening" not in text  # no fixed path shared with others


def test_many_writers_at_once_all_succeed(server: dict[str, Any]) -> None:
    """48 clubs created through the API at once, 48 writes on SQLite behind 8 threads:
    every one stored, none refused by a locked database. (A smoke test of the server as
    a whole: these short writes would also pass on SQLite's defaults; what the options
    prevent is shown in ``tests/test_sqlite_options.py``.)"""
    assert server["token"], "the test user's API token could not be made"

    def create(index: int) -> int:
        status, _ = _get(
            server["base"] + "/api/clubs/",
            data=json.dumps({"name": f"Klubb {index}", "city": "Lund"}).encode(),
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {server['token']}",
            },
        )
        return status

    with ThreadPoolExecutor(max_workers=48) as pool:
        statuses = list(pool.map(create, range(48)))
    assert statuses == [201] * 48
    status, body = _get(server["base"] + "/api/clubs/?city=Lund&limit=100")
    assert status == 200 and json.loads(body)["count"] == 48
    assert "database is locked" not in server["log"].read_text(encoding="utf-8")
