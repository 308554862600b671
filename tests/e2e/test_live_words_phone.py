"""A match followed live, on a 360 px phone, in Swedish and in English, with the long
names Swedish clubs have: no page scrolls sideways (the live part's own address among
them), and the scoresheet's move list and the live board's caption name the players
and the bar in the page's language, not the record's ``W``/``B`` and ``bar``.

Elements are found by id and class; the words checked are the ones a reader sees.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from matches import services as match_services
from matches.models import Match
from tests.e2e.conftest import login, shoot
from tests.e2e.test_scoresheet_phone import Act, Device, simulate
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
NAMES = (
    "Karl-Johan Östergren-Wahlström från Sundsvalls Brädsällskap",
    "Ann-Charlotte Gyllenhammar-Björkqvist",
)
# The bar as a written move names it, by the page's language.
BAR = {"sv": "balken", "en": "bar"}
# How wide the page is, and what sticks out past the screen (to tell what to fix).
WIDTH = """() => {
  const view = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > view + 0.5)
    .filter(el => !el.closest('.bracket-wrap, .scroll-box, nav, header'))
    .slice(0, 5)
    .map(el => el.tagName.toLowerCase() + '.' + String(el.className || '').trim()
              + ' ' + Math.round(el.getBoundingClientRect().right));
  return {scroll: document.scrollingElement.scrollWidth, out};
}"""


def _named(match: Match) -> Match:
    for player, name in zip(players_of(match), NAMES, strict=True):
        player.name = name
        player.save()
    return match


def _phone(new_page: Any, base: str, language: str) -> Any:
    page = new_page(**PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    )
    return page


def _fits(page: Any, what: str) -> None:
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= PHONE["width"], f"{what}: {width['scroll']} px wide; {width['out']}"


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_live_part_of_a_match_fits_a_phone(
    live_server: Any, new_page: Any, language: str
) -> None:
    """``/matches/N/live/`` opened as a page (a referee's view, two games entered): it
    was the bare part, without the site's styles, and its table 470–513 px wide."""
    setup: Setup = drawn(2, lengths=[5])
    match = _named(match_of(setup.tournament, 1, 0))
    for number in (1, 2):
        match_services.game_result_enter(
            match=match, number=number, result=won("W", "hemspel"), by=setup.referee
        )
    base = live_server.url
    page = _phone(new_page, base, language)
    login(page, base, setup.referee.username)
    page.goto(f"{base}/matches/{match.pk}/live/")
    expect(page.locator("#match-live table.games")).to_be_visible()
    _fits(page, f"/matches/{match.pk}/live/ ({language})")
    expect(page.locator("html")).to_have_attribute("lang", language)
    shoot(page, f"phone-match-live-part-{language}")


def _recording(seed: int = 3) -> tuple[Match, Any, list[Act], int]:
    """A bräde match being recorded, the game's actions (pure) and the index of the first
    play that enters a checker from the bar."""
    setup = drawn(2, lengths=[1], rules="talisman")
    match = _named(match_of(setup.tournament, 1, 0))
    user = UserFactory.create(username="recorder")
    player = players_of(match)[0]
    player.user = user
    player.save()
    acts = simulate("brade", seed, prefix=[Act("start", dice=(2, 5))], rules="talisman")
    entry = next(i for i, a in enumerate(acts) if any(src == 0 for src, _ in a.steps))
    return match, user, acts, entry


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_move_list_and_the_live_board_name_the_players_and_the_bar(
    live_server: Any, new_page: Any, language: str
) -> None:
    match, user, acts, entry = _recording()
    device = Device(match, user)
    assert device.start().status_code == 201
    for act in acts[: entry + 1]:
        assert device.post(act).status_code == 201, act
    last = device.state()["turns"][-1]
    assert last["action"] == "play" and " bar/" in f" {last['text']}"  # the record's words
    dice, play = re.fullmatch(r"[WB] (\S+): (.*)", last["text"]).groups()  # type: ignore[union-attr]
    words = re.sub(r"\bbar\b", BAR[language], play)
    expected = f"{NAMES[last['side']]} {dice}: {words}"
    base = live_server.url

    sheet = _phone(new_page, base, language)
    login(sheet, base, user.username)
    sheet.goto(f"{base}/matches/{match.pk}/record/")
    rows = sheet.locator("#sheet-turns li")
    expect(rows.last).to_have_text(expected)
    for row in rows.all_inner_texts():
        assert not re.match(r"(W|B|White|Black) ", row), row
        assert row.startswith((*NAMES, "Tek: ")), row
        if language == "sv":
            assert not re.search(r"\b(bar|off)\b", row), row
    _fits(sheet, f"/matches/{match.pk}/record/ ({language})")
    shoot(sheet, f"phone-scoresheet-words-{language}")

    reader = _phone(new_page, base, language)
    reader.goto(f"{base}/matches/{match.pk}/")
    caption = reader.locator("#live-board .live-caption")
    expect(caption).to_contain_text(expected)
    _fits(reader, f"/matches/{match.pk}/ ({language})")
    shoot(reader, f"phone-live-board-words-{language}")
