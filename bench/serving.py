"""The system under test of the live benches (bench/live_bench.py,
bench/live_board_bench.py): a PostgreSQL database of their own, migrated and filled in
this process, a gunicorn of sync workers on it (and a Celery worker where asked), all
stopped and removed on the way out.

    with served(Setup(db_name="mine", port=8170, redis_url=url), populate) as (server, made):
        server.warm([f"/api/matches/{made[0]}/"])
        server.reset_log()
        ...  # the load, against server.port

``populate()`` runs here after ``django.setup()`` (on the bench's database, with eager
tasks: this process needs no broker) and returns what the bench needs of what it made.

The logs (gunicorn's access log as ``Setup.access_format`` says, the worker's) are in
``server.logdir``, removed on the way out unless ``Setup.keep_logs``. Nothing is
installed; everything talks to 127.0.0.1.

``Setup(embedded=True)`` serves the embedded default instead, as ``scripts/run.sh`` does
(bench/club_evening.py): a SQLite file of its own in ``server.logdir`` (no PostgreSQL),
the demo settings with a secret key file there too, tasks in-process (no Redis), and
``gunicorn -c config/gunicorn_embedded.py config.wsgi`` on ``ADDR``: its one worker and
threads, no access log (the ``workers``, ``threads``, ``proxy``, ``redis_url``,
``celery_worker`` and ``access_format`` fields are not used).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reliability import Client, Processes, free_port, wait_for  # noqa: E402

T = TypeVar("T")
PG = "postgresql://postgres@127.0.0.1:5432"


def database(pg: str, name: str, *, drop_only: bool = False) -> str:
    """Drop database ``name`` on the server ``pg`` and make it again (or only drop it);
    its URL."""
    import psycopg

    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise SystemExit(f"--db-name: {name!r} is not a plain database name")
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {name}")
    return f"{pg}/{name}"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def port_busy(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Setup:
    db_name: str = ""  # the PostgreSQL database, dropped and made again (not embedded)
    pg: str = PG
    port: int | None = None  # None: a free one
    workers: int = 4  # gunicorn workers
    threads: int = 1  # each worker's threads: 1 a sync worker, more a gthread one
    # "nginx": Debian's nginx in front on ``port`` (gunicorn then on a port of its own),
    # buffering each request and answer as the HTTPS proxy of a deployment does
    proxy: str | None = None
    redis_url: str | None = None  # the cache (and broker); None: each worker's memory
    celery_worker: bool = False
    access_format: str = "%(s)s %(D)s %(m)s %(U)s"
    log_prefix: str = "brade-bench-"
    keep_logs: bool = False
    embedded: bool = False  # the embedded default as scripts/run.sh serves it (module doc)


def process_stats() -> Iterator[tuple[int, list[str]]]:
    """Every running process's pid and the fields of its /proc/PID/stat after the name
    (``fields[1]`` the parent's pid, ``[2]`` the process group, ``[11]``, ``[12]`` the
    user and system CPU ticks, ``[21]`` the resident set in pages)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        yield int(stat.parent.name), fields


