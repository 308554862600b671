"""A small double elimination in the browser: an organiser chooses the format on
the new-tournament page (the final replayed if needed), enters four players and draws;
a referee enters the two first-round results on the entry page, and the public page shows
the losers' bracket filled with the two losers, under the winners' bracket, with the final
and its replay, at phone width (360 px: the brackets scroll inside their own box, the page
does not scroll sideways) and at desktop width. The match page says where the loser goes.
Screenshots in test-output/screenshots/double-elimination-*.png.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchState
from tests.e2e.conftest import login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tournaments.models import RoundKind, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna Berg", "Erik Holm", "Sara Lind", "Åsa Ek"]


def test_double_elimination_fills_its_losers_bracket(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="arrangor")
    page = new_page(1280, 900)
    login(page, live_server.url, "arrangor")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.fill("#id_name", "Dubbelkvällen")
    page.fill("#id_start_date", "2027-03-06")
    page.check("input[name=format][value=double_elimination]")
    expect(page.locator("#id_grand_final_reset")).to_be_checked()
    page.check("input[name=resignation_policy][value=capped]")
    page.locator("main form.form button[type=submit].primary").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/manage/"))
    t = Tournament.objects.get(name="Dubbelkvällen")
    assert t.format == "double_elimination" and t.grand_final_reset
    t.referees.add(organiser)
    for seed, name in enumerate(NAMES, start=1):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=name), seed=seed)

    # The draw: 2 winners' rounds, 2 losers' rounds, the final and its replay.
    page.reload()
    assert page.locator("#id_lengths").input_value() == "5, 7, 3, 3, 7, 7"
    page.fill("#id_lengths", "1, 1, 1, 1, 1, 1")
    page.fill("#id_draw_seed", "2027")
    page.locator("#draw form button[type=submit]").click()
    expect(page.locator("#drawn")).to_be_visible()
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING

    # Round 1 at the board: seeds 1 and 2 win; their opponents drop to the losers' bracket.
    first = list(
        Match.objects.filter(tournament=t, round__number=1, state=MatchState.READY).order_by("slot")
    )
    assert [m.code for m in first] == ["W1.1", "W1.2"]
    losers = []
    for match in first:
        assert match.player1 is not None and match.player2 is not None
        page.goto(f"{live_server.url}/matches/{match.pk}/enter/")
        page.get_by_text(match.player1.name, exact=True).first.click()
        page.get_by_role("button", name="hemspel", exact=True).click()
        page.wait_for_selector(".verdict.decided")
        losers.append(match.player2.name)
    l11 = Match.objects.get(tournament=t, code="L1.1")
    assert l11.round.kind == RoundKind.LOSERS and l11.state == MatchState.READY

    for width, name in ((360, "phone"), (1280, "desktop")):
        view = new_page(width, 800)
        view.goto(f"{live_server.url}/tournaments/{t.pk}/")
        expect(view.locator("#bracket-losers")).to_be_visible()
        losers_bracket = view.locator(".bracket-losers")
        for loser in losers:
            expect(
                losers_bracket.locator(f'.line[data-player] .name[title="{loser}"]')
            ).to_have_count(1)
        expect(view.locator(".bracket-final section.round")).to_have_count(2)
        wide = view.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"the page scrolls sideways by {wide}px at {width}px"
        view.locator("#bracket-losers").scroll_into_view_if_needed()
        shoot(view, f"double-elimination-{name}")

    # The match page says where the loser of W1.1 went, with a link to that match.
    view = new_page(1280, 800)
    view.goto(f"{live_server.url}/matches/{first[0].pk}/")
    links = view.locator("ul.match-links a")
    expect(links).to_have_count(2)
    assert links.nth(1).get_attribute("href") == f"/matches/{l11.pk}/"
