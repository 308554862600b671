"""Celery tasks: each looks an id up and calls a service (architecture.md).

``verify_game_record`` is bounded: a soft time limit ends an attempt cleanly
(the record goes back to pending, or to failed after the last attempt); the hard
limit kills a verifier that ignores it, and the attempt counter in the database
(``GameRecordSubmission.attempts``) ends a record that keeps killing workers as
failed. ``acks_late`` with ``reject_on_worker_lost`` returns the message to the
broker when a worker dies; ``requeue_game_records`` (run it from Celery beat,
e.g. every minute) picks up records left pending while the broker was down and
records whose worker died.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from matches import services

SOFT_TIME_LIMIT = 60
HARD_TIME_LIMIT = 90


@shared_task(
    name="matches.verify_game_record",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=HARD_TIME_LIMIT,
)
def verify_game_record(submission_id: int) -> str | None:
    try:
        sub = services.game_record_verify(submission_id=submission_id)
    except SoftTimeLimitExceeded:
        from matches.models import GameRecordSubmission

        attempts = (
            GameRecordSubmission.objects.filter(pk=submission_id)
            .values_list("attempts", flat=True)
            .first()
        )
        services.game_record_release(
            submission_id=submission_id,
            attempt=attempts or 0,
            message=f"Verification took longer than {SOFT_TIME_LIMIT} s; it will be retried.",
        )
        return "timeout"
    return sub.state if sub is not None else None


@shared_task(name="matches.requeue_game_records", ignore_result=True)
def requeue_game_records() -> list[int]:
    return services.game_records_requeue()
