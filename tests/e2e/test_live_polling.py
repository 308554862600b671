"""What a browser really does with the live bracket's validators:
htmx polls with XMLHttpRequest, and Chromium's cache adds ``If-None-Match`` to the poll
by itself and gets ``304 Not Modified`` while nothing changed; after a change the poll
gets the new bracket, which the page shows."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.services import game_result_enter
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from web import live
from web.views import public

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_browser_revalidates_the_polled_bracket_and_gets_304(
    live_server: Any, new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(public, "LIVE_EVERY", 1)  # poll every second instead of every 10
    polls: list[tuple[str, str, bool]] = []
    judge = live._not_modified

    def spy(request: Any, tag: str, modified: Any) -> bool:
        answer = judge(request, tag, modified)
        polls.append((request.path, request.headers.get("If-None-Match", ""), answer))
        return answer

    monkeypatch.setattr(live, "_not_modified", spy)
    setup = drawn(4, lengths=[3, 3])
    bracket = f"/tournaments/{setup.tournament.pk}/bracket/"
    page = new_page()
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    page.wait_for_timeout(3500)
    answered = [p for p in polls if p[0] == bracket]
    assert len(answered) >= 2, polls
    # The first poll has nothing to revalidate; the later ones send the ETag and get 304.
    assert any(inm and not_modified for _path, inm, not_modified in answered[1:]), answered
    game_result_enter(
        match=match_of(setup.tournament, 1, 0),
        number=1,
        result=won("W", "jan"),
        by=setup.referee,
    )
    expect(page.locator(".bracket .round").nth(0)).to_contain_text("2–0", timeout=10_000)
