"""Record verification's messages and leases: every record has at most one live broker
message and at most one live attempt.

A record has at most one live broker message. ``message_until`` marks it: set when a
message is sent (it expires then: ``GAME_RECORD_MESSAGE_TTL``), moved when an attempt
claims the record (the claimed message can still come back from the broker until the
redelivery window has passed, should the worker die), cleared when an attempt gives the
record back. An attempt's ``lease_until`` is renewed by a thread of its worker while it
runs (``Heartbeat``), and never past its start plus the hard time limit: a verifying
record whose lease ran out belongs to a dead attempt and is taken over at once by
whichever message comes (``claim_or_wait``). The verification itself, and what its
verdict does to the match, is ``matches.records``.

A message the broker lost (Redis restarted empty: it runs without persistence) would keep
its record waiting until ``message_until``, up to ``GAME_RECORD_MESSAGE_TTL``.
``game_records_recover`` (Celery beat) compares the records whose message is live in the
database with what the broker holds (``matches.record_broker``) and sends the lost ones a
new message, so they are verified within a minute of Redis being back.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from core.registered_tasks import registered_task
from engine.messages import Msg
from matches import record_broker
from matches.common import setting
from matches.engine_text import verdict, verdict_text
from matches.models import RECORD_DONE_STATES, GameRecordSubmission, RecordState
from matches.task_names import VERIFY_GAME_RECORD
from tournaments.models import Tournament
from tournaments.page_versions import tournaments_touch

__all__ = [
    "RECORD_MAX_ATTEMPTS",
    "Heartbeat",
    "claim_or_wait",
    "english",
    "game_record_enqueue",
    "game_record_release",
    "game_records_recover",
    "game_records_requeue",
    "hard_limit",
    "record_touch",
]

log = logging.getLogger(__name__)

RECORD_MAX_ATTEMPTS = 3


def record_touch(sub: GameRecordSubmission) -> None:
    """A record's state shows on its match's page: bump the tournament's version."""
    tournaments_touch(tournaments=Tournament.objects.filter(matches__pk=sub.match_id))


def _lease_seconds() -> float:
    return setting("GAME_RECORD_LEASE_SECONDS", 15)


def hard_limit() -> timedelta:
    return timedelta(seconds=setting("CELERY_TASK_TIME_LIMIT", 150))


def _redelivery_window() -> timedelta:
    """How long after a worker took a message the broker may still hand it back (the
    whole worker died without acknowledging it): Redis's visibility timeout, plus the time
    a live worker may take to notice (``config/settings/base.py``), plus a margin."""
    options: dict[str, Any] = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    seconds = float(options.get("visibility_timeout", 3600)) + float(
        options.get("unacked_restore_interval", 10)
    ) * float(options.get("unacked_restore_throttle", 10))
    return timedelta(seconds=seconds + 10)


def _waiting(now: datetime) -> Q:
    """Records waiting for a message to verify them: not done and no live attempt
    (pending, or verifying with its lease run out)."""
    lease_out = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    return Q(state=RecordState.PENDING) | (Q(state=RecordState.VERIFYING) & lease_out)


def _dead_attempt(now: datetime) -> Q:
    """Verifying records whose attempt's lease ran out: its worker died (or stopped
    renewing it), whatever the broker still holds of its message."""
    return Q(state=RecordState.VERIFYING, lease_until__isnull=False, lease_until__lte=now)


def _needs_message(now: datetime) -> Q:
    """Records that may be sent a message at ``now``: waiting (``_waiting``) and either no
    live message of their own or a dead attempt (``_dead_attempt``).

    Decision: a record whose attempt died is taken over once its lease has run out, not
    when the broker hands the dead worker's message back (Redis's visibility timeout,
    minutes later): only the record that was running waits, and only for its lease. That
    message may still come back later, a second one for the record; it finds the record
    done or held by the live attempt and stands back (``claim_or_wait``). Sending the
    replacement clears the dead lease (``_send``), so the record is sent one, not one per
    sweep.
    """
    no_message = Q(message_until__isnull=True) | Q(message_until__lte=now)
    return (no_message | _dead_attempt(now)) & _waiting(now)


