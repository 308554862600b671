"""A player's own page (their private link) at 360 px shows the opponent's report
without a reload: it asks for its matches again every few seconds, as a match page does.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.reports import game_report_submit
from tests.e2e.conftest import shoot
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.private_links import private_link_issue, private_link_token
from web.views.private_links import PRIVATE_HOME_EVERY

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_opponents_report_appears_on_the_open_page(live_server: Any, new_page: Any) -> None:
    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    mine = private_link_issue(tournament=s.tournament, player=two, by=s.organiser)
    theirs = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    page = new_page(360, 800)
    page.goto(f"{live_server.url}/p/{private_link_token(mine)}/")
    section = page.locator(f"#match-{match.pk}")
    expect(section).to_be_visible()
    expect(section.locator(".report")).to_have_count(0)
    game_report_submit(
        match=match, number=1, result=won("W", "jan"), starter="W", by=None, link=theirs
    )
    answer = section.locator(".report form button.primary")  # "Bekräfta"
    expect(answer).to_be_visible(timeout=(PRIVATE_HOME_EVERY + 8) * 1000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "private-page-followed")
