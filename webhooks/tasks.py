"""The delivery task: looks the delivery up and calls the service (``delivery_attempt``);
a failed attempt that may be retried comes back after the service's backoff.

Without a broker (tasks eager: the embedded default, and tests) Celery ignores
countdowns; decision: the retries then run at once, one after the other, in the process
that enqueued the delivery, bounded by ``WEBHOOKS_MAX_ATTEMPTS`` and the timeout."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from webhooks.services import delivery_attempt
from webhooks.task_names import DELIVER


@shared_task(bind=True, name=DELIVER, max_retries=None, acks_late=True)
def deliver(self: Any, delivery_id: int, attempt: int = 1) -> str | None:
    while True:
        done = delivery_attempt(delivery_id=delivery_id, attempt=attempt)
        if done.retry_in is None:
            return done.state
        if not self.request.is_eager:
            raise self.retry(args=(delivery_id, attempt + 1), countdown=done.retry_in)
        attempt += 1
