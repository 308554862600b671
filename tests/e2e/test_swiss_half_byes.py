"""Half-point byes and re-pairing in the browser: the organiser grants one half-point bye
each on the manage page; a player, on a 360 px phone, asks on the tournament page to sit
out round 1; the organiser pairs round 1 (the player is not in it, the bye row is), takes
the pairing back, the player cancels, and the organiser pairs it again with the player in
it. No sideways scroll on the phone. Screenshots in test-output/screenshots/swiss-half-*.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import HalfPointBye, Match
from tests.e2e.conftest import login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)


def _paired(t: Tournament) -> set[int]:
    return {
        pid
        for m in Match.objects.filter(tournament=t, round__number=1)
        for pid in (m.player1_id, m.player2_id)
        if pid is not None
    }


def test_a_player_asks_for_a_half_point_bye_on_a_phone(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="arrangor")
    t = tournament_create(
        by=organiser,
        name="Halvpoängskvällen",
        start_date=datetime.date(2027, 3, 6),
        format="swiss",
        swiss_rounds=3,
    )
    anna = PlayerFactory.create(
        name="Anna Berg", rating=1900, user=UserFactory.create(username="anna")
    )
    EntryFactory.create(tournament=t, player=anna)
    for i, name in enumerate(["Erik Holm", "Sara Lind", "Åsa Ek", "Olle Ny"]):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=name, rating=1800 - i))
    tournament_draw(tournament=t, by=organiser, draw_seed=9)

    desk = new_page(1280, 900)
    login(desk, live_server.url, "arrangor")
    desk.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")
    desk.fill("#id_allowed", "1")
    desk.locator("#swiss-half-bye-rules button[type=submit]").click()
    expect(desk.locator("#swiss-half-bye-ask")).to_be_visible()

    phone = new_page(360, 740)
    login(phone, live_server.url, "anna")
    phone.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(phone.locator("#half-byes")).to_be_visible()
    phone.select_option("#half-bye-round", "1")
    phone.locator("#half-bye-ask button[type=submit]").click()
    expect(phone.locator("#half-byes .my-half-byes li")).to_have_count(1)
    assert HalfPointBye.objects.get().round_number == 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(phone, "swiss-half-bye-phone")

    desk.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")
    desk.locator("form[action$='/swiss/pair/'] button[type=submit]").click()
    expect(desk.locator("#swiss table.pairings tr.half-bye")).to_have_count(1)
    assert anna.pk not in _paired(t) and len(_paired(t)) == 4
    shoot(desk, "swiss-half-bye-manage")
    desk.locator("form[action$='/swiss/rounds/1/unpair/'] button").click()
    expect(desk.locator("form[action$='/swiss/pair/'] button[type=submit]")).to_be_enabled()
    assert not Match.objects.filter(tournament=t).exists()

    phone.reload()
    phone.locator("#half-byes .my-half-byes form button").click()
    expect(phone.locator("#half-bye-ask")).to_be_visible()
    assert not HalfPointBye.objects.exists()

    desk.reload()
    desk.locator("form[action$='/swiss/pair/'] button[type=submit]").click()
    expect(desk.locator("#swiss table.pairings tbody tr")).to_have_count(3)  # two and the bye
    assert anna.pk in _paired(t)
    desk.locator("form[action$='/swiss/rounds/1/repair/'] button").click()
    expect(desk.locator("#swiss table.pairings tbody tr")).to_have_count(3)
    assert anna.pk in _paired(t)