def group_cpu_seconds(group: int) -> float:
    """The CPU time (user + system) the processes of a process group have used so far,
    the ones still running (Linux's /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for _, fields in process_stats():
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def group_rss_bytes(group: int) -> int:
    """The resident memory (RSS) of the processes of a process group, summed: pages two
    processes share (a forked worker's) are counted in each (Linux's /proc)."""
    page = os.sysconf("SC_PAGE_SIZE")
    return sum(int(f[21]) * page for _, f in process_stats() if int(f[2]) == group)


@dataclass
class Server:
    port: int
    logdir: Path
    group: int  # gunicorn's process group (its master's pid): master and workers
    worker_group: int | None = None  # the Celery worker's (its pool's too), if one runs

    def cpu_seconds(self) -> float:
        """The CPU time (user + system) gunicorn's processes have used so far: what the
        requests cost whatever else the machine runs (Linux's /proc)."""
        return group_cpu_seconds(self.group)

    def worker_cpu_seconds(self) -> float:
        """The same for the Celery worker (0 when none runs)."""
        return 0.0 if self.worker_group is None else group_cpu_seconds(self.worker_group)

    @property
    def access_log(self) -> Path:
        return self.logdir / "access.log"

    def warm(self, paths: list[str], rounds: int) -> None:
        """Ask every path ``rounds`` times (imports, templates, catalogues, each worker's
        database connection: a server that has run for a while is warm)."""
        for _ in range(rounds):
            for path in paths:
                Client(self.port).request("GET", path)

    def reset_log(self) -> None:
        """Empty the access log (what came before is not counted)."""
        self.access_log.write_bytes(b"")


NGINX = "/usr/sbin/nginx"  # Debian's nginx (apt-get install nginx-light)


def nginx(logdir: Path, port: int, upstream: int) -> subprocess.Popen[bytes]:
    """nginx on ``port`` in front of ``upstream``: requests read whole, then passed on, and
    answers taken whole (a slow client holds nginx, not a gunicorn worker), as behind the
    HTTPS proxy of README's deployment. Its files are in ``logdir``."""
    if not Path(NGINX).exists():
        raise SystemExit(f"{NGINX} is missing: apt-get install nginx-light")
    conf = logdir / "nginx.conf"
    conf.write_text(f"""
daemon off;
worker_processes 1;
pid {logdir}/nginx.pid;
error_log {logdir}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {logdir}/nginx-body;
    proxy_temp_path {logdir}/nginx-proxy;
    fastcgi_temp_path {logdir}/nginx-fastcgi;
    uwsgi_temp_path {logdir}/nginx-uwsgi;
    scgi_temp_path {logdir}/nginx-scgi;
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_set_header Host $http_host;
            proxy_buffering on;
            proxy_request_buffering on;
        }}
    }}
}}
""")
    log = open(logdir / "nginx.log", "ab")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [NGINX, "-c", str(conf), "-e", str(logdir / "nginx-error.log")],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


@contextmanager
def served(setup: Setup, populate: Callable[[], T]) -> Iterator[tuple[Server, T]]:
    """The system under test (module doc); everything stopped and dropped on the way out."""
    port = setup.port if setup.port is not None else free_port()
    if port_busy(port):
        raise SystemExit(f"port {port} is in use; choose another with --port")
    logdir = Path(tempfile.mkdtemp(prefix=setup.log_prefix))
    env = {
        **{k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "GUNICORN_"))},
        "PYTHONPATH": str(ROOT),
    }  # fmt: skip
    if setup.embedded:  # scripts/run.sh's environment, its files in logdir
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.demo",
            DATABASE_URL=f"sqlite:///{logdir / 'db.sqlite3'}",
            DJANGO_SECRET_KEY_FILE=str(logdir / ".secret-key"),
            ADDR=f"127.0.0.1:{port}",
        )
    else:
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.base",
            DATABASE_URL=database(setup.pg, setup.db_name),
            DJANGO_DEBUG="false",
            DJANGO_LOG_LEVEL="WARNING",
        )
    if setup.redis_url and not setup.embedded:
        env["REDIS_URL"] = setup.redis_url
    procs = Processes(env, logdir)
    ready = False  # Django set up in this process
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_"))})
        os.environ.pop("REDIS_URL", None)  # this process: eager tasks, no broker needed
        import django

        django.setup()
        ready = True
        from django.db import connections

        connections.close_all()
        made = populate()
        connections.close_all()
        app_port = port if setup.proxy is None or setup.embedded else free_port()
        if setup.embedded:  # as scripts/run.sh starts it
            command = ["gunicorn", "-c", "config/gunicorn_embedded.py", "config.wsgi"]
        else:
            command = ["gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{app_port}",
                       "--workers", str(setup.workers), "--threads", str(setup.threads),
                       "--timeout", "60", "--backlog", "2048",
                       "--access-logfile", str(logdir / "access.log"),
                       "--access-logformat", setup.access_format]  # fmt: skip
        gunicorn = procs.spawn("gunicorn", command)
        if setup.proxy is not None and not setup.embedded:
            procs.procs.append(nginx(logdir, port, app_port))
        worker = procs.worker("worker") if setup.celery_worker and not setup.embedded else None
        wait_for(lambda: Client(port).request("GET", "/healthz").status == 200, 60, "gunicorn")
        yield Server(port, logdir, gunicorn.pid, None if worker is None else worker.pid), made
    finally:
        procs.close()
        if ready:
            from django.db import connections

            connections.close_all()
        if not setup.embedded:
            database(setup.pg, setup.db_name, drop_only=True)
        if not setup.keep_logs:
            shutil.rmtree(logdir, ignore_errors=True)