def _has_message(now: datetime) -> Q:
    """Waiting records whose message the database holds as live (its slot has not run
    out): the broker should hold it."""
    return Q(message_until__gt=now) & _waiting(now)


def _send(pk: int, now: datetime) -> bool | None:
    """Send the record's message unless it needs none: True sent; None a message of its
    is live (or it is done, or an attempt holds it); False the broker is down."""
    from kombu.exceptions import OperationalError

    until = now + timedelta(seconds=setting("GAME_RECORD_MESSAGE_TTL", 900))
    # Take the slot with one conditional UPDATE before sending, so that two sweeps at the
    # same moment (beat and a submission) do not both send.
    taken = (
        GameRecordSubmission.objects.filter(_needs_message(now), pk=pk)
        .update(message_until=until, lease_until=None)
    )  # fmt: skip
    if not taken:
        return None
    task = registered_task(VERIFY_GAME_RECORD)
    try:
        # The message expires with its slot: a worker that receives it later discards it,
        # so a message the sweep replaced is never a second live one. It carries no time
        # limits (Celery would copy the sender's): the worker applies its own settings.
        task.apply_async(args=[pk], expires=until, time_limit=None, soft_time_limit=None)
    except (OperationalError, OSError) as err:
        GameRecordSubmission.objects.filter(pk=pk, message_until=until).update(message_until=None)
        log.warning("game record %s stays pending: broker unavailable (%s)", pk, err)
        return False
    except Exception:
        if not task.app.conf.task_always_eager:
            raise
        # In-process (the embedded default): the verification itself ran here and failed
        # before it could decide (the database busy past its timeout, say). The record
        # gives its slot back, as with a broker that is down, so the next sweep tries it
        # again (the embedded beat, ``config/embedded_beat.py``, every 30 seconds); the
        # request that submitted it is not failed for it, its record is stored.
        # Whatever slot it holds now (an attempt that claimed it moved the slot): nothing
        # can come back from a broker in-process.
        log.exception("game record %s stays pending: its verification failed in-process", pk)
        GameRecordSubmission.objects.filter(pk=pk).exclude(state__in=RECORD_DONE_STATES).update(
            message_until=None
        )
        return False
    return True


def game_record_enqueue(*, submission_id: int) -> bool:
    """Hand the verification to Celery, unless a message for the record is live already
    (a record has at most one; an attempt holding it counts as one). False if the broker
    is down: the record stays as it is, for the sweep (``game_records_requeue``)."""
    return _send(submission_id, timezone.now()) is not False


def game_records_requeue(*, now: datetime | None = None, exclude: int | None = None) -> list[int]:
    """Send a message for each record left without a live one; returns their ids.

    That is: pending records whose message never reached the broker (it was down) or
    expired unread, and verifying records whose attempt died (lease run out) and whose
    message can no longer come back from the broker (lost with it). A record submitted
    within ``GAME_RECORD_PENDING_GRACE`` is left to its own on-commit enqueue. Runs after
    every submission and from Celery beat every 30 seconds (``game_records_recover``, which
    first replaces the messages the broker lost), the safety net; a worker's death is
    handled without it (the broker hands the message back, see ``game_record_verify``).
    Stops at the first refusal of the broker.
    """
    now = now or timezone.now()
    grace = timedelta(seconds=setting("GAME_RECORD_PENDING_GRACE", 30))
    left = GameRecordSubmission.objects.filter(_needs_message(now)).exclude(
        state=RecordState.PENDING, submitted_at__gt=now - grace
    )
    if exclude is not None:
        left = left.exclude(pk=exclude)
    sent: list[int] = []
    for pk in left.order_by("pk").values_list("pk", flat=True):
        outcome = _send(pk, now)
        if outcome is False:
            break
        if outcome:
            sent.append(pk)
    return sent


