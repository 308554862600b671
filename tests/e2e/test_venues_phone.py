"""A championship at two venues on a phone, in Swedish: the organiser's venues page and a
venue's big screen fit 360 px, and the page says its words in Swedish. Screenshots go to
test-output/screenshots/ (``phone-venues.png``, ``phone-venue-screen.png``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import PHONE, WIDTH
from tests.tournaments.test_venues import split
from tournaments.venues import venue_referee_set

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_venues_page_and_a_venues_screen_fit_a_phone(browser: Any, live_server: Any) -> None:
    s = split(
        8,
        [("Stockholms Brädsällskaps lokal på Södermalm", None), ("Göteborgs Brädklubb", 2)],
        format="round_robin",
    )
    s.organiser.set_password("pw")
    s.organiser.save()
    venue_referee_set(tournament=s.tournament, user=s.referee, venue=s.venues[1], by=s.organiser)
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, locale="sv-SE")
    context.add_cookies([{"name": "django_language", "value": "sv", "url": live_server.url}])
    page = context.new_page()
    login(page, live_server.url, s.organiser.username)
    page.goto(f"{live_server.url}/tournaments/{s.tournament.pk}/venues/")
    assert page.locator("h1").inner_text() == "Spelplatser"
    shoot(page, "phone-venues")
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= PHONE[0], width["out"]
    page.goto(f"{live_server.url}/tournaments/{s.tournament.pk}/screen/?venue={s.venues[1].pk}")
    assert "Göteborgs Brädklubb" in page.locator("header").inner_text()
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= PHONE[0], width["out"]
    shoot(page, "phone-venue-screen")
    context.close()
