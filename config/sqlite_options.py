"""SQLite set up for a server: the embedded default serves several threads at once.

The embedded default (no ``DATABASE_URL``) keeps everything in the SQLite file
``db.sqlite3`` and serves it from one gunicorn process with several threads
(``config/gunicorn_embedded.py``). SQLite's defaults are made for one program writing at a
time; these options make it hold an evening of live recording:

- ``journal_mode=WAL``: readers go on while one writer writes (the default rollback
  journal blocks every reader during a commit). WAL is a property of the file and stays.
- ``synchronous=NORMAL``: WAL's usual pairing; a power cut may lose the last commits,
  never the file.
- ``transaction_mode=IMMEDIATE`` (Django 5.1+): every transaction takes the write lock at
  its ``BEGIN``, so a second writer waits there, up to the busy timeout. With SQLite's
  default (``DEFERRED``) a transaction that read first and writes later cannot wait: when
  another writer committed meanwhile it fails at once with "database is locked", whatever
  the timeout (its snapshot is stale).
- ``timeout``: the busy timeout, how long a writer waits for the lock before "database is
  locked"; longer than the evening's longest write (a draw, a season import).
"""

from __future__ import annotations

from typing import Any

SQLITE_ENGINE = "django.db.backends.sqlite3"


def sqlite_server_options(*, busy_timeout_seconds: float) -> dict[str, Any]:
    """The ``OPTIONS`` of a SQLite database served by several threads (module docstring)."""
    return {
        "transaction_mode": "IMMEDIATE",
        "timeout": busy_timeout_seconds,
        "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL",
    }
