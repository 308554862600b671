"""Signing up on the site (``/accounts/signup/``): Django's user-creation form with an
e-mail address, behind the sign-in limit per address, telling nothing about which
accounts exist beyond a taken user name's "choose another"; the new account is signed in
and shown how to claim its player."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client

from accounts.models import SignInFailure
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ADDRESS_LIMIT = 30
PASSWORD = "Kungsbräde-1956"


def form(username: str, email: str, password: str = PASSWORD, **more: str) -> dict[str, str]:
    return {
        "username": username,
        "email": email,
        "password1": password,
        "password2": password,
        **more,
    }


def sign_up(client: Client, data: dict[str, str], **extra: Any) -> Any:
    return client.post("/accounts/signup/", data, **extra)


def test_the_page_asks_for_name_address_and_the_password_twice_in_swedish() -> None:
    page = Client().get("/accounts/signup/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<h1>Skapa konto</h1>" in text
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in text
    assert "Lösenordet igen" in text and "E-postadress" in text


def test_a_new_account_is_signed_in_and_shown_how_to_claim_its_player() -> None:
    client = Client()
    response = sign_up(client, form("vera", "vera@example.org"), follow=True)
    user = get_user_model().objects.get(username="vera")
    assert user.email == "vera@example.org" and user.check_password(PASSWORD)
    assert not user.is_staff and not user.user_permissions.exists()
    assert client.session[SESSION_KEY] == str(user.pk)
    assert response.redirect_chain[-1][0] == "/account/invitations/"
    page = response.content.decode()
    assert "Välkommen, vera" in page
    # The existing invitation flow: the organiser invites the account by its user name.
    assert "ge klubbens arrangör ditt användarnamn, <strong>vera</strong>" in page


def test_the_answer_is_the_same_whether_the_address_has_an_account_or_not() -> None:
    UserFactory.create(username="anna", email="anna@example.org")
    known = sign_up(Client(), form("anna2", "anna@example.org"))
    unknown = sign_up(Client(), form("bertil", "bertil@example.org"))
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/account/invitations/"
    assert get_user_model().objects.filter(email="anna@example.org").count() == 2


def test_a_taken_user_name_says_choose_another_and_not_that_it_exists() -> None:
    UserFactory.create(username="anna")
    for typed in ("anna", "ANNA"):
        response = sign_up(Client(), form(typed, "someone@example.org"))
        assert response.status_code == 200
        text = response.content.decode()
        assert "Det användarnamnet går inte att använda; välj ett annat." in text
        assert "finns redan" not in text and "already exists" not in text
    assert get_user_model().objects.filter(username__iexact="anna").count() == 1


def test_a_weak_password_is_refused_by_djangos_validators() -> None:
    response = sign_up(Client(), form("vera", "vera@example.org", password="12345678"))
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="vera").exists()


def test_a_flood_of_sign_ups_from_one_address_is_refused_like_failed_sign_ins() -> None:
    codes = [
        sign_up(Client(), form(f"user{i}", f"u{i}@example.org")).status_code
        for i in range(ADDRESS_LIMIT + 1)
    ]
    assert codes[:ADDRESS_LIMIT] == [302] * ADDRESS_LIMIT
    refused = sign_up(Client(), form("late", "late@example.org"))
    assert codes[ADDRESS_LIMIT] == 429 and refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "För många misslyckade inloggningar" in refused.content.decode()
    assert (
        get_user_model().objects.filter(username__in=["late", f"user{ADDRESS_LIMIT}"]).count() == 0
    )
    # Another address is not held up.
    other = sign_up(Client(), form("elsewhere", "e@example.org"), REMOTE_ADDR="10.1.2.3")
    assert other.status_code == 302


def test_sign_ups_and_failed_sign_ins_share_the_address_count() -> None:
    client = Client()
    for i in range(ADDRESS_LIMIT - 1):
        client.post("/accounts/login/", {"username": f"nobody{i}", "password": "x"})
    assert sign_up(Client(), form("last", "last@example.org")).status_code == 302
    assert sign_up(Client(), form("over", "over@example.org")).status_code == 429
    assert SignInFailure.objects.filter(username="signup:").count() == 1


def test_next_is_followed_on_this_site_only() -> None:
    here = sign_up(Client(), form("vera", "v@example.org", next="/home/"))
    assert here["Location"] == "/home/"
    away = sign_up(Client(), form("olle", "o@example.org", next="https://evil.example/"))
    assert away["Location"] == "/account/invitations/"


def test_the_sign_in_page_and_the_header_link_to_sign_up_and_reset() -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/"' in page and "Skapa konto" in page
    assert 'href="/accounts/password_reset/"' in page and "Glömt lösenordet?" in page
    home = Client().get("/").content.decode()
    assert 'href="/accounts/signup/">Skapa konto</a>' in home
