"""A consolation that decides third place, in the browser: the organiser ticks the
progressive consolation and "the consolation decides third place" on the new-tournament
page, six players are drawn and played out, and the public page names the consolation's
winner as third and lists the placings 1 to 4 one player each. Screenshot in
test-output/screenshots/consolation-third-place.png.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Match
from tests.e2e.conftest import login, shoot
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.test_elimination_formats import play_out
from tournaments import elimination_draw
from tournaments.models import RoundKind, Tournament
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_consolation_final_decides_third_place(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="arrangor")
    page = new_page(1280, 900)
    login(page, live_server.url, "arrangor")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.fill("#id_name", "Bronskvällen")
    page.fill("#id_start_date", "2027-03-06")
    page.check("input[name=format][value=consolation]")
    page.check("#id_progressive_consolation")
    page.check("#id_consolation_third_place")
    page.check("input[name=resignation_policy][value=capped]")
    page.locator("main form.form button[type=submit].primary").click()
    page.wait_for_url(lambda url: "/manage/" in url)
    t = Tournament.objects.get(name="Bronskvällen")
    assert t.progressive_consolation and t.consolation_third_place

    t.referees.add(organiser)
    for i in range(6):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i + 1}"))
    rounds = len(elimination_draw.round_plan(elimination_draw.bracket_shape(t, 6)))
    tournament_draw(tournament=t, by=organiser, lengths=[1] * rounds, draw_seed=6)
    play_out(t, organiser, random.Random(6))
    final = (
        Match.objects.filter(tournament=t, round__kind=RoundKind.CONSOLATION)
        .order_by("-round__number")
        .first()
    )
    assert final is not None and final.winner is not None

    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    winner_line = page.locator(".bracket-winner")
    expect(winner_line).to_contain_text(final.winner.name)
    expect(winner_line).to_contain_text("Tredje plats")
    rows = page.locator("table.placings tbody tr")
    expect(rows).to_have_count(6)
    places = [rows.nth(i).locator("td").first.inner_text() for i in range(4)]
    assert places == ["1", "2", "3", "4"]
    expect(rows.nth(2)).to_contain_text(final.winner.name)
    shoot(page, "consolation-third-place")
