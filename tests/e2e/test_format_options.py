"""The new-tournament form shows the options of the chosen format only: a plain knockout
is not offered the double elimination's replayed final (ticked by default), a Swiss its
rounds and tiebreaks, and so on; choosing another format shows its own. At 360 px.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, shoot
from tests.factories import OrganiserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_the_chosen_formats_options_show(live_server: Any, new_page: Any) -> None:
    OrganiserFactory.create(username="arrangor")
    page = new_page(360, 800)
    login(page, live_server.url, "arrangor")
    page.goto(f"{live_server.url}/tournaments/new/")
    reset = page.locator("#id_grand_final_reset")
    rounds = page.locator("#id_swiss_rounds")
    third = page.locator("#id_third_place_match")
    expect(page.locator("input[name=format][value=knockout]")).to_be_checked()
    expect(reset).to_be_hidden()
    expect(rounds).to_be_hidden()
    expect(third).to_be_visible()
    shoot(page, "format-options-knockout")
    page.check("input[name=format][value=double_elimination]")
    expect(reset).to_be_visible()
    expect(reset).to_be_checked()
    expect(third).to_be_hidden()
    page.check("input[name=format][value=swiss]")
    expect(rounds).to_be_visible()
    expect(page.locator("#id_tiebreak_1")).to_be_visible()
    expect(reset).to_be_hidden()
    page.check("input[name=format][value=round_robin]")
    expect(page.locator("#id_groups")).to_be_visible()
    expect(rounds).to_be_hidden()
