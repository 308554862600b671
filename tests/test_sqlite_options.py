"""SQLite set up for a server (``config/sqlite_options.py``), on a real file of its own.

Runs on either database of the suite: it opens its own SQLite file through Django's
backend with the options the embedded default gets, and once with SQLite's defaults to
show what the options prevent (a transaction that read first failing at its write).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connections, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper

from config.sqlite_options import SQLITE_ENGINE, sqlite_server_options


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker: Any) -> Any:
    """These tests open SQLite files of their own, not the suite's test database."""
    with django_db_blocker.unblock():
        yield


def _wrapper(path: Path, options: dict[str, Any]) -> DatabaseWrapper:
    settings_dict = {
        "ENGINE": SQLITE_ENGINE,
        "NAME": str(path),
        "OPTIONS": options,
        "ATOMIC_REQUESTS": False,
        "AUTOCOMMIT": True,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "TIME_ZONE": None,
        "USER": "",
        "PASSWORD": "",
        "HOST": "",
        "PORT": "",
        "TEST": {},
    }
    return DatabaseWrapper(settings_dict, alias=f"sqlite-options-{path.parent.name}")


def _make_counter(path: Path) -> None:
    db = _wrapper(path, {})
    with db.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (n INTEGER NOT NULL)")
        cursor.execute("INSERT INTO counter (n) VALUES (0)")
    db.close()


def _read_then_write(path: Path, options: dict[str, Any]) -> tuple[list[BaseException], int]:
    """Two threads each read the counter and then write it, in one transaction each; the
    first has read before the second starts and writes after the second committed (or
    after waiting a moment for it). Returns the errors and the counter at the end."""
    _make_counter(path)
    first_read = threading.Event()
    second_done = threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        db = _wrapper(path, options)
        connections[db.alias] = db  # this thread's, as Django keeps them
        try:
            with transaction.atomic(using=db.alias), db.cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                (n,) = cursor.fetchone()
                first_read.set()
                second_done.wait(timeout=1.0)
                cursor.execute("UPDATE counter SET n = %s", [n + 1])
        except BaseException as err:  # collected and checked by the test
            errors.append(err)
            first_read.set()
        finally:
            db.close()

    def second() -> None:
        first_read.wait(timeout=5.0)
        db = _wrapper(path, options)
        connections[db.alias] = db
        try:
            with transaction.atomic(using=db.alias), db.cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                (n,) = cursor.fetchone()
                cursor.execute("UPDATE counter SET n = %s", [n + 1])
        except BaseException as err:  # collected and checked by the test
            errors.append(err)
        finally:
            second_done.set()
            db.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    db = _wrapper(path, {})
    with db.cursor() as cursor:
        cursor.execute("SELECT n FROM counter")
        (count,) = cursor.fetchone()
    db.close()
    return errors, count


def test_the_file_is_in_wal_mode_with_normal_sync(tmp_path: Path) -> None:
    db = _wrapper(tmp_path / "db.sqlite3", sqlite_server_options(busy_timeout_seconds=5))
    with db.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == 5000
    assert getattr(db, "transaction_mode", None) == "IMMEDIATE"
    db.close()


def test_a_writer_that_read_first_waits_for_the_other_writer(tmp_path: Path) -> None:
    errors, count = _read_then_write(
        tmp_path / "db.sqlite3", sqlite_server_options(busy_timeout_seconds=10)
    )
    assert errors == []
    assert count == 2  # neither write was lost


def test_without_the_options_the_same_transactions_fail(tmp_path: Path) -> None:
    """What the options prevent, shown on SQLite's defaults (and WAL, so that the second
    writer can commit while the first holds its read): the first writer's snapshot is
    stale and it fails at once, busy timeout or not."""
    errors, count = _read_then_write(
        tmp_path / "db.sqlite3",
        {"timeout": 10, "init_command": "PRAGMA journal_mode=WAL"},
    )
    assert len(errors) == 1
    assert isinstance(errors[0], OperationalError)
    assert "locked" in str(errors[0])
    assert count == 1


def test_the_embedded_default_gets_the_options() -> None:
    """``config/settings/base.py`` applies them when no ``DATABASE_URL`` is set (read in a
    process of its own, so the suite's own database does not matter)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    script = (
        "import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default']['OPTIONS']))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == sqlite_server_options(busy_timeout_seconds=20.0)
