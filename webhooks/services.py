"""Webhooks' services: hooks created and deleted by a tournament's organisers, events
published to the hooks that want them, and one delivery attempt at a time.

Decisions:
- Only the tournament's organisers (and superusers) see and manage its hooks; a hook
  hears only of its own tournament, so a private tournament's events go only to hooks
  its own organisers registered.
- The secret is made by the server and shown once, in the answer that creates the hook
  (as the API token page does); afterwards only its first characters are shown.
- Delivery is at least once: an event's id is the same in every attempt and in every
  hook's delivery, so a receiver drops what it has seen. Attempts are retried with
  exponential backoff (``WEBHOOKS_BACKOFF_BASE`` seconds, doubling, at most
  ``WEBHOOKS_BACKOFF_MAX``, ``WEBHOOKS_MAX_ATTEMPTS`` attempts in all) on no answer (a
  timeout, a refused connection), a 5xx, 408 or 429; any other answer is final: 2xx
  delivered, another 4xx or a 3xx failed. A refused address (``webhooks.sending``) is
  final too. The backoff is capped below the broker's visibility timeout, so Redis never
  hands a waiting retry to a second worker.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import PermissionDeniedError, ValidationError
from core.permissions import User, is_organiser, signed_in
from core.registered_tasks import registered_task
from tournaments.models import Tournament
from webhooks import sending
from webhooks.models import (
    SUBSCRIBABLE,
    DeliveryState,
    EventKind,
    Webhook,
    WebhookDelivery,
    WebhookEvent,
)
from webhooks.signing import (
    ATTEMPT_HEADER,
    EVENT_HEADER,
    EVENT_ID_HEADER,
    SIGNATURE_HEADER,
    secret_new,
    signature,
)
from webhooks.task_names import DELIVER

MAX_HOOKS_PER_TOURNAMENT = 10


def organiser_require(*, tournament: Tournament, by: User) -> None:
    if not is_organiser(by, tournament):
        raise PermissionDeniedError(
            _("Only the organisers of this tournament may manage its webhooks."),
            code="not_organiser",
        )


def hook_create(*, tournament: Tournament, url: str, events: list[str] | None, by: User) -> Webhook:
    """Register ``url`` for ``events`` (None or empty: every kind) of ``tournament``."""
    organiser_require(tournament=tournament, by=by)
    url = url.strip()
    problem = sending.url_problem(url) or sending.literal_problem(url)
    if problem:
        raise ValidationError(
            _("This URL cannot receive webhooks: %(why)s.") % {"why": problem},
            code="bad_url",
            fields={"url": [problem]},
        )
    kinds = list(dict.fromkeys(events or SUBSCRIBABLE))
    unknown = [k for k in kinds if k not in SUBSCRIBABLE]
    if unknown:
        raise ValidationError(
            _("Unknown event kinds: %(kinds)s.") % {"kinds": ", ".join(unknown)},
            code="bad_events",
            fields={"events": [", ".join(unknown)]},
        )
    if Webhook.objects.filter(tournament=tournament).count() >= MAX_HOOKS_PER_TOURNAMENT:
        raise ValidationError(
            _("A tournament has at most %(n)s webhooks.") % {"n": MAX_HOOKS_PER_TOURNAMENT},
            code="too_many_hooks",
        )
    user = signed_in(by)
    return Webhook.objects.create(
        tournament=tournament, url=url, events=kinds, secret=secret_new(), created_by=user
    )


def hook_delete(*, hook: Webhook, by: User) -> None:
    """Delete the hook and its delivery log; deliveries waiting for a retry are dropped
    (the task finds no delivery)."""
    organiser_require(tournament=hook.tournament, by=by)
    hook.delete()


def event_body(
    *, event_id: uuid.UUID, kind: str, tournament: Tournament, data: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": str(event_id),
        "type": kind,
        "created": timezone.now().isoformat(),
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "data": data,
    }


def event_publish(
    *,
    tournament_id: int,
    kind: str,
    key: str,
    data: dict[str, Any],
    hook: Webhook | None = None,
) -> WebhookEvent | None:
    """Make the event ``key`` (once: publishing the same key again does nothing) and a
    delivery to each of the tournament's hooks that wants it (or to ``hook`` only);
    each delivery is enqueued when the transaction commits. None: no hook wants it."""
    hooks = (
        [hook] if hook is not None else list(Webhook.objects.filter(tournament_id=tournament_id))
    )
    hooks = [h for h in hooks if h.wants(kind)]
    if not hooks:
        return None
    tournament = Tournament.objects.get(pk=tournament_id)
    event_id = uuid.uuid4()
    body = event_body(event_id=event_id, kind=kind, tournament=tournament, data=data)
    try:
        with transaction.atomic():
            event = WebhookEvent.objects.create(
                id=event_id, key=key, tournament=tournament, kind=kind, body=body
            )
            deliveries = WebhookDelivery.objects.bulk_create(
                [WebhookDelivery(hook=h, event=event) for h in hooks]
            )
            for delivery in deliveries:
                transaction.on_commit(partial(_enqueue, delivery.pk))
    except IntegrityError:
        return WebhookEvent.objects.filter(key=key).first()  # published already
    return event


def _enqueue(delivery_id: int) -> None:
    """Send the delivery's first attempt to ``WEBHOOKS_QUEUE`` (its retries follow it)."""
    registered_task(DELIVER).apply_async(args=(delivery_id, 1), queue=delivery_queue())


