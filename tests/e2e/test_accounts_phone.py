"""Accounts on a phone (360 px), in Swedish: signing up from the header, resetting a
forgotten password with the mail read from the outbox, and a referee invited by an
organiser who accepts and then enters results. Nothing scrolls sideways."""

from __future__ import annotations

import re
import shutil
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model

from core.permissions import is_referee
from tests.e2e.conftest import login, shoot
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (360, 740)
PASSWORD = "Kungsbräde-1956"
LINK = re.compile(r"(\S+/accounts/reset/[^/\s]+/[^/\s]+/)")


def _wide(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_signing_up_on_a_phone(live_server: Any, new_page: Any) -> None:
    page = new_page(*PHONE)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Skapa konto").first.click()
    page.wait_for_url("**/accounts/signup/")
    assert page.locator("h1").inner_text() == "Skapa konto"
    assert _wide(page) <= PHONE[0]
    shutil.copy(shoot(page, "accounts-signup-phone"), "/tmp/accounts-signup.png")
    page.fill("#id_username", "vera")
    page.fill("#id_email", "vera@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.signup button.primary")
    page.wait_for_url("**/account/invitations/")
    assert "Välkommen, vera" in page.inner_text(".messages")
    assert "vera" in page.inner_text("p.claim-help")
    assert page.locator("header a.who").inner_text() == "vera"  # signed in
    assert _wide(page) <= PHONE[0]
    user = get_user_model().objects.get(username="vera")
    assert user.email == "vera@example.org"


def test_a_forgotten_password_reset_by_mail_on_a_phone(
    live_server: Any, new_page: Any, mailoutbox: Any, settings: Any
) -> None:
    settings.SITE_URL = live_server.url  # the mail's links open on this server
    UserFactory.create(username="anna", email="anna@example.org")
    page = new_page(*PHONE)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Glömt lösenordet?").click()
    page.wait_for_url("**/accounts/password_reset/")
    assert _wide(page) <= PHONE[0]
    page.fill("#id_email", "anna@example.org")
    page.click("main button.primary")
    page.wait_for_url("**/accounts/password_reset/done/")
    assert page.locator("h1").inner_text() == "Titta i din e-post"
    [mail] = mailoutbox
    link = LINK.search(mail.body)
    assert link is not None and link.group(1).startswith(live_server.url)
    page.goto(link.group(1))
    page.wait_for_selector("#id_new_password1")
    assert _wide(page) <= PHONE[0]
    page.fill("#id_new_password1", "Ny-brade-1956")
    page.fill("#id_new_password2", "Ny-brade-1956")
    page.click("main button.primary")
    page.wait_for_url("**/accounts/reset/done/")
    assert page.locator("h1").inner_text() == "Ditt lösenord är bytt"
    login(page, live_server.url, "anna", "Ny-brade-1956")
    assert page.locator("header a.who").inner_text() == "anna"
    assert authenticate(username="anna", password="pw") is None


def test_a_referee_invited_by_the_organiser_accepts_and_enters_results(
    live_server: Any, new_page: Any
) -> None:
    setup = drawn(4, lengths=[3, 5])
    organiser = setup.organiser
    vera = UserFactory.create(username="vera")
    match = match_of(setup.tournament, 1, 0)

    boss = new_page(*PHONE)
    login(boss, live_server.url, organiser.username)
    boss.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/manage/#staff-invite")
    boss.fill("#id_who", "vera")
    boss.check("input[name=role][value=referee]")
    boss.click("form.staff-invite button.primary")
    boss.wait_for_selector(".messages")
    assert "vera är inbjuden" in boss.inner_text(".messages")
    assert _wide(boss) <= PHONE[0]
    assert not is_referee(vera, setup.tournament)

    page = new_page(*PHONE)
    login(page, live_server.url, "vera")
    page.get_by_role("link", name="Inbjudningar").click()
    page.wait_for_url("**/account/invitations/")
    row = page.locator("table.staff-invitations tbody tr")
    assert setup.tournament.name in row.inner_text()
    assert _wide(page) <= PHONE[0]
    shoot(page, "staff-invitation-phone")
    row.get_by_role("button", name="Acceptera").click()
    page.wait_for_url("**/home/")
    assert f"Du är nu domare i {setup.tournament.name}." in page.inner_text(".messages")
    assert is_referee(vera, setup.tournament)
    # The referee's pages: the matches waiting for a result, and entering one.
    page.locator(f"#referee a[href='/matches/{match.pk}/enter/']").click()
    page.wait_for_url(f"**/matches/{match.pk}/enter/")
    assert match.player1 is not None
    page.get_by_text(match.player1.name, exact=True).first.click()
    page.get_by_role("button", name="jan", exact=True).click()
    page.wait_for_selector(".messages")
    assert match.games.filter(voided_at__isnull=True).count() == 1