def _lost_messages(now: datetime) -> dict[int, datetime]:
    """The records whose message the database holds as live and the broker does not
    hold, with their slot (``message_until``) as read.

    Read twice, ``GAME_RECORD_BROKER_RECHECK`` seconds apart (only when the first read
    misses a record): a message a worker is taking from the queue is in neither of
    kombu's places for a moment, and one being published is not there yet; a lost
    message is missing both times. Empty when the broker cannot be read (eager tasks, not
    Redis, Redis down): then the slot's expiry stays the only safety net.
    """
    live: dict[int, datetime] = {
        pk: until
        for pk, until in GameRecordSubmission.objects.filter(_has_message(now)).values_list(
            "pk", "message_until"
        )
        if until is not None
    }
    if not live:
        return {}
    held = record_broker.held_records(now)
    if held is None:
        return {}
    missing = live.keys() - held
    if missing:
        time.sleep(setting("GAME_RECORD_BROKER_RECHECK", 2.0))
        again = record_broker.held_records(timezone.now())
        missing = set() if again is None else missing - again
    return {pk: live[pk] for pk in sorted(missing)}


def game_records_recover(*, now: datetime | None = None) -> list[int]:
    """Beat's sweep: a new message for each record whose message the broker lost, then
    ``game_records_requeue`` for the rest; returns the ids of the records sent one.

    A lost message is one the database holds as live and the broker holds neither in the
    queue nor as taken by a worker (``_lost_messages``). Its slot is given up only if it
    is still the one read (one conditional UPDATE: a record claimed, finished or sent a
    message meanwhile keeps it), and the new message takes the slot as every message
    does (``_send``), so a record still never has more than one message in the broker.
    Decision: a record submitted within the pending grace is recovered too; its
    on-commit message is the one that was lost.
    """
    now = now or timezone.now()
    sent: list[int] = []
    for pk, until in _lost_messages(now).items():
        freed = GameRecordSubmission.objects.filter(
            pk=pk,
            message_until=until,
            state__in=(RecordState.PENDING, RecordState.VERIFYING),
        ).update(message_until=None)
        if not freed:
            continue
        log.warning("game record %s: the broker lost its message; sending a new one", pk)
        outcome = _send(pk, timezone.now())
        if outcome is False:
            return sent
        if outcome:
            sent.append(pk)
    return sent + game_records_requeue(now=timezone.now())


@dataclass(frozen=True)
class _Held:
    """A record another attempt holds: its number and lease, as last seen."""

    attempts: int
    lease_until: datetime


def _claim(submission_id: int) -> tuple[GameRecordSubmission, int] | _Held | None:
    """Phase 1: count the attempt in its own transaction and take the lease; ``_Held``
    while another attempt's lease is live; None when there is nothing to do."""
    with transaction.atomic():
        try:
            sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        except GameRecordSubmission.DoesNotExist:
            return None
        now = timezone.now()
        if sub.state in RECORD_DONE_STATES:
            return None
        if (
            sub.state == RecordState.VERIFYING
            and sub.lease_until is not None
            and sub.lease_until > now
        ):
            return _Held(sub.attempts, sub.lease_until)
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = now
            sub.lease_until = None
            _stored_verdict(sub, verdict("verdict.gave_up", count=sub.attempts))
            record_touch(sub)
            sub.save()
            return None
        sub.attempts += 1
        sub.state = RecordState.VERIFYING
        sub.started_at = now
        sub.lease_until = now + min(timedelta(seconds=_lease_seconds()), hard_limit())
        sub.message_until = now + _redelivery_window()
        record_touch(sub)
        sub.save()
        return sub, sub.attempts


