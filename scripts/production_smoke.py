"""A production install, end to end: a venv from ``requirements.txt`` alone, gunicorn, a
Celery worker and Celery beat on the production settings against PostgreSQL and Redis.

    python3 scripts/production_smoke.py          # CI's step (.ci/run)
    python3 scripts/production_smoke.py --requirements OTHER.txt   # another file's install

What it checks, the things a deployment following README.md depends on and the test suite
cannot see (it runs from ``requirements-dev.txt``, which pulls in more):

1. ``pip install -r requirements.txt`` into a fresh venv, then ``pip check``;
2. ``manage.py migrate``, ``collectstatic`` and ``check --deploy`` on the production settings;
3. gunicorn, a worker and beat start and keep running;
4. ``/healthz`` answers 200 and reports the worker as answering;
5. a referee uploads a game record over the API (as through an HTTPS proxy) and the worker
   verifies it; a walkover (which enqueues a notification) answers 200;
6. beat is still running at the end (it exits at once when its transport cannot load).

Standard library only: it runs under any Python 3.11+, and everything the site needs
comes from the new venv. The venv is kept outside the checkout, in
``$XDG_CACHE_HOME/brade-arena/venv-prod/<hash of requirements.txt>`` (``~/.cache`` when
unset; ``SMOKE_VENVS`` to choose), one folder per content, marked complete only once
installed, so a second run on the same machine is quick, a changed ``requirements.txt``
gets a new, clean one, a CI machine starts without it, and nothing that scans the
checkout (the tests, ruff, mypy) reads the installed packages. Environment:

- ``SMOKE_PG`` (``postgresql://postgres@127.0.0.1:5432``): the PostgreSQL server; the
  database ``SMOKE_DB`` (``brade_smoke``) is made there and dropped at the end;
- ``SMOKE_REDIS_URL`` (``redis://127.0.0.1:6379/5``): a Redis database of its own, emptied
  at the start (it must hold no one else's data);
- ``SMOKE_PORT`` (a free one): gunicorn's port on 127.0.0.1.

Exits 0 when everything held, 1 with the failed check (and the processes' logs) otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements.txt"
_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
VENVS = Path(os.environ.get("SMOKE_VENVS") or _CACHE / "brade-arena" / "venv-prod")

# A one-game record the engine replays: White bears off the last checker.
RECORD = (
    '[Rules "talisman"]\n\nGame 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\n'
    "Result: White hemspel\n"
)

# Two first-round matches of an eight-player tournament, a referee with an API token.
SETUP = """
import datetime
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token
from matches.models import Match
from tournaments.entries import entry_player_add
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_staff_set
users = get_user_model().objects
organiser = users.create_user('arrangor', password=None)
organiser.user_permissions.add(Permission.objects.get(codename='add_tournament'))
organiser = users.get(pk=organiser.pk)
referee = users.create_user('domare', password=None)
t = tournament_create(by=organiser, name='Smoke Cup', start_date=datetime.date(2026, 11, 29))
tournament_staff_set(tournament=t, by=organiser, referees=[referee])
for i in range(8):
    entry_player_add(tournament=t, name=f'Spelare {i + 1}', by=organiser)
tournament_draw(tournament=t, by=organiser, draw_seed=1)
m = list(Match.objects.filter(tournament=t, round__number=1).order_by('pk'))
print(json.dumps({'token': Token.objects.create(user=referee).key, 'record_match': m[0].pk,
                  'walkover_match': m[1].pk, 'winner': m[1].player1_id}))
"""


class SmokeError(Exception):
    pass


_T0 = time.monotonic()


def log(text: str) -> None:
    print(f"==> [{time.monotonic() - _T0:5.1f} s] {text}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if condition():
                return time.monotonic() - start
        except (OSError, http.client.HTTPException, ValueError, KeyError):
            pass  # a server still starting
        time.sleep(0.3)
    raise SmokeError(f"timed out after {seconds:.0f} s waiting for {what}")


def venv(requirements: Path) -> Path:
    """The venv for this ``requirements`` file, built from it alone when missing."""
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()[:16]
    path = VENVS / digest
    done = path / ".complete"
    if done.exists():
        log(f"venv from {requirements.name}: {path} (built earlier)")
        return path
    shutil.rmtree(path, ignore_errors=True)
    log(f"building a venv from {requirements.name} alone: {path}")
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    pip = [str(path / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--quiet", "-r", str(requirements)], check=True)
    subprocess.run([*pip, "check"], check=True)
    done.write_text(digest)
    return path


def request(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, str, Any]:
    """Through a (pretend) HTTPS proxy: the production settings redirect plain HTTP."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Accept": "application/json", "X-Forwarded-Proto": "https"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        kind = resp.getheader("Content-Type", "")
        parsed = json.loads(raw) if kind.startswith("application/json") and raw else raw[:300]
        return resp.status, kind, parsed
    finally:
        conn.close()


