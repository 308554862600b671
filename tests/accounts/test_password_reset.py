"""A forgotten password, reset by e-mail with Django's views: the same answer whether or
not the address has an account, the mail's link on the site's public address
(``SITE_URL``), and the requests behind the sign-in limit (per address, per e-mail)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.test import Client, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ACCOUNT_LIMIT = 10
ADDRESS_LIMIT = 30
PUBLIC = "https://brade.klubben.example"
LINK = re.compile(r"(\S+/accounts/reset/[^/\s]+/[^/\s]+/)")


CSRF = re.compile(r'(value=|"X-CSRFToken": )"[^"]+"')


def page(response: Any) -> str:
    """The page as the reader sees it (each answer has its own CSRF token)."""
    return CSRF.sub("", response.content.decode())


def ask(client: Client, email: str, **extra: Any) -> Any:
    return client.post("/accounts/password_reset/", {"email": email}, **extra)


def test_the_answer_is_the_same_for_a_known_and_an_unknown_address(mailoutbox: Any) -> None:
    UserFactory.create(username="anna", email="anna@example.org")
    known = ask(Client(), "anna@example.org", follow=True)
    unknown = ask(Client(), "nobody@example.org", follow=True)
    assert known.status_code == unknown.status_code == 200
    assert (
        known.redirect_chain == unknown.redirect_chain == [("/accounts/password_reset/done/", 302)]
    )
    assert page(known) == page(unknown)
    assert "Titta i din e-post" in known.content.decode()
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]


@override_settings(SITE_URL=PUBLIC)
def test_the_mails_link_is_on_site_url_and_sets_a_new_password(mailoutbox: Any) -> None:
    UserFactory.create(username="anna", email="anna@example.org")
    client = Client()
    ask(client, "anna@example.org", HTTP_HOST="127.0.0.1")
    [mail] = mailoutbox
    assert mail.subject == "Nytt lösenord för Bräde Arena"
    assert "Ditt användarnamn: anna" in mail.body
    link = LINK.search(mail.body)
    assert link is not None and link.group(1).startswith(f"{PUBLIC}/accounts/reset/")
    path = link.group(1).removeprefix(PUBLIC)
    form = client.get(path, follow=True)
    assert "Välj ett nytt lösenord" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "Ny-brade-1956", "new_password2": "Ny-brade-1956"},
        follow=True,
    )
    assert "Ditt lösenord är bytt" in done.content.decode()
    assert authenticate(username="anna", password="Ny-brade-1956") is not None
    # The link works once.
    again = client.get(path, follow=True).content.decode()
    assert "Länken fungerar inte längre" in again


def test_reset_requests_for_one_address_are_limited(mailoutbox: Any) -> None:
    UserFactory.create(username="anna", email="anna@example.org")
    codes = [
        ask(Client(), "anna@example.org", REMOTE_ADDR=f"10.0.0.{i}").status_code
        for i in range(ACCOUNT_LIMIT + 1)
    ]
    assert codes == [302] * ACCOUNT_LIMIT + [429]
    assert len(mailoutbox) == ACCOUNT_LIMIT
    # Asking for an unknown address is refused alike: nothing tells them apart.
    for i in range(ACCOUNT_LIMIT):
        ask(Client(), "nobody@example.org", REMOTE_ADDR=f"10.0.1.{i}")
    refused = ask(Client(), "nobody@example.org", REMOTE_ADDR="10.0.2.1")
    assert refused.status_code == 429
    assert "För många misslyckade inloggningar" in refused.content.decode()
    # Anna's own sign-in is not locked by the reset requests.
    assert (
        Client().post("/accounts/login/", {"username": "anna", "password": "pw"}).status_code == 302
    )


def test_reset_requests_count_with_failed_sign_ins_per_client_address(mailoutbox: Any) -> None:
    client = Client()
    for i in range(ADDRESS_LIMIT):
        ask(client, f"person{i}@example.org")
    refused = ask(client, "anyone@example.org")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    signin = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert signin.status_code == 429