def claim_or_wait(submission_id: int) -> tuple[GameRecordSubmission, int] | None:
    """Claim the record; while another attempt holds a live lease, watch it.

    A message for a verifying record is either a copy (the sweep, a redelivery after the
    visibility timeout) while a live attempt runs, or the message of an attempt whose
    worker just died, handed back at once (``reject_on_worker_lost``) while the dead
    attempt's lease has not run out yet. Watch the lease: renewed (or the record taken by
    another attempt) means alive, and this message is dropped (should that attempt die,
    its own message comes back); run out means dead, and the record is taken over. The
    wait is at most one lease (``GAME_RECORD_LEASE_SECONDS``).
    """
    seen: _Held | None = None
    while True:
        claimed = _claim(submission_id)
        if not isinstance(claimed, _Held):
            return claimed
        if seen is not None and claimed != seen:
            return None
        seen = claimed
        left = (claimed.lease_until - timezone.now()).total_seconds()
        time.sleep(min(max(left, 0.0) + 0.05, 1.0))


class Heartbeat:
    """Renews a verifying attempt's lease from a thread while the attempt runs (every
    third of ``GAME_RECORD_LEASE_SECONDS``), so that a live attempt is never taken for
    dead however long its replay takes, and a dead one (its process killed, the thread
    with it) is known within one lease. Never past ``cap``, the attempt's start plus the
    hard time limit: no live attempt runs longer."""

    def __init__(self, *, submission_id: int, attempt: int, cap: datetime) -> None:
        self.submission_id = submission_id
        self.attempt = attempt
        self.cap = cap
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        lease = _lease_seconds()
        if lease > 0:
            self._thread = threading.Thread(
                target=self._run, args=(lease,), name="record-lease", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            # A renewal blocked on a lock must not hold the verdict up; a late one changes
            # nothing (it only touches this attempt while it is verifying).
            self._thread.join(timeout=5)

    def _run(self, lease: float) -> None:
        from django.db import connections

        try:
            while not self._stop.wait(lease / 3):
                until = min(timezone.now() + timedelta(seconds=lease), self.cap)
                GameRecordSubmission.objects.filter(
                    pk=self.submission_id, attempts=self.attempt, state=RecordState.VERIFYING
                ).update(lease_until=until)
                if until >= self.cap:
                    return
        except Exception:
            log.exception("could not renew the lease of game record %s", self.submission_id)
        finally:
            connections.close_all()  # this thread's own connection


def game_record_release(
    *, submission_id: int, attempt: int, reason: Msg
) -> GameRecordSubmission | None:
    """An attempt ended without a verdict (out of time): pending again, and a new message
    is sent when this commits; or failed, after the last attempt. The stored message is
    written here, once it is known which of the two it is. None if the attempt no longer
    holds the record."""
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return None
        sub.lease_until = None
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = timezone.now()
            sentence = (
                verdict("verdict.stopped_each", reason=reason, count=sub.attempts)
                if sub.attempts > 1
                else verdict("verdict.stopped", reason=reason)
            )
        else:
            sub.state = RecordState.PENDING
            sentence = verdict(
                "verdict.retry",
                reason=reason,
                attempt=sub.attempts,
                attempts=RECORD_MAX_ATTEMPTS,
            )
        _stored_verdict(sub, sentence)
        if sub.state == RecordState.PENDING:
            # This attempt's message is acknowledged when the task returns: the record
            # gets a new one now rather than waiting for the sweep.
            sub.message_until = None
            transaction.on_commit(lambda: game_record_enqueue(submission_id=submission_id))
        record_touch(sub)
        sub.save()
    return sub


def english(sentence: Msg) -> str:
    """The stored message is English, like the engine's (pages render the codes)."""
    with translation.override("en"):
        return verdict_text([sentence])


def _stored_verdict(sub: GameRecordSubmission, sentence: Msg) -> None:
    """A record that ended an attempt without a verdict: the English message, and its
    code in the report so pages and the API show it in the reader's language."""
    sub.message = english(sentence)
    sub.report = {"verdict": [sentence.to_dict()]}
