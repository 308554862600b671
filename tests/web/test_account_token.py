"""The API token page: a signed-in user creates a token (shown once) and revokes it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGE = "/account/token/"


def test_the_page_is_for_signed_in_users_and_linked_from_the_header(client: Client) -> None:
    response = client.get(PAGE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(reverse("web:account_token_create")).status_code == 302
    assert Token.objects.count() == 0
    client.force_login(UserFactory.create(username="anna"))
    home = client.get("/").content.decode()
    assert f'href="{PAGE}"' in home
    client.cookies["django_language"] = "en"
    page = client.get(PAGE).content.decode()
    assert "You have no token." in page and 'action="/account/token/create/"' in page


def test_create_shows_the_key_once_then_only_its_start(client: Client) -> None:
    user = UserFactory.create()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("web:account_token_create"))
    assert response.status_code == 201
    assert "no-store" in response["Cache-Control"]
    key = Token.objects.get(user=user).key
    page = response.content.decode()
    assert "shown only this once" in page and page.count(key) == 2  # the key and the curl line
    page = client.get(PAGE).content.decode()
    assert key not in page and f"<code>{key[:8]}…</code>" in page
    assert 'action="/account/token/revoke/"' in page
    # Create again: the existing token stands, and is not shown again.
    response = client.post(reverse("web:account_token_create"), follow=True)
    page = response.content.decode()
    assert "You have a token already" in page and key not in page
    assert Token.objects.get(user=user).key == key


def test_revoke_deletes_the_token(client: Client) -> None:
    user = UserFactory.create()
    Token.objects.create(user=user)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("web:account_token_revoke"), follow=True)
    assert "Your API token is revoked" in response.content.decode()
    assert not Token.objects.filter(user=user).exists()


def test_create_and_revoke_are_post_only_with_csrf() -> None:
    user = UserFactory.create()
    Token.objects.create(user=user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get(reverse("web:account_token_revoke")).status_code == 405
    assert client.get(reverse("web:account_token_create")).status_code == 405
    assert client.post(reverse("web:account_token_revoke")).status_code == 403  # no CSRF token
    assert Token.objects.filter(user=user).exists()


def test_the_page_is_swedish_by_default(client: Client) -> None:
    client.force_login(UserFactory.create())
    page = client.get(PAGE).content.decode()
    assert "API-nyckel" in page and "Skapa en nyckel" in page
    assert "You have no token" not in page
