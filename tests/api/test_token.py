"""First steps with the API: the root listing, and getting and revoking a token."""

from __future__ import annotations

import pytest
from django.middleware.csrf import _get_new_csrf_string
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.conftest import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_root_lists_the_main_endpoints_as_links() -> None:
    r = APIClient().get("/api/")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/json")
    body = r.json()
    links = body["links"]
    assert links["tournaments"] == "http://testserver/api/tournaments/"
    assert links["token"] == "http://testserver/api/token/"
    assert {"matches", "players", "clubs", "schema", "docs"} <= set(links)
    for name, url in links.items():
        if name != "token":  # POST and DELETE only
            assert APIClient().get(url).status_code == 200, url
    assert "Authorization: Token" in body["authentication"]


def test_password_gives_a_token_that_works_and_the_same_one_again() -> None:
    user = UserFactory.create(username="anna")  # password "pw"
    api = APIClient()
    r = api.post("/api/token/", {"username": "anna", "password": "pw"})
    assert r.status_code == 201, r.json()
    assert r.json()["created"] is True and r.json()["username"] == "anna"
    key = r.json()["token"]
    assert Token.objects.get(user=user).key == key
    assert "no-store" in r["Cache-Control"]
    again = api.post("/api/token/", {"username": "anna", "password": "pw"}, format="json")
    assert again.status_code == 200 and again.json() == {**r.json(), "created": False}
    # The token signs the script in: a write that needs a user gets past 401.
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/clubs/", {"name": "Vasa BK"}).status_code == 403  # a user, not staff


def test_wrong_password_and_unknown_user_get_the_same_answer() -> None:
    UserFactory.create(username="anna")
    UserFactory.create(username="sleeper", is_active=False)
    api = APIClient()
    answers = [
        api.post("/api/token/", {"username": name, "password": password})
        for name, password in (("anna", "wrong"), ("nobody", "pw"), ("sleeper", "pw"))
    ]
    assert {a.status_code for a in answers} == {400}
    assert len({str(a.json()) for a in answers}) == 1
    assert answers[0].json()["error"]["code"] == "invalid_credentials"
    assert Token.objects.count() == 0


def test_half_credentials_and_nothing_are_told_what_to_send() -> None:
    api = APIClient()
    r = api.post("/api/token/", {"username": "anna"})
    assert r.status_code == 400 and "password" in r.json()["error"]["message"]
    r = api.post("/api/token/")
    assert r.status_code == 400 and "sign in" in r.json()["error"]["message"]


def test_password_attempts_are_limited() -> None:
    """The sign-in limit (tests/accounts/test_signin_limit.py has the rest)."""
    UserFactory.create(username="anna")
    api = APIClient()
    codes = [
        api.post("/api/token/", {"username": "anna", "password": f"guess{i}"}).status_code
        for i in range(11)
    ]
    assert codes == [400] * 10 + [429]
    r = api.post("/api/token/", {"username": "anna", "password": "pw"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert "Retry-After" in r


def test_a_signed_in_session_gets_its_token_with_csrf_only() -> None:
    user = UserFactory.create()
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(user)
    assert api.post("/api/token/").status_code == 403  # no CSRF token
    assert Token.objects.count() == 0
    csrf_value = _get_new_csrf_string()  # what a page's CSRF cookie holds
    api.cookies["csrftoken"] = csrf_value
    r = api.post("/api/token/", HTTP_X_CSRFTOKEN=csrf_value)
    assert r.status_code == 201 and r.json()["token"] == Token.objects.get(user=user).key


def test_delete_revokes_the_token_and_it_stops_working() -> None:
    user = UserFactory.create()
    api = client_for(user)
    key = Token.objects.get(user=user).key
    assert api.delete("/api/token/").status_code == 204
    assert not Token.objects.filter(key=key).exists()
    r = api.get("/api/tournaments/")
    assert r.status_code == 401  # a revoked token is refused, even for reading
    assert APIClient().delete("/api/token/").status_code == 401


def test_delete_without_a_token_is_fine_when_signed_in() -> None:
    api = APIClient()
    api.force_login(UserFactory.create())
    assert api.delete("/api/token/").status_code == 204
