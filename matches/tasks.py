"""Celery tasks: each looks an id up and calls a service (architecture.md).

``verify_game_record`` is bounded by the time limits of the settings
(``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``, the only source: the task
sets none of its own, so a worker applies the configured ones). The soft limit ends an
attempt cleanly (the record goes back to pending with a new message, or to failed after
the last attempt); the hard limit kills a verifier that ignores it, and the attempt
counter in the database (``GameRecordSubmission.attempts``) ends a record that keeps
killing workers as failed.

A worker that dies mid-verification: ``acks_late`` with ``reject_on_worker_lost`` hands
the message back at once when a worker process dies (prefork), and Redis hands it back
after the visibility timeout when the whole worker dies (``config/settings/base.py``).
The redelivered task sees the dead attempt's lease run out and verifies
(``records.game_record_verify``), with no beat needed. ``requeue_game_records`` (Celery
beat, every 30 seconds) is the safety net: records left pending while the broker was down,
and records whose message the broker lost (``record_queue.game_records_recover`` compares
the database with what Redis holds).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import worker_ready

from matches import analysis, record_queue, records
from matches.common import setting
from matches.task_names import ANALYSE_MATCH, REQUEUE_GAME_RECORDS, VERIFY_GAME_RECORD


@shared_task(
    name=VERIFY_GAME_RECORD,
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
)
def verify_game_record(submission_id: int) -> str | None:
    sub = records.game_record_verify(submission_id=submission_id)
    return sub.state if sub is not None else None


@shared_task(name=REQUEUE_GAME_RECORDS, ignore_result=True)
def requeue_game_records() -> list[int]:
    return record_queue.game_records_recover()


@shared_task(name=ANALYSE_MATCH, ignore_result=True)
def analyse_match(analysis_id: int) -> str | None:
    done = analysis.match_analysis_run(analysis_id=analysis_id)
    return done.state if done is not None else None


@worker_ready.connect
def sweep_after_a_start(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts (a restart after its predecessor was killed, say) sends beat's
    sweep to run once every lease the dead worker held has run out: its records are taken
    over then (``record_queue._needs_message``), with beat or without it, rather than
    when Redis hands the dead worker's messages back (the visibility timeout). Queued
    records need nothing: the new worker takes them at once."""
    lease = float(setting("GAME_RECORD_LEASE_SECONDS", 15))
    requeue_game_records.apply_async(countdown=lease + 2)
