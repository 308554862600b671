"""The tournament page's bracket updates itself while matches are played (htmx polling),
without the spectator reloading the page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.services import game_result_enter
from tests.e2e.conftest import shoot
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from web.views import public

pytestmark = pytest.mark.django_db(transaction=True)


def test_bracket_shows_a_new_result_without_a_reload(
    live_server: Any, new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(public, "LIVE_EVERY", 1)  # poll every second instead of every 10
    setup = drawn(4, lengths=[3, 3])
    match = match_of(setup.tournament, 1, 0)
    assert match.player1 is not None
    page = new_page()
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    page.evaluate("window.__marker = 1")
    first_round = page.locator(".bracket .round").nth(0)
    expect(first_round).not_to_contain_text("2–0")
    # A referee enters a jan elsewhere; the spectator's page picks it up by itself.
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    expect(page.locator(".bracket .round").nth(0)).to_contain_text("2–0", timeout=10_000)
    expect(page.locator(".bracket .state-playing")).to_have_count(1)
    assert page.evaluate("window.__marker") == 1  # no reload happened
    shoot(page, "bracket-live-update")
