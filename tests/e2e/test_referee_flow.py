"""A referee on a phone enters results until a match is decided early (S4), and the
winner appears in the next round of the bracket."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import MatchState
from tests.e2e.conftest import login, shoot
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_referee_enters_results_until_decided_early(live_server: Any, new_page: Any) -> None:
    setup = drawn(4, lengths=[3, 5])
    setup.referee.username = "domare"
    setup.referee.set_password("pw")
    setup.referee.save()
    match = match_of(setup.tournament, 1, 0)
    winner = match.player1
    assert winner is not None

    page = new_page(390, 844)  # a phone
    login(page, live_server.url, "domare")
    page.goto(f"{live_server.url}/matches/{match.pk}/enter/")
    shoot(page, "referee-entry-phone")
    # Game 1: two taps (winner, outcome).
    page.get_by_text(winner.name, exact=True).first.click()
    page.get_by_role("button", name="jan", exact=True).click()
    page.wait_for_selector(".messages")
    # Game 2: W wins again; 3–0 with one game left in a best of 3 is decided (S4).
    page.get_by_text(winner.name, exact=True).first.click()
    page.get_by_role("button", name="hemspel", exact=True).click()
    page.wait_for_selector(".verdict.decided")
    shoot(page, "referee-match-decided")
    verdict = page.locator(".verdict.decided").inner_text()
    assert winner.name in verdict
    match.refresh_from_db()
    assert match.state == MatchState.DECIDED and match.decided_early
    assert match.decided_after_game == 2

    # The winner is in the next round on the public bracket.
    page.locator(".verdict.decided a").click()
    page.wait_for_url(lambda url: "/matches/" in url)
    final = match_of(setup.tournament, 2, 0)
    assert page.url.endswith(f"/matches/{final.pk}/")
    viewer = new_page()
    viewer.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    rounds = viewer.locator(".bracket .round")
    assert winner.name in rounds.nth(1).inner_text()
    assert "3–0" in rounds.nth(0).inner_text()
    shoot(viewer, "bracket-after-decision")