def delivery_queue() -> str | None:
    """The Celery queue of deliveries (None: the default queue). Deliveries wait on the
    network, records on the CPU: a queue of their own with a thread-pool worker keeps a
    slow receiver from holding up record verification (README)."""
    return getattr(settings, "WEBHOOKS_QUEUE", None) or None


def hook_test_send(*, hook: Webhook, by: User) -> WebhookEvent:
    """The manage page's "send a test event": a ``ping`` to this hook only."""
    organiser_require(tournament=hook.tournament, by=by)
    event = event_publish(
        tournament_id=hook.tournament_id,
        kind=EventKind.PING,
        key=f"ping-{uuid.uuid4().hex}",
        data={"hook": hook.pk, "message": "A test event from Bräde Arena."},
        hook=hook,
    )
    assert event is not None  # a hook always wants its test event
    return event


# --- delivery ------------------------------------------------------------------------


def max_attempts() -> int:
    return int(getattr(settings, "WEBHOOKS_MAX_ATTEMPTS", 8))


def retry_delay(attempt: int) -> float:
    """Seconds to wait after failed attempt ``attempt`` (1, 2, …): base · 2^(attempt−1),
    at most ``WEBHOOKS_BACKOFF_MAX``."""
    base = float(getattr(settings, "WEBHOOKS_BACKOFF_BASE", 10.0))
    cap = float(getattr(settings, "WEBHOOKS_BACKOFF_MAX", 120.0))
    return float(min(cap, base * 2 ** (attempt - 1)))


def body_bytes(body: dict[str, Any]) -> bytes:
    """The raw body sent (and signed): compact JSON, UTF-8."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def delivery_headers(delivery: WebhookDelivery, body: bytes, attempt: int) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": "BradeArena-Webhooks/1",
        SIGNATURE_HEADER: signature(delivery.hook.secret, body),
        EVENT_HEADER: delivery.event.kind,
        EVENT_ID_HEADER: str(delivery.event_id),
        ATTEMPT_HEADER: str(attempt),
    }


RETRY_STATUSES = frozenset({408, 429})


@dataclass(frozen=True)
class Attempted:
    """What ``delivery_attempt`` did: the delivery's new state and, when it is to be
    tried again, after how many seconds."""

    state: str | None  # None: nothing done (gone, finished, or another copy's attempt)
    retry_in: float | None = None


def delivery_attempt(*, delivery_id: int, attempt: int) -> Attempted:
    """Attempt ``attempt`` of a delivery (idempotent: a second copy of the same attempt's
    task, which the broker may hand out at least once, finds it claimed and does
    nothing)."""
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id,
        attempts=attempt - 1,
        state__in=(DeliveryState.PENDING, DeliveryState.RETRYING),
    ).update(attempts=attempt, last_attempt_at=timezone.now())
    if not claimed:
        return Attempted(None)
    delivery = WebhookDelivery.objects.select_related("hook", "event").get(pk=delivery_id)
    body = body_bytes(delivery.event.body)
    answer = sending.post(delivery.hook.url, body, delivery_headers(delivery, body, attempt))
    status = answer.status
    final = answer.refused or (status is not None and status < 500 and status not in RETRY_STATUSES)
    if status is not None and 200 <= status < 300:
        state = DeliveryState.DELIVERED
    elif final or attempt >= max_attempts():
        state = DeliveryState.FAILED
    else:
        state = DeliveryState.RETRYING
    now = timezone.now()
    WebhookDelivery.objects.filter(pk=delivery_id, attempts=attempt).update(
        state=state,
        last_status=status,
        last_error=answer.error[:300],
        last_response=answer.body[:1000],
        last_duration_ms=answer.duration_ms,
        last_attempt_at=now,
        delivered_at=now if state == DeliveryState.DELIVERED else None,
    )
    if state == DeliveryState.RETRYING:
        return Attempted(state, retry_delay(attempt))
    return Attempted(state)
