"""One limit on failed sign-ins for every way in (site, admin, API token), counted per
account and per client address in the database: not dodged by X-Forwarded-For, still
working with Redis down, and saying so in Swedish and English."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate
from django.test import Client, override_settings
from django.test.client import RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.client_address import client_address
from accounts.models import SignInFailure
from accounts.signin_limit import attempt_begin
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ACCOUNT_LIMIT = 10
ADDRESS_LIMIT = 30
# A cache nobody listens on: Redis down.
REDIS_DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


def sign_in(client: Client, username: str, password: str, **extra: Any) -> int:
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, **extra
    ).status_code


def token(api: APIClient, username: str, password: str, **extra: Any) -> int:
    return api.post(
        "/api/token/", {"username": username, "password": password}, **extra
    ).status_code


def test_the_limits_are_the_documented_ones() -> None:
    assert settings.SIGNIN_FAILURES_PER_ACCOUNT == ACCOUNT_LIMIT
    assert settings.SIGNIN_FAILURES_PER_ADDRESS == ADDRESS_LIMIT
    assert settings.SIGNIN_FAILURE_WINDOW == 15 * 60


def test_a_hundred_wrong_passwords_then_the_right_one_is_refused_on_the_site() -> None:
    UserFactory.create(username="anna")  # password "pw"
    client = Client()
    codes = [sign_in(client, "anna", f"guess{i}") for i in range(100)]
    assert codes[:ACCOUNT_LIMIT] == [200] * ACCOUNT_LIMIT  # the form again, "wrong"
    assert set(codes[ACCOUNT_LIMIT:]) == {429}
    response = client.post("/accounts/login/", {"username": "anna", "password": "pw"})
    assert response.status_code == 429
    assert SESSION_KEY not in client.session
    page = response.content.decode()
    assert "För många misslyckade inloggningar" in page  # Swedish by default
    assert int(response["Retry-After"]) > 0
    # Only the ten checked passwords were counted, not the refused tries.
    assert SignInFailure.objects.filter(username="anna").count() == ACCOUNT_LIMIT


def test_the_lockout_message_in_english() -> None:
    UserFactory.create(username="anna")
    client = Client()
    client.cookies["django_language"] = "en"
    for i in range(ACCOUNT_LIMIT):
        sign_in(client, "anna", f"guess{i}")
    response = client.post("/accounts/login/", {"username": "anna", "password": "pw"})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()


def test_a_wrong_password_still_says_wrong_before_the_limit() -> None:
    UserFactory.create(username="anna")
    page = Client().post("/accounts/login/", {"username": "anna", "password": "x"})
    assert page.status_code == 200
    assert "Too many" not in page.content.decode()
    assert "För många" not in page.content.decode()


def test_the_api_token_refuses_with_the_json_error_and_retry_after() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    codes = [token(api, "anna", f"guess{i}") for i in range(ACCOUNT_LIMIT + 1)]
    assert codes == [400] * ACCOUNT_LIMIT + [429]
    r = api.post("/api/token/", {"username": "anna", "password": "pw"})
    assert r.status_code == 429
    assert set(r.json()) == {"error"}
    assert r.json()["error"]["code"] == "too_many_attempts"
    assert "Too many failed sign-ins" in r.json()["error"]["message"]
    assert int(r["Retry-After"]) > 0


def test_varying_x_forwarded_for_does_not_dodge_the_limit() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    codes = [
        token(api, f"name{i}", "guess", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
        for i in range(ADDRESS_LIMIT + 1)
    ]
    # Every guess came from 127.0.0.1, whatever the header said: the address is locked.
    assert codes == [400] * ADDRESS_LIMIT + [429]
    assert token(api, "anna", "pw", HTTP_X_FORWARDED_FOR="198.51.100.7") == 429
    assert set(SignInFailure.objects.values_list("address", flat=True)) == {"127.0.0.1"}


def test_one_account_guessed_from_many_addresses_is_locked_for_all() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    for i in range(ACCOUNT_LIMIT):
        assert token(api, "Anna", "guess", REMOTE_ADDR=f"203.0.113.{i}") == 400
    assert token(api, "anna", "pw", REMOTE_ADDR="198.51.100.7") == 429
    # Another account from the same addresses is not affected.
    UserFactory.create(username="bertil")
    assert token(api, "bertil", "pw", REMOTE_ADDR="203.0.113.1") == 201


def test_one_address_trying_many_names_is_locked_for_every_name() -> None:
    UserFactory.create(username="anna")
    client = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(ADDRESS_LIMIT):
        assert sign_in(client, f"name{i}", "guess") == 200
    assert sign_in(client, "anna", "pw") == 429
    assert sign_in(Client(REMOTE_ADDR="198.51.100.7"), "anna", "pw") == 302


def test_the_admin_sign_in_falls_under_the_same_limit() -> None:
    UserFactory.create(username="chef", is_staff=True, is_superuser=True)
    client = Client()
    client.cookies["django_language"] = "en"
    url = "/admin/login/?next=/admin/"
    # Failures on the site count for the admin too: one limit.
    for i in range(ACCOUNT_LIMIT - 1):
        sign_in(client, "chef", f"guess{i}")
    assert client.post(url, {"username": "chef", "password": "x"}).status_code == 200
    response = client.post(url, {"username": "chef", "password": "pw"})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert SESSION_KEY not in client.session


def test_the_lock_ends_when_the_window_has_passed() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    for i in range(ACCOUNT_LIMIT):
        token(api, "anna", f"guess{i}")
    assert token(api, "anna", "pw") == 429
    SignInFailure.objects.update(at=timezone.now() - timedelta(seconds=15 * 60 + 1))
    assert token(api, "anna", "pw") == 201
    assert not SignInFailure.objects.exists()  # old rows are deleted as new ones come


def test_a_right_password_clears_the_names_failures_from_there() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    for i in range(ACCOUNT_LIMIT - 1):
        token(api, "anna", f"guess{i}")
    assert token(api, "anna", "pw") == 201
    assert not SignInFailure.objects.exists()
    for i in range(ACCOUNT_LIMIT - 1):
        assert token(api, "anna", f"again{i}") == 400


def test_deleting_the_rows_lifts_a_lockout() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    for i in range(ACCOUNT_LIMIT):
        token(api, "anna", f"guess{i}")
    SignInFailure.objects.filter(username="anna").delete()
    assert token(api, "anna", "pw") == 201


def test_authenticate_without_a_request_counts_per_account() -> None:
    UserFactory.create(username="anna")
    for _ in range(ACCOUNT_LIMIT):
        assert authenticate(username="anna", password="x") is None
    assert authenticate(username="anna", password="pw") is None
    assert SignInFailure.objects.filter(address=None).count() == ACCOUNT_LIMIT


@override_settings(CACHES=REDIS_DOWN)
def test_signing_in_works_and_is_limited_with_redis_down() -> None:
    UserFactory.create(username="anna")
    api = APIClient()
    assert token(api, "anna", "pw") == 201
    assert sign_in(Client(), "anna", "pw") == 302
    codes = [token(api, "anna", f"guess{i}") for i in range(ACCOUNT_LIMIT + 1)]
    assert codes == [400] * ACCOUNT_LIMIT + [429]
    assert token(api, "anna", "pw") == 429


class TestClientAddress:
    rf = RequestFactory()

    def address(self, remote: str, forwarded: str | None = None) -> str | None:
        extra = {"REMOTE_ADDR": remote}
        if forwarded is not None:
            extra["HTTP_X_FORWARDED_FOR"] = forwarded
        return client_address(self.rf.get("/", **extra))  # type: ignore[arg-type]

    def test_no_trusted_proxy_by_default_the_header_is_ignored(self) -> None:
        assert self.address("192.0.2.1", "203.0.113.5") == "192.0.2.1"

    @override_settings(TRUSTED_PROXIES=["10.0.0.0/8", "127.0.0.1"])
    def test_behind_trusted_proxies_the_first_untrusted_hop_from_the_right(self) -> None:
        assert self.address("10.0.0.2", "203.0.113.5") == "203.0.113.5"
        # A client's own forged entries are left of the address the proxy saw.
        assert self.address("10.0.0.2", "1.2.3.4, 203.0.113.5") == "203.0.113.5"
        assert self.address("127.0.0.1", "203.0.113.5, 10.0.0.3") == "203.0.113.5"
        # A connection not from a proxy: its header is not believed.
        assert self.address("192.0.2.1", "203.0.113.5") == "192.0.2.1"
        # Garbage ends the walk at the last trusted hop.
        assert self.address("10.0.0.2", "203.0.113.5, nonsense") == "10.0.0.2"
        assert self.address("10.0.0.2") == "10.0.0.2"
        assert self.address("2001:db8::1", "203.0.113.5") == "2001:db8::1"

    @override_settings(TRUSTED_PROXIES=["127.0.0.1"])
    def test_behind_a_trusted_proxy_clients_are_counted_apart(self) -> None:
        UserFactory.create(username="anna")
        api = APIClient()
        for i in range(ADDRESS_LIMIT):
            token(api, f"name{i}", "guess", HTTP_X_FORWARDED_FOR="203.0.113.5")
        assert token(api, "anna", "pw", HTTP_X_FORWARDED_FOR="203.0.113.5") == 429
        assert token(api, "anna", "pw", HTTP_X_FORWARDED_FOR="198.51.100.7") == 201


def test_attempts_in_flight_count_before_their_password_is_checked() -> None:
    """Attempts sent at once: each is written before its password is checked, so no more
    than the limit get a password checked even if none has finished."""
    outcomes = [attempt_begin(username="anna", address=f"203.0.113.{i}")[1] for i in range(15)]
    assert [o is None for o in outcomes] == [True] * ACCOUNT_LIMIT + [False] * 5
    assert SignInFailure.objects.count() == ACCOUNT_LIMIT  # the refused ones removed
