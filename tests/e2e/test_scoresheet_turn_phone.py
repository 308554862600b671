"""Entering a turn on the digital scoresheet, on a 360 px phone in Swedish: the confirm
button waits for a whole play offline too, the checkers that may move are marked in every
mode and after a reload, a reload keeps the dice and the steps of the turn being entered,
a decided match offers no next game, the board's points are wide enough to tap, and a tap
that does nothing says why.

The match, the other device and the page's driver are those of ``test_scoresheet_phone``.
Elements are found by id, class and data attributes, never by their words.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from rest_framework.test import APIClient

from matches.models import GameReport, MatchState
from tests.e2e.conftest import shoot
from tests.e2e.test_scoresheet_phone import (
    PHONE,
    Act,
    Device,
    _hit,
    _match,
    _open,
    simulate,
)
from tests.factories import UserFactory
from tests.tournaments.helpers import players_of

pytestmark = pytest.mark.django_db(transaction=True)

# Checkers the page marks as able to move (a point's outline, or the bar's).
MARKS = "#scoresheet svg .hl.can, #scoresheet svg .hl.can-bar"


def _started(username: str, **fields: Any) -> tuple[Any, Device, Any]:
    """A talisman match whose game 1 another device started, White to roll (tek 2-5):
    the match, the other device and the recording user."""
    match, user = _match(username, lengths=[3], rules="talisman", **fields)
    device = Device(match, user)
    assert device.start().status_code == 201
    assert device.post(Act("start", dice=(2, 5))).status_code == 201
    return match, device, user


def test_offline_confirm_waits_for_a_whole_play(live_server: Any, new_page: Any) -> None:
    """Offline, a turn after the first is recorded unchecked: its confirm button stays
    disabled until every die is played (no single tap records "no move possible")."""
    match, device, user = _started("p-offline-confirm")
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-seq", "1")
    page.context.set_offline(True)
    sheet.play(Act("play", dice=(3, 1), steps=((1, 4), (1, 2)), side=0))  # checked
    expect(page.locator("#sheet-net")).to_have_attribute("data-waiting", "1")

    # Black's 6-5, unchecked: nothing played yet, so nothing to confirm.
    sheet.dice((6, 5))
    confirm = page.locator("#sheet-controls button[data-act=confirm]")
    expect(page.locator("#sheet-hint")).to_be_visible()
    expect(confirm).to_be_disabled()
    shoot(page, "scoresheet-offline-confirm-phone")
    sheet.steps(1, ((1, 7),))
    expect(confirm).to_be_disabled()  # the 5 is still to be played
    sheet.steps(1, ((1, 6),))
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(page.locator("#sheet-net")).to_have_attribute("data-waiting", "2")
    page.context.set_offline(False)
    sheet.wait_saved(3)
    assert device.state()["turns"][-1]["steps"] == [[1, 7], [1, 6]]


def test_rolled_dice_mark_the_checkers_that_may_move(live_server: Any, new_page: Any) -> None:
    """Where the site rolls, the checkers that may move are marked as soon as the dice
    are shown, and again after a reload."""
    match, user = _match("p-rolled-marks", lengths=[3], rules="talisman")
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    page.locator("#sheet-controls button[data-act=begin-rolled]").click()
    page.locator("#sheet-controls button[data-act=roll-start]").click()
    sheet.wait_saved(1)
    page.locator("#sheet-controls button[data-act=roll]").click()
    sheet.wait_saved(2)
    expect(sheet.root).to_have_attribute("data-phase", "move")
    expect(page.locator(MARKS).first).to_be_attached()
    shoot(page, "scoresheet-rolled-marks-phone")
    page.reload()
    expect(sheet.root).to_have_attribute("data-phase", "move")
    expect(page.locator(MARKS).first).to_be_attached()


def test_a_reload_keeps_the_turn_being_entered(live_server: Any, new_page: Any) -> None:
    """The dice and the steps tapped in survive a reload (the movable checkers marked);
    once the turn is confirmed, or another device recorded it, a reload starts afresh."""
    match, device, user = _started("p-reload-turn")
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-seq", "1")
    sheet.dice((6, 5))
    sheet.steps(0, ((1, 7),))
    page.reload()
    expect(sheet.root).to_have_attribute("data-seq", "1")
    expect(page.locator("#sheet-hint")).to_contain_text("1/7")
    seven = page.locator("#scoresheet svg .stack[data-side='0'][data-point='7']")
    expect(seven).to_have_attribute("data-count", "1")
    expect(page.locator(MARKS).first).to_be_attached()
    expect(page.locator("#sheet-controls .die-row")).to_have_count(0)
    shoot(page, "scoresheet-reload-turn-phone")
    sheet.steps(0, ((1, 6),))
    page.locator("#sheet-controls button[data-act=confirm]").click()
    sheet.wait_saved(2)
    assert device.state()["turns"][-1]["steps"] == [[1, 7], [1, 6]]
    page.reload()
    expect(sheet.root).to_have_attribute("data-seq", "2")
    expect(page.locator("#sheet-controls .die-row")).to_have_count(1)

    # Black's dice entered here; the other device records Black's turn: a reload shows the
    # game as the server has it, White to roll, no dice left over.
    sheet.dice((2, 1))
    assert device.post(Act("play", dice=(2, 1), steps=((1, 3), (1, 2)))).status_code == 201
    page.reload()
    expect(sheet.root).to_have_attribute("data-seq", "3")
    expect(page.locator("#sheet-controls .die-row")).to_have_count(1)
    expect(page.locator("#sheet-controls button[data-act=confirm]")).to_have_count(0)


def test_a_decided_match_offers_no_next_game(live_server: Any, new_page: Any) -> None:
    """A best-of-1 match whose only game was recorded to its end (a resigned game would
    not count, S1): the page says the match is decided by it (not "record the next
    game"), before and after the opponent confirms; the API refuses another game."""
    match, user = _match("p-decided", lengths=[1], rules="talisman", results_by="players")
    opponent = players_of(match)[1]
    opponent.user = UserFactory.create(username="p-decided-2")
    opponent.save()
    device = Device(match, user)
    assert device.start().status_code == 201
    tek = [Act("start", dice=(2, 5))]
    for act in simulate("brade", 7, prefix=tek, rules="talisman", names=("P001", "P002")):
        assert device.post(act).status_code == 201, act  # a whole game (no resignation)
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-phase", "over")
    decided = page.locator("#sheet-controls .sheet-note[data-note=decided]")
    expect(decided).to_be_visible()
    expect(page.locator("#sheet-controls button[data-act=next-game]")).to_have_count(0)
    shoot(page, "scoresheet-decided-pending-phone")

    report = GameReport.objects.get(match=match)
    other = APIClient()
    other.force_authenticate(opponent.user)
    assert other.post(f"/api/reports/{report.pk}/confirm/", format="json").status_code == 200
    match.refresh_from_db()
    assert match.state == MatchState.DECIDED
    page.reload()
    expect(decided).to_be_visible()
    expect(page.locator("#sheet-controls button[data-act=next-game]")).to_have_count(0)
    refused = device.start()
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "match_decided"


def test_the_board_fills_the_phone(live_server: Any, new_page: Any) -> None:
    """At 360 px the board is the screen's width, each point at least 26 px wide, and
    the page does not scroll sideways."""
    match, _, user = _started("p-board-width")
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-seq", "1")
    sheet.dice((6, 5))
    widths = page.evaluate(
        """() => Array.from(document.querySelectorAll('#scoresheet svg [data-hit]'))
            .filter(e => /^[0-9]+$/.test(e.dataset.hit))
            .map(e => e.getBoundingClientRect().width)"""
    )
    assert len(widths) == 24
    assert min(widths) >= 26, widths
    board = page.locator("#scoresheet svg.board").bounding_box()
    assert board is not None and board["width"] >= PHONE["width"] - 1
    scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= PHONE["width"], f"the page scrolls sideways ({scroll} px)"
    shoot(page, "scoresheet-board-width-phone")


def test_a_tap_that_does_nothing_says_why(live_server: Any, new_page: Any) -> None:
    """A tap on a point no checker can reach, or on a checker the dice cannot move, is
    answered in a polite status line; a tap that moves clears it."""
    match, device, user = _started("p-tap-why")
    # White 5-3 to 9, Black 2-1: White's checker on 9 cannot move with 4-4 (13 is Black's
    # home band).
    assert device.post(Act("play", dice=(5, 3), steps=((1, 6), (6, 9)))).status_code == 201
    assert device.post(Act("play", dice=(2, 1), steps=((1, 3), (3, 4)))).status_code == 201
    sheet = _open(new_page, live_server.url, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-seq", "3")
    why = page.locator("#sheet-why")
    expect(why).to_have_attribute("aria-live", "polite")
    expect(why).to_have_text("")
    expect(page.locator("html")).to_have_attribute("lang", "sv")

    sheet.dice((4, 4))
    sheet.tap(_hit("brade", 0, 9))
    expect(why).to_have_attribute("data-why", "cannot-move")
    expect(why).to_contain_text("4")
    shoot(page, "scoresheet-tap-why-phone")
    sheet.tap(_hit("brade", 0, 24))  # nothing reaches 24 with 4-4 this turn
    expect(why).to_have_attribute("data-why", "no-reach")
    expect(why).not_to_have_text(re.compile(r"^$"))
    sheet.steps(0, ((1, 5),))
    expect(why).to_have_text("")
    expect(why).to_have_attribute("data-why", "")
