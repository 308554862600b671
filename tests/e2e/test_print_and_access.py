"""The bracket prints on one A4 landscape page; every page's form fields have labels
and the main pages can be used with the keyboard alone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.services import game_result_enter
from tests.e2e.conftest import login, shoot
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db(transaction=True)

A4_LANDSCAPE_PT = (842, 595)  # PDF points, ±1


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """The (width, height) of every page of a PDF Chromium printed."""
    sizes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    assert pages == len(sizes)
    return [(float(w), float(h)) for w, h in sizes]


@pytest.mark.parametrize("players", [16, 32])
def test_bracket_prints_on_one_a4_landscape_page(
    live_server: Any, new_page: Any, players: int
) -> None:
    setup = drawn(players, seeded=8)
    match = match_of(setup.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    page = new_page()
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    pages = pdf_pages(page.pdf(prefer_css_page_size=True, print_background=True))
    assert len(pages) == 1
    width, height = pages[0]
    assert abs(width - A4_LANDSCAPE_PT[0]) <= 1 and abs(height - A4_LANDSCAPE_PT[1]) <= 1


UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter(el => el.type !== 'hidden' && el.type !== 'submit')
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML)"""


def test_form_fields_have_labels_and_keyboard_reaches_the_bracket(
    live_server: Any, new_page: Any
) -> None:
    setup = drawn(4, lengths=[3, 3])
    setup.referee.username = "domare"
    setup.referee.set_password("pw")
    setup.referee.save()
    match = match_of(setup.tournament, 1, 0)
    page = new_page()
    login(page, live_server.url, "domare")
    for path in (
        "/",
        f"/tournaments/{setup.tournament.pk}/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/enter/",
        "/words/",
        "/accounts/login/",
    ):
        page.goto(live_server.url + path)
        assert page.evaluate(UNLABELLED) == [], path
        assert page.locator("main h1").count() == 1, path
    # Keyboard: from the top, Tab reaches the skip link first, then a match in the bracket.
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.bracket') !== null"):
            break
    else:
        pytest.fail("Tab never reached the bracket")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/matches/" in url)
    shoot(page, "match-page")
