"""A round robin in groups feeding a knockout in the browser: the
organiser chooses two groups with the winner and the runner-up of each going on, enters
eight players, draws; after every group match the manage page offers the knockout, the
organiser draws it, and the public page shows both group tables and the knockout bracket
A1–B2, B1–A2, at phone width (360 px, no sideways scroll) and at desktop width.
Screenshots in test-output/screenshots/groups-*.png.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.group_standings import group_tables
from matches.models import Match, MatchState
from tests.e2e.conftest import create_on_the_form, decide_for_player1, login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anna Berg",
    "Erik Holm",
    "Sara Lind",
    "Åsa Ek",
    "Bo Ström",
    "Karin Öberg",
    "Lars Ny",
    "Maja Al",
]


def test_groups_then_knockout_at_phone_and_desktop_width(live_server: Any, new_page: Any) -> None:
    OrganiserFactory.create(username="arrangor")
    referee = UserFactory.create(username="domare")
    page = new_page(1280, 900)
    login(page, live_server.url, "arrangor")
    t = create_on_the_form(
        page,
        live_server.url,
        "Höstgrupper",
        "round_robin",
        fill={"groups": "2", "group_advance": "2"},
    )
    assert (t.groups, t.group_advance) == (2, 2)
    t.referees.add(referee)
    for i, name in enumerate(NAMES):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=name), seed=i + 1)

    page.reload()
    lengths = page.locator("#id_lengths")
    assert len(re.findall(r"\d+", lengths.input_value())) == 3  # two groups of four
    page.locator("#draw form button[type=submit]").click()
    expect(page.locator("#drawn")).to_be_visible()
    expect(page.locator("#group-knockout")).to_be_visible()
    expect(page.locator("#group-knockout form")).to_have_count(0)  # groups still open

    for match in Match.objects.filter(tournament=t, state=MatchState.READY):
        decide_for_player1(match, referee)
    page.reload()
    page.fill("#id_lengths", "3, 3")
    page.locator("#group-knockout form button[type=submit]").click()
    expect(page.locator("#group-knockout form")).to_have_count(0)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    a, b = ([line.player.name for line in table.lines] for table in group_tables(tournament=t))

    for width, name in ((360, "phone"), (1280, "desktop")):
        view = new_page(width, 800)
        view.goto(f"{live_server.url}/tournaments/{t.pk}/")
        expect(view.locator("table.standings")).to_have_count(2)
        expect(view.locator("table.cross")).to_have_count(2)
        knockout = view.locator("section[aria-labelledby=knockout-h]")
        expect(knockout.locator("section.round")).to_have_count(2)
        semis = knockout.locator("section.round").first.locator("li.match")
        expect(semis).to_have_count(2)
        pairs = {frozenset(semis.nth(i).locator(".name").all_inner_texts()) for i in range(2)}
        assert pairs == {frozenset((a[0], b[1])), frozenset((b[0], a[1]))}
        wide = view.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"the page scrolls sideways by {wide}px at {width}px"
        shoot(view, f"groups-{name}")
