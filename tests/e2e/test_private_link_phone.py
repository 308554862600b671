"""A player without an account reports through their private link on a 360 px phone, in
Swedish, and the opponent confirms through theirs: no sign-in anywhere, nothing scrolls
sideways, the game counts once confirmed. Screenshots: ``private-link-360-*.png``."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from matches.models import Game, GameReport, ReportState
from tests.e2e.conftest import shoot
from tests.e2e.test_phone_layout import WIDTH
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.private_links import private_link_issue, private_link_token

pytestmark = pytest.mark.django_db(transaction=True)


def _phone(new_page: Any, base: str) -> Any:
    page = new_page(360, 740)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])
    return page


def _fits(page: Any, what: str) -> None:
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= width["view"], (what, width)


def test_a_player_reports_through_the_link_and_the_opponent_confirms_through_theirs(
    live_server: Any, new_page: Any
) -> None:
    s = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    one.name, two.name = "Anna-Karin Östergren-Wahlström", "Bertil Lindqvist-Åkerberg"
    one.save()
    two.save()
    assert one.user is None and two.user is None
    anna_link = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    bertil_link = private_link_issue(tournament=s.tournament, player=two, by=s.organiser)
    base = live_server.url

    anna = _phone(new_page, base)
    anna.goto(f"{base}/p/{private_link_token(anna_link)}/")
    assert "mot Bertil Lindqvist-Åkerberg" in anna.inner_text("main")
    _fits(anna, "private home")
    shoot(anna, "private-link-360-home")
    anna.get_by_role("link", name="Rapportera ett parti").click()
    anna.wait_for_url("**/report/")
    _fits(anna, "private report")
    anna.locator("label.tap", has=anna.locator('input[name="winner"][value="W"]')).click()
    anna.get_by_role("button", name="jan", exact=True).click()
    anna.wait_for_selector(".messages")
    assert "Rapporterat" in anna.inner_text(".messages")
    shoot(anna, "private-link-360-reported")
    report = GameReport.objects.get(match=match)
    assert report.state == ReportState.PENDING and report.reported_by_id is None

    bertil = _phone(new_page, base)
    bertil.goto(f"{base}/p/{private_link_token(bertil_link)}/")
    waiting = bertil.locator(f"#answer-{report.pk}")
    assert "Parti 1: Anna-Karin Östergren-Wahlström vinner med jan." in waiting.inner_text()
    _fits(bertil, "private confirm")
    shoot(bertil, "private-link-360-confirm")
    waiting.get_by_role("button", name="Bekräfta").click()
    bertil.wait_for_selector(".messages")
    assert "Bekräftat" in bertil.inner_text(".messages")
    report.refresh_from_db()
    assert report.state == ReportState.CONFIRMED
    assert Game.objects.filter(match=match, number=1).exists()
    assert "/accounts/login/" not in bertil.url
