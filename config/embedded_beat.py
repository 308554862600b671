"""Celery beat's schedule run in the server's own process: the embedded default's beat.

Without ``REDIS_URL`` tasks run in-process (eager) and there is no beat to run the
schedule (``config/celery.py``: the sweep that sends a new verification to every game
record left pending). A record whose verification failed inside its request (SQLite busy
past its timeout, say; ``matches/record_queue.py``) would then stay pending for good. The
embedded server (``config/gunicorn_embedded.py``, one process) starts this thread once:
it runs each entry of ``app.conf.beat_schedule`` in the process, first a few seconds after
the start (records a previous run left pending), then every entry's period.

Decisions, for a club's own machine:

- Only periods (seconds or a ``timedelta``) are run here; an entry with another kind of
  schedule (a crontab) is refused when the thread starts, naming the entry, rather than
  run at a guessed time.
- A task that raises is logged and tried again at its next period; the thread never dies
  of it. Each run closes the thread's database connections, as a request does.
- It runs only while tasks are eager: with a broker, ``celery beat`` is the one beat
  (two would send every sweep twice).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

log = logging.getLogger(__name__)

FIRST_RUN_AFTER_SECONDS = 5.0


@dataclass
class _Entry:
    name: str
    task: str
    every: float
    due: float


def _entries(schedule: Mapping[str, Mapping[str, Any]], *, start: float) -> list[_Entry]:
    entries: list[_Entry] = []
    for name, entry in schedule.items():
        every = entry.get("schedule")
        if isinstance(every, timedelta):
            seconds = every.total_seconds()
        elif isinstance(every, int | float) and not isinstance(every, bool):
            seconds = float(every)
        else:
            raise ValueError(
                f"beat schedule entry {name!r}: only a period in seconds or a timedelta "
                f"runs in-process, not {every!r}; run `celery -A config beat` instead"
            )
        if seconds <= 0:
            raise ValueError(f"beat schedule entry {name!r}: the period must be positive")
        entries.append(
            _Entry(
                name=name,
                task=str(entry["task"]),
                every=seconds,
                due=start + FIRST_RUN_AFTER_SECONDS,
            )
        )
    return entries


class EmbeddedBeat:
    """The schedule's entries, run by ``run_due`` when their time has come (module
    docstring). ``run`` is the thread's loop; ``clock`` and ``runner`` are for tests."""

    def __init__(
        self,
        *,
        schedule: Mapping[str, Mapping[str, Any]],
        runner: Callable[[str], object],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._runner = runner
        self._clock = clock
        self._entries = _entries(schedule, start=clock())
        self._stop = threading.Event()

    def run_due(self) -> list[str]:
        """Run every entry that is due; returns their names. A failure is logged."""
        ran: list[str] = []
        for entry in self._entries:
            now = self._clock()
            if now < entry.due:
                continue
            entry.due = now + entry.every
            try:
                self._runner(entry.task)
            except Exception:
                log.exception(
                    "in-process beat: %s failed; tried again in %.0f s", entry.name, entry.every
                )
            ran.append(entry.name)
        return ran

    def seconds_to_next(self) -> float:
        if not self._entries:
            return 3600.0
        return max(0.0, min(entry.due for entry in self._entries) - self._clock())

    def run(self) -> None:
        while not self._stop.wait(self.seconds_to_next()):
            self.run_due()

    def stop(self) -> None:
        self._stop.set()


def run_task_in_process(name: str) -> object:
    """Run the registered task ``name`` in this thread, as an eager ``delay`` would, and
    close the thread's database connections after it."""
    from django.db import close_old_connections, connections

    from core.registered_tasks import registered_task

    close_old_connections()
    try:
        return registered_task(name).apply(throw=True).get()
    finally:
        connections.close_all()


def embedded_beat_start() -> EmbeddedBeat | None:
    """Start the in-process beat in a daemon thread, when tasks are eager; else None."""
    from django.conf import settings

    from config.celery import app

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    beat = EmbeddedBeat(schedule=app.conf.beat_schedule, runner=run_task_in_process)
    threading.Thread(target=beat.run, name="embedded-beat", daemon=True).start()
    log.info("in-process beat started: %s", ", ".join(app.conf.beat_schedule))
    return beat
