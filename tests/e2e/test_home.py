"""The home ("Mitt") in Chromium at phone and desktop size, in Swedish: Anna reports game
1 from her home, Bertil finds it waiting on his home and confirms it there with one tap;
the referee's home lists the match waiting for a result, the organiser's the round's
progress. Nothing scrolls sideways; the
screenshots (``home-<size>-*.png``) go to test-output/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from matches.models import Game, GameReport, ReportState
from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import WIDTH
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def _page(new_page: Any, base: str, size: str, username: str) -> Any:
    page = new_page(*SIZES[size])
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])
    login(page, base, username)
    return page


def _fits(page: Any, what: str) -> None:
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= width["view"], (what, width)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_player_confirms_a_report_from_the_home(
    live_server: Any, new_page: Any, size: str
) -> None:
    setup = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(setup.tournament, 1, 0)
    one, two = players_of(match)
    one.name, two.name = "Anna-Karin Östergren-Wahlström", "Bertil Lindqvist-Åkerberg"
    one.user = UserFactory.create(username="anna")
    two.user = UserFactory.create(username="bertil")
    one.save()
    two.save()
    setup.referee.username = "domare"
    setup.referee.save()
    setup.organiser.username = "arrangor"
    setup.organiser.save()
    base = live_server.url

    # Anna opens her page from the header and reports game 1 from there.
    anna = _page(new_page, base, size, "anna")
    anna.get_by_role("link", name="Mitt", exact=True).click()
    anna.wait_for_url("**/home/")
    assert "mot Bertil Lindqvist-Åkerberg" in anna.inner_text("#player")
    _fits(anna, "home, player")
    shoot(anna, f"home-{size}-player")
    anna.get_by_role("link", name="Rapportera ett parti").click()
    anna.wait_for_url("**/report/")
    anna.locator("label.tap", has=anna.locator('input[name="winner"][value="W"]')).click()
    anna.get_by_role("button", name="jan", exact=True).click()
    anna.wait_for_selector(".messages")
    report = GameReport.objects.get(match=match)
    assert report.state == ReportState.PENDING

    # Bertil sees it waiting on his page and confirms it there.
    bertil = _page(new_page, base, size, "bertil")
    bertil.goto(f"{base}/home/")
    waiting = bertil.locator(f"#confirm-{report.pk}")
    assert "Parti 1: Anna-Karin Östergren-Wahlström vinner med jan." in waiting.inner_text()
    assert "Väntar på din bekräftelse" in bertil.inner_text("#player")
    _fits(bertil, "home, report waiting")
    shoot(bertil, f"home-{size}-confirm")
    waiting.get_by_role("button", name="Bekräfta").click()
    bertil.wait_for_selector(".messages")
    assert "Bekräftat" in bertil.inner_text(".messages")
    report.refresh_from_db()
    assert report.state == ReportState.CONFIRMED
    assert Game.objects.filter(match=match, number=1).exists()
    bertil.goto(f"{base}/home/")
    assert bertil.locator(f"#confirm-{report.pk}").count() == 0

    # The referee's page lists the semifinals waiting for a result, one tap from entry.
    referee = _page(new_page, base, size, "domare")
    referee.goto(f"{base}/home/")
    assert "Väntar på resultat" in referee.inner_text("#referee")
    _fits(referee, "home, referee")
    shoot(referee, f"home-{size}-referee")
    referee.locator("#referee").get_by_role("link", name="Anna-Karin", exact=False).first.click()
    referee.wait_for_url(f"**/matches/{match.pk}/enter/")

    # The organiser's page: the round's progress, one tap from the manage page.
    organiser = _page(new_page, base, size, "arrangor")
    organiser.goto(f"{base}/home/")
    assert "Semifinal: 0 av 2 avgjorda, 2 kvar att spela" in organiser.inner_text("#organiser")
    _fits(organiser, "home, organiser")
    shoot(organiser, f"home-{size}-organiser")
