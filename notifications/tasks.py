"""The notification tasks: each looks ids up and calls a service (``notifications.services``).
All are idempotent (a notification is made once per key, mailed once), so a task the
broker delivers again, or two that overlap, tell nobody twice."""

from __future__ import annotations

from celery import shared_task

from notifications import services
from notifications.events import audit_notifications
from notifications.task_names import COLLECT, MAIL, READY, RECORD


@shared_task(name=COLLECT, acks_late=True, ignore_result=True)
def notifications_collect(tournament_id: int, after: int) -> int:
    """What the audit rows of ``tournament_id`` newer than ``after`` ask to tell, and
    the matches that became ready."""
    return len(audit_notifications(tournament_id=tournament_id, after=after))


@shared_task(name=RECORD, acks_late=True, ignore_result=True)
def notifications_record(submission_id: int) -> int:
    return len(services.notifications_for_record(submission_id=submission_id))


@shared_task(name=READY, acks_late=True, ignore_result=True)
def notifications_ready(tournament_id: int) -> int:
    return len(services.notifications_for_ready_matches(tournament_id=tournament_id))


@shared_task(name=MAIL, acks_late=True, ignore_result=True)
def notification_mail(notification_id: int) -> bool:
    return services.notification_send(notification_id=notification_id)
