"""Delivering a webhook: the signature a receiver can check, retries with backoff on 5xx
and timeouts, one id however often an event is sent, and no delivery to private
addresses unless the settings allow it (SSRF)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import pytest

from core.errors import ValidationError
from tests.factories import OrganiserFactory, TournamentFactory
from tests.webhooks.receiver import Receiver
from webhooks import sending
from webhooks.models import DeliveryState, Webhook, WebhookDelivery
from webhooks.services import delivery_attempt, hook_create, hook_test_send, retry_delay
from webhooks.signing import signature_valid

pytestmark = pytest.mark.django_db


def hook_to(url: str) -> Webhook:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    return hook_create(tournament=tournament, url=url, events=None, by=organiser)


def ping(hook: Webhook, capture: Any) -> WebhookDelivery:
    with capture(execute=True):
        event = hook_test_send(hook=hook, by=hook.tournament.organisers.get())
    return WebhookDelivery.objects.get(event=event, hook=hook)


def test_a_receiver_verifies_the_signature_as_the_readme_shows(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    hook = hook_to(receiver.url)
    delivery = ping(hook, django_capture_on_commit_callbacks)
    assert delivery.state == DeliveryState.DELIVERED and delivery.attempts == 1
    (got,) = receiver.received
    # The README's snippet: HMAC-SHA256 of the raw body with the secret, hex, "sha256=".
    expected = "sha256=" + hmac.new(hook.secret.encode(), got.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, got.headers["X-Brade-Signature"])
    assert signature_valid(hook.secret, got.body, got.headers["X-Brade-Signature"])
    assert not signature_valid("another secret", got.body, got.headers["X-Brade-Signature"])
    assert not signature_valid(hook.secret, got.body + b" ", got.headers["X-Brade-Signature"])
    body = json.loads(got.body)
    assert body["id"] == got.headers["X-Brade-Event-Id"] == str(delivery.event_id)
    assert body["type"] == got.headers["X-Brade-Event"] == "ping"
    assert body["tournament"] == {"id": hook.tournament_id, "name": hook.tournament.name}
    assert got.headers["Content-Type"] == "application/json"


def test_5xx_is_retried_then_delivered_with_the_same_id_and_body(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.script = [503, 500]
    hook = hook_to(receiver.url)
    delivery = ping(hook, django_capture_on_commit_callbacks)
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.DELIVERED,
        3,
        200,
    )
    assert len(receiver.received) == 3
    assert len({r.body for r in receiver.received}) == 1  # the duplicates are identical
    assert {r.headers["X-Brade-Event-Id"] for r in receiver.received} == {str(delivery.event_id)}
    assert [r.headers["X-Brade-Delivery-Attempt"] for r in receiver.received] == ["1", "2", "3"]


def test_a_timeout_is_retried(
    receiver: Receiver, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.WEBHOOKS_TIMEOUT = 0.3
    receiver.script = ["sleep"]
    receiver.sleep = 1.0
    hook = hook_to(receiver.url)
    delivery = ping(hook, django_capture_on_commit_callbacks)
    assert delivery.state == DeliveryState.DELIVERED and delivery.attempts == 2
    assert len(receiver.received) == 2


def test_a_failed_attempt_waits_with_exponential_backoff(
    receiver: Receiver, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.WEBHOOKS_BACKOFF_BASE = 10.0
    settings.WEBHOOKS_BACKOFF_MAX = 120.0
    assert [retry_delay(n) for n in (1, 2, 3, 4, 5, 6)] == [10, 20, 40, 80, 120, 120]
    receiver.default = 502
    hook = hook_to(receiver.url)
    with django_capture_on_commit_callbacks(execute=False):
        event = hook_test_send(hook=hook, by=hook.tournament.organisers.get())
    delivery = WebhookDelivery.objects.get(event=event)
    first = delivery_attempt(delivery_id=delivery.pk, attempt=1)
    assert (first.state, first.retry_in) == (DeliveryState.RETRYING, 10.0)
    second = delivery_attempt(delivery_id=delivery.pk, attempt=2)
    assert (second.state, second.retry_in) == (DeliveryState.RETRYING, 20.0)
    delivery.refresh_from_db()
    assert (delivery.last_status, delivery.last_error) == (502, "HTTP 502")
    assert len(delivery.last_response) <= 500  # the answer's body is truncated in the log


def test_a_second_copy_of_the_same_attempt_sends_nothing(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    hook = hook_to(receiver.url)
    with django_capture_on_commit_callbacks(execute=False):
        event = hook_test_send(hook=hook, by=hook.tournament.organisers.get())
    delivery = WebhookDelivery.objects.get(event=event)
    assert delivery_attempt(delivery_id=delivery.pk, attempt=1).state == DeliveryState.DELIVERED
    assert delivery_attempt(delivery_id=delivery.pk, attempt=1).state is None
    assert len(receiver.received) == 1


def test_it_gives_up_after_the_last_attempt(
    receiver: Receiver, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.WEBHOOKS_MAX_ATTEMPTS = 3
    receiver.default = 500
    delivery = ping(hook_to(receiver.url), django_capture_on_commit_callbacks)
    assert (delivery.state, delivery.attempts) == (DeliveryState.FAILED, 3)
    assert len(receiver.received) == 3


def test_a_4xx_answer_is_final(receiver: Receiver, django_capture_on_commit_callbacks: Any) -> None:
    receiver.default = 404
    delivery = ping(hook_to(receiver.url), django_capture_on_commit_callbacks)
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.FAILED,
        1,
        404,
    )


# --- SSRF --------------------------------------------------------------------------------

PRIVATE_URLS = [
    "http://127.0.0.1:8113/hook",  # refused before any connection
    "http://10.1.2.3/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]:8113/hook",
    "http://[::ffff:127.0.0.1]:8113/hook",
    "http://192.168.1.10/hook",
    "http://localhost:8113/hook",
]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_private_addresses_are_refused_without_the_setting(
    url: str, receiver: Receiver, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    hook = hook_to(url)  # registered while the setting allowed it (or refused below)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    delivery = ping(hook, django_capture_on_commit_callbacks)
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.FAILED,
        1,
        None,
    )
    assert "private" in delivery.last_error
    assert receiver.received == []


@pytest.mark.parametrize(
    "addresses", [["10.0.0.7"], ["93.184.216.34", "127.0.0.1"], ["fe80::1"], ["100.64.0.1"]]
)
def test_a_host_name_resolving_to_a_private_address_is_refused(
    addresses: list[str],
    receiver: Receiver,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(sending, "resolve", lambda host, port: addresses)
    delivery = ping(hook_to("https://scores.example.org/hook"), django_capture_on_commit_callbacks)
    assert delivery.state == DeliveryState.FAILED and "resolves to a private" in (
        delivery.last_error
    )


def test_a_redirect_to_a_private_address_is_refused(
    receiver: Receiver,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The receiver plays a public site (its name resolves to it, and its address counts as
    # public here) that redirects to the cloud's metadata address.
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(
        sending, "resolve", lambda host, port: [host] if host[0].isdigit() else ["127.0.0.1"]
    )
    monkeypatch.setattr(sending, "address_allowed", lambda a: a == "127.0.0.1")
    receiver.script = [(307, "http://169.254.169.254/latest/meta-data/")]
    url = f"http://scores.example.org:{receiver.port}/hook"
    delivery = ping(hook_to(url), django_capture_on_commit_callbacks)
    assert len(receiver.received) == 1
    assert delivery.state == DeliveryState.FAILED and "169.254.169.254" in delivery.last_error


def test_a_redirect_that_changes_the_method_is_not_followed(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.script = [(302, "/elsewhere")]
    delivery = ping(hook_to(receiver.url), django_capture_on_commit_callbacks)
    assert delivery.state == DeliveryState.FAILED and "redirect not followed" in (
        delivery.last_error
    )
    assert len(receiver.received) == 1


def test_a_307_to_an_allowed_address_is_followed(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    receiver.script = [(307, "/moved")]
    delivery = ping(hook_to(receiver.url), django_capture_on_commit_callbacks)
    assert delivery.state == DeliveryState.DELIVERED
    assert [r.path for r in receiver.received] == ["/hook", "/moved"]
    assert receiver.received[0].body == receiver.received[1].body


def test_public_addresses_are_allowed() -> None:
    assert sending.address_allowed("93.184.216.34")
    assert sending.address_allowed("2606:2800:220:1:248:1893:25c8:1946")
    for address in (
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "169.254.1.1",
        "::1",
        "fe80::1",
        "0.0.0.0",
        "224.0.0.1",
        "::ffff:10.0.0.1",
        "fc00::1",
    ):
        assert not sending.address_allowed(address), address


def test_deliveries_go_to_the_queue_the_settings_name(
    django_capture_on_commit_callbacks: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webhooks.tasks import deliver

    queued: list[tuple[Any, Any]] = []
    monkeypatch.setattr(deliver, "apply_async", lambda args, queue: queued.append((args, queue)))
    hook = hook_to("https://scores.example.org/hook")
    settings.WEBHOOKS_QUEUE = "webhooks"
    delivery = ping(hook, django_capture_on_commit_callbacks)
    settings.WEBHOOKS_QUEUE = ""
    ping(hook, django_capture_on_commit_callbacks)
    assert queued[0] == ((delivery.pk, 1), "webhooks")
    assert queued[1][1] is None  # the default queue


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_a_private_address_written_out_is_refused_at_creation(url: str, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(ValidationError) as refused:
        hook_to(url)
    assert refused.value.code == "bad_url"
    assert not Webhook.objects.exists()


def test_a_host_name_is_checked_only_when_sent(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert hook_to("https://scores.example.org/hook").pk is not None
