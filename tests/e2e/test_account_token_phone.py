"""The API token page on a phone: create (key shown once) and revoke, nothing scrolls
sideways at 360 px (the key wraps; the curl examples scroll inside their own box)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.e2e.conftest import login, shoot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _wide(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_token_page_on_a_phone(live_server: Any, new_page: Any) -> None:
    user = UserFactory.create(username="Anna-Karin_Lindqvist-Östergren")
    page = new_page(360, 740)
    login(page, live_server.url, user.username)
    page.click("header a.who")  # the user name in the header leads to the page
    page.wait_for_url("**/account/token/")
    assert _wide(page) <= 360
    page.click("button.primary")  # Skapa en nyckel
    key = page.inner_text("#new-key")
    assert key == Token.objects.get(user=user).key
    assert _wide(page) <= 360
    shoot(page, "account-token-phone")
    page.goto(f"{live_server.url}/account/token/")
    assert key not in page.content() and key[:8] in page.content()
    page.click("button.secondary")  # Återkalla nyckeln
    page.wait_for_selector("button.primary")
    assert not Token.objects.filter(user=user).exists()
