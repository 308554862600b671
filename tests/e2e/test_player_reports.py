"""Players report their own results, in Chromium at phone and desktop
size, in Swedish: Anna reports game 1 with its tek, Bertil confirms it on his match page;
Bertil reports game 2, Anna disputes it; the organiser sees the dispute, the referee
decides it on the entry page and the match is decided. Nothing scrolls sideways; the
screenshots (``reports-<size>-*.png``) go to test-output/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from matches.models import Game, GameReport, MatchState, ReportState
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


def _tap(page: Any, name: str, value: str) -> None:
    """Tap the big label of a radio button (winner or tek), as a thumb would."""
    page.locator("label.tap", has=page.locator(f'input[name="{name}"][value="{value}"]')).click()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_report_confirm_dispute_and_decide(live_server: Any, new_page: Any, size: str) -> None:
    setup = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(setup.tournament, 1, 0)
    one, two = players_of(match)
    one.name, two.name = "Anna-Karin Östergren-Wahlström", "Bertil Lindqvist-Åkerberg"
    one.user = UserFactory.create(username="anna")
    two.user = UserFactory.create(username="bertil")
    one.save()
    two.save()
    for user, name in ((setup.referee, "domare"), (setup.organiser, "arrangor")):
        user.username = name
        user.save()
    base = live_server.url
    url = f"{base}/matches/{match.pk}/"

    # Anna reports game 1: Bertil started (tek), Anna won by jan.
    anna = _page(new_page, base, size, "anna")
    anna.goto(url)
    anna.get_by_role("link", name="Rapportera parti 1").click()
    anna.wait_for_url("**/report/")
    _fits(anna, "report form")
    shoot(anna, f"reports-{size}-report-form")
    _tap(anna, "winner", "W")
    _tap(anna, "starter", "B")
    anna.get_by_role("button", name="jan", exact=True).click()
    anna.wait_for_selector(".messages")
    assert "Rapporterat" in anna.inner_text(".messages")
    assert "Väntar på att Bertil" in anna.inner_text("#match-live")
    _fits(anna, "match page, reporter")
    shoot(anna, f"reports-{size}-reported")
    assert not Game.objects.filter(match=match).exists()  # nothing counts yet

    # Bertil confirms it on his match page with one tap.
    bertil = _page(new_page, base, size, "bertil")
    bertil.goto(url)
    box = bertil.locator("li.report")
    assert "Parti 1: Anna-Karin Östergren-Wahlström vinner med jan." in box.inner_text()
    _fits(bertil, "match page, opponent")
    shoot(bertil, f"reports-{size}-to-confirm")
    box.get_by_role("button", name="Bekräfta").click()
    bertil.wait_for_selector(".messages")
    assert "Bekräftat" in bertil.inner_text(".messages")
    game = Game.objects.get(match=match, number=1)
    assert (game.winner, game.outcome, game.starter, game.source) == ("W", "jan", "B", "players")
    match.refresh_from_db()
    assert (match.points1, match.points2) == (2, 0)

    # Bertil reports game 2 as his win; Anna disputes it on the report's page.
    bertil.get_by_role("link", name="Rapportera parti 2").click()
    bertil.wait_for_url("**/report/")
    assert bertil.locator('input[name="starter"]').count() == 0  # the tek is game 1's
    _tap(bertil, "winner", "B")
    bertil.get_by_role("button", name="hemspel", exact=True).click()
    bertil.wait_for_selector(".messages")
    anna.goto(url)
    anna.locator("li.report").get_by_role("link", name="Bestrid…").click()
    anna.wait_for_url("**/reports/*/#dispute")
    anna.fill("#id_dispute_note", "Jag vann parti 2 med hemspel.")
    _fits(anna, "report page")
    shoot(anna, f"reports-{size}-dispute")
    anna.locator("#dispute").get_by_role("button", name="Bestrid").click()
    anna.wait_for_selector(".messages")
    assert "Bestritt" in anna.inner_text(".messages")
    report = GameReport.objects.get(match=match, number=2)
    assert report.state == ReportState.DISPUTED
    assert not Game.objects.filter(match=match, number=2).exists()

    # The organiser sees the dispute; the referee decides: Anna won game 2 (hemspel).
    organiser = _page(new_page, base, size, "arrangor")
    organiser.goto(f"{base}/tournaments/{setup.tournament.pk}/manage/")
    reports = organiser.locator("#reports")
    assert "bestridd" in reports.inner_text()
    _fits(organiser, "manage page")
    shoot(organiser, f"reports-{size}-manage")
    referee = _page(new_page, base, size, "domare")
    referee.goto(f"{base}/matches/{match.pk}/enter/")
    assert "Jag vann parti 2 med hemspel." in referee.inner_text("li.report")
    _fits(referee, "entry page")
    shoot(referee, f"reports-{size}-referee")
    _tap(referee, "winner", "W")
    referee.locator("form[aria-labelledby=game-h]").get_by_role(
        "button", name="hemspel", exact=True
    ).click()
    referee.wait_for_selector(".verdict.decided")
    shoot(referee, f"reports-{size}-decided")
    report.refresh_from_db()
    match.refresh_from_db()
    assert report.state == ReportState.OVERRIDDEN
    assert match.state == MatchState.DECIDED and match.winner == one
    anna.goto(url)
    assert anna.locator("li.report").count() == 0
    assert "Anna-Karin Östergren-Wahlström vinner matchen" in anna.inner_text("#match-live")
    _fits(anna, "decided match")
    shoot(anna, f"reports-{size}-match-decided")
