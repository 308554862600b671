"""A small Swiss in the browser: an organiser creates it on the new-tournament
page, enters five players, starts it, checks one out, pairs round 1, swaps two players,
publishes; results are entered (the services, as a referee would); round 2 is paired and
published; the public page shows the pairings with their reasons and the standings, at
phone width (360 px, no sideways scroll) and at desktop width. Screenshots in
test-output/screenshots/swiss-*.png.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchEvent, MatchState
from tests.e2e.conftest import create_on_the_form, decide_for_player1, login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Round, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna Berg", "Erik Holm", "Sara Lind", "Åsa Ek", "Maximiliana Östergren-Lindqvist"]


def _play(t: Tournament, number: int, referee: Any) -> None:
    for m in Match.objects.filter(tournament=t, round__number=number, state=MatchState.READY):
        decide_for_player1(m, referee)


def test_swiss_from_the_organiser_pages(live_server: Any, new_page: Any) -> None:
    OrganiserFactory.create(username="arrangor")
    referee = UserFactory.create(username="domare")
    page = new_page(1280, 900)
    login(page, live_server.url, "arrangor")
    t = create_on_the_form(
        page, live_server.url, "Schweizerkvällen", "swiss", fill={"swiss_rounds": "3"}
    )
    assert (t.format, t.swiss_rounds) == ("swiss", 3)
    t.referees.add(referee)
    for i, name in enumerate(NAMES):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=name, rating=1900 - i))

    # The start: three rounds, lengths filled in.
    page.reload()
    assert len(re.findall(r"\d+", page.locator("#id_lengths").input_value())) == 3
    page.fill("#id_draw_seed", "2027")
    page.locator("#draw form button[type=submit]").click()
    expect(page.locator("#swiss")).to_be_visible()
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and Round.objects.filter(tournament=t).count() == 3

    # Check the last player out, then pair round 1: four players, two tables.
    out = Entry.objects.get(tournament=t, player__name=NAMES[4])
    page.locator(f"form[action$='/entries/{out.pk}/presence/'] button").click()
    expect(page.locator("table.presence tr.withdrawn")).to_have_count(1)
    page.locator("form[action$='/swiss/pair/'] button[type=submit]").click()
    expect(page.locator("#swiss table.pairings tbody tr")).to_have_count(2)

    # Swap the first two players listed; no rematch in round 1, so no confirmation.
    first, second = (
        Entry.objects.get(tournament=t, player__name=NAMES[0]).player,
        Entry.objects.get(tournament=t, player__name=NAMES[1]).player,
    )
    page.select_option("#id_first", str(first.pk))
    page.select_option("#id_second", str(second.pk))
    page.locator("#swiss-swap button[type=submit]").click()
    expect(page.locator("#swiss table.pairings")).to_be_visible()
    assert MatchEvent.objects.filter(kind="swiss_swapped").count() == 2
    page.locator("form[action$='/swiss/rounds/1/publish/'] button[type=submit]").click()
    expect(page.locator("form[action$='/swiss/pair/'] button[disabled]")).to_be_visible()
    assert Round.objects.get(tournament=t, number=1).published

    # Results come in; the checked-out player is checked in again; round 2.
    _play(t, 1, referee)
    page.reload()
    page.locator(f"form[action$='/entries/{out.pk}/presence/'] button").click()
    page.locator("form[action$='/swiss/pair/'] button[type=submit]").click()
    expect(page.locator("#swiss table.pairings tbody tr")).to_have_count(3)  # with the bye
    # The organiser's page with the unpublished pairing and its swap form, on a phone.
    phone = new_page(360, 800)
    login(phone, live_server.url, "arrangor")
    phone.goto(f"{live_server.url}/tournaments/{t.pk}/manage/#swiss")
    expect(phone.locator("#swiss-swap")).to_be_visible()
    wide = phone.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the manage page scrolls sideways by {wide}px on a phone"
    shoot(phone, "swiss-manage-phone")
    page.locator("form[action$='/swiss/rounds/2/publish/'] button[type=submit]").click()
    expect(page.locator("form[action$='/swiss/pair/'] button[disabled]")).to_be_visible()
    bye = Match.objects.get(tournament=t, round__number=2, player2__isnull=True)
    assert bye.player1_id == out.player_id and bye.state == MatchState.BYE

    for width, name in ((360, "phone"), (1280, "desktop")):
        view = new_page(width, 800)
        view.goto(f"{live_server.url}/tournaments/{t.pk}/")
        table = view.locator("table.swiss-standings tbody tr")
        expect(table).to_have_count(5)
        expect(view.locator("ol.reasons li")).to_have_count(4)
        expect(view.locator("section.swiss-round")).to_have_count(2)
        expect(view.locator("section.swiss-round table.pairings tbody tr")).to_have_count(5)
        wide = view.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"the page scrolls sideways by {wide}px at {width}px"
        shoot(view, f"swiss-{name}")