class Services:
    """The database and Redis database of the run, and the processes it starts."""

    def __init__(self, python: Path, env: dict[str, str], logdir: Path) -> None:
        self.python = python
        self.env = env
        self.logdir = logdir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [str(self.python), "manage.py", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode:
            raise SmokeError(f"manage.py {args[0]} exited {done.returncode}:\n{done.stderr}")
        return done.stdout

    def spawn(self, name: str, *args: str) -> None:
        out = open(self.logdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the run
        self.procs[name] = subprocess.Popen(
            [str(self.python.parent / args[0]), *args[1:]],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def running(self, name: str) -> bool:
        return self.procs[name].poll() is None

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def show_logs(self) -> None:
        for path in sorted(self.logdir.glob("*.log")):
            lines = path.read_text(errors="replace").splitlines()
            print(f"----- {path.name} (last 30 lines)")
            print("\n".join(lines[-30:]))


def database(python: Path, pg: str, name: str, *, create: bool) -> None:
    code = (
        "import psycopg, sys\n"
        "with psycopg.connect(sys.argv[1] + '/postgres', autocommit=True) as c:\n"
        f"    c.execute('DROP DATABASE IF EXISTS {name} WITH (FORCE)')\n"
        + (f"    c.execute('CREATE DATABASE {name}')\n" if create else "")
    )
    subprocess.run([str(python), "-c", code, pg], check=True)


def smoke(services: Services, port: int) -> None:
    log("migrate, collectstatic, check --deploy (production settings)")
    services.manage("migrate", "--noinput", "-v", "0")
    services.manage("collectstatic", "--noinput", "-v", "0")
    services.manage("check", "--deploy", "--fail-level", "WARNING")
    made = json.loads(services.manage("shell", "-c", "import json\n" + SETUP).splitlines()[-1])

    log("gunicorn, a Celery worker and Celery beat")
    services.spawn("gunicorn", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
                   "--workers", "2")  # fmt: skip
    node = f"smoke-{uuid.uuid4().hex[:6]}@%h"
    services.spawn("worker", "celery", "-A", "config", "worker", "--loglevel", "INFO",
                   "--concurrency", "2", "-n", node)  # fmt: skip
    services.spawn("beat", "celery", "-A", "config", "beat", "--loglevel", "INFO",
                   "--schedule", str(services.logdir / "beat-schedule"))  # fmt: skip

    seen: dict[str, Any] = {}

    def healthy() -> bool:
        for name in ("gunicorn", "worker", "beat"):
            if not services.running(name):
                raise SmokeError(f"{name} exited with {services.procs[name].returncode}")
        status, _, body = request(port, "GET", "/healthz")
        seen.update(status=status, body=body)
        return status == 200 and body["checks"]["worker"]["ok"] is True

    took = wait_for(healthy, 90, "/healthz to report the worker")
    # the answer that reported the worker (a later ping may time out under load)
    log(f"/healthz {seen['status']} after {took:.1f} s: {json.dumps(seen['body']['checks'])}")

    token = made["token"]
    status, kind, body = request(
        port, "POST", f"/api/matches/{made['record_match']}/records/", {"text": RECORD}, token
    )
    if status != 202:
        raise SmokeError(f"uploading a record answered {status} {kind}: {body!r}")
    record = body["id"]

    def verified() -> bool:
        status, _, body = request(port, "GET", f"/api/records/{record}/", token=token)
        if status == 200 and body["state"] not in ("pending", "verifying"):
            if body["state"] != "entered":
                raise SmokeError(f"record {record} ended {body['state']}: {body['message']}")
            return True
        return False

    took = wait_for(verified, 60, f"record {record} to be verified")
    log(f"record {record} uploaded and verified by the worker in {took:.1f} s")

    status, kind, body = request(
        port, "POST", f"/api/matches/{made['walkover_match']}/walkover/",
        {"winner_player": made["winner"], "reason": "smoke"}, token,
    )  # fmt: skip
    if status != 200:
        raise SmokeError(f"a walkover answered {status} {kind}: {body!r}")
    log("walkover answered 200")
    time.sleep(2)  # beat's first tick and the walkover's notification task
    for name in ("gunicorn", "worker", "beat"):
        if not services.running(name):
            raise SmokeError(f"{name} exited with {services.procs[name].returncode}")
    log("gunicorn, worker and beat still running")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requirements", type=Path, default=REQUIREMENTS,
                        help="the file to install (default: requirements.txt)")  # fmt: skip
    args = parser.parse_args()
    started = time.monotonic()
    pg = os.environ.get("SMOKE_PG", "postgresql://postgres@127.0.0.1:5432")
    db = os.environ.get("SMOKE_DB", "brade_smoke")
    redis_url = os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/5")
    port = int(os.environ.get("SMOKE_PORT") or free_port())
    path = venv(args.requirements.resolve())
    python = path / "bin" / "python"
    env = {
        **{k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "CELERY_", "DATABASE_", "REDIS_", "PYTHON"))},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"{pg}/{db}",
        "REDIS_URL": redis_url,
        "VIRTUAL_ENV": str(path),
        "PATH": f"{path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    }  # fmt: skip
    logdir = Path(tempfile.mkdtemp(prefix="brade-smoke-"))
    services = Services(python, env, logdir)
    database(python, pg, db, create=True)
    flush = "import redis, sys; redis.Redis.from_url(sys.argv[1]).flushdb()"
    subprocess.run([str(python), "-c", flush, redis_url], check=True)
    try:
        smoke(services, port)
    except (SmokeError, subprocess.CalledProcessError) as err:
        print(f"FAILED: {err}", flush=True)
        services.stop()
        services.show_logs()
        return 1
    finally:
        services.stop()
        database(python, pg, db, create=False)
        subprocess.run([str(python), "-c", flush, redis_url], check=False)
    shutil.rmtree(logdir, ignore_errors=True)
    log(f"production install works ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
