"""A round robin group in the browser: an organiser chooses the format on the
new-tournament page, enters five players and draws every round at once; after a few
results the public page shows the table, why each player is above the next, the cross
table and the rounds, at phone width (360 px, no sideways scroll of the page: the cross
table scrolls inside its own box) and at desktop width. Screenshots in
test-output/screenshots/round-robin-*.png.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchState
from matches.services import match_walkover
from tests.e2e.conftest import create_on_the_form, decide_for_player1, login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna Berg", "Erik Holm", "Sara Lind", "Åsa Ek", "Maximiliana Östergren-Lindqvist"]


def test_round_robin_group_at_phone_and_desktop_width(live_server: Any, new_page: Any) -> None:
    OrganiserFactory.create(username="arrangor")
    referee = UserFactory.create(username="domare")
    page = new_page(1280, 900)
    login(page, live_server.url, "arrangor")
    t = create_on_the_form(
        page,
        live_server.url,
        "Onsdagsgruppen",
        "round_robin",
        select={"tiebreak_1": "game_points", "tiebreak_2": "direct_encounter"},
    )
    assert t.format == "round_robin" and t.tiebreaks == ["game_points", "direct_encounter"]
    t.referees.add(referee)
    for name in NAMES:
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=name))

    # The draw: five players make five rounds, all filled in.
    page.reload()
    lengths = page.locator("#id_lengths")
    assert len(re.findall(r"\d+", lengths.input_value())) == 5
    page.fill("#id_draw_seed", "2027")
    page.locator("#draw form button[type=submit]").click()
    expect(page.locator("#drawn")).to_be_visible()
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING

    # Round 1 is played: one match decided at the board, one by walkover.
    first = list(Match.objects.filter(tournament=t, round__number=1, state=MatchState.READY))
    decide_for_player1(first[0], referee)
    assert first[1].player2 is not None
    match_walkover(match=first[1], winner=first[1].player2, by=referee)

    for width, name in ((360, "phone"), (1280, "desktop")):
        view = new_page(width, 800)
        view.goto(f"{live_server.url}/tournaments/{t.pk}/")
        table = view.locator("table.standings tbody tr")
        expect(table).to_have_count(5)
        expect(view.locator("ol.reasons li")).to_have_count(4)
        expect(view.locator("table.cross tbody tr")).to_have_count(5)
        expect(view.locator(".rr-rounds section.round")).to_have_count(5)
        expect(view.locator(".rr-rounds li.state-bye")).to_have_count(5)
        # The two winners of round 1 lead, each with a won match.
        leaders = table.locator("td.primary a").all_inner_texts()[:2]
        assert first[0].player1 is not None
        assert sorted(leaders) == sorted([first[0].player1.name, first[1].player2.name])
        wide = view.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"the page scrolls sideways by {wide}px at {width}px"
        shoot(view, f"round-robin-{name}")
