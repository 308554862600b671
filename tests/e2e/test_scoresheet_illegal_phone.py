"""An illegal backgammon move at the table, on a 360 px phone in Swedish (seed 002,
"Ugyldige slag og ulovlige ryk"): the move is entered as it was played on the board, the
page says it is illegal and why, and asks the opponent to accept it as played or have it
corrected; corrected, the mover enters the roll again; accepted, it stands, the turn list
marks it, and the record's page shows the warning its replay gives.

The match, the other device and the page's driver are those of ``test_scoresheet_phone``.
Elements are found by id, class and data attributes, never by their words; the messages'
Swedish is checked by the absence of their English.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoresheets.models import LiveGame, LiveTurn
from tests.e2e.conftest import shoot
from tests.e2e.test_scoresheet_phone import Device, Sheet, _hit, _match, _no_sideways_scroll, _open

pytestmark = pytest.mark.django_db(transaction=True)

# Player 0 opens with 5-2 and moves 13/8 13/10 on the board: the 3 is no die of the roll.
AS_PLAYED = ((13, 8), (13, 10))


def _enter_as_played(sheet: Sheet, *, probe: bool = False) -> None:
    """Switch to entering the move as played and tap it in: each checker, then where it
    went (player 0's points are drawn with their own numbers). ``probe``: first try the
    opponent's two checkers on point 1, where no checker can stand (the page says why)."""
    page = sheet.page
    page.locator("#sheet-controls button[data-act=as-played]").click()
    expect(page.locator("#sheet-controls button[data-act=legal-only]")).to_be_visible()
    if probe:
        sheet.tap(_hit(sheet.layout, 0, 13))
        sheet.tap(_hit(sheet.layout, 0, 1))
        expect(page.locator("#sheet-why")).to_have_attribute("data-why", "free-held")
        assert page.evaluate("() => document.getElementById('scoresheet').sheet.selected()") is None
    for src, dst in AS_PLAYED:
        sheet.tap(_hit(sheet.layout, 0, src))
        sheet.tap(_hit(sheet.layout, 0, dst))
    expect(page.locator("#sheet-hint")).to_contain_text("13/8 13/10")
    page.locator("#sheet-controls button[data-act=confirm]").click()


def test_an_illegal_move_accepted_by_the_opponent(live_server: Any, new_page: Any) -> None:
    base = live_server.url
    match, user = _match("p-illegal", lengths=[1], game="backgammon")
    device = Device(match, user)
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    page.locator("#sheet-controls button[data-act=begin-entered]").click()
    page.locator(".die-row[data-name=tek-0] button[data-die='5']").click()
    page.locator(".die-row[data-name=tek-1] button[data-die='2']").click()
    sheet.wait_saved(1)
    expect(sheet.root).to_have_attribute("data-phase", "move")

    # The move as it was played: refused as illegal, with the reason, the opponent asked.
    _enter_as_played(sheet, probe=True)
    banner = page.locator("#sheet-banner")
    expect(banner).to_have_class(re.compile(r"\billegal\b"), timeout=15_000)
    message = banner.locator(".engine-message")
    expect(message).to_contain_text("13/10")
    expect(message).to_contain_text("3")  # the count no die shows
    expect(message).not_to_contain_text("not a legal play")  # in Swedish
    expect(banner.locator(".illegal-ask")).to_be_visible()
    expect(banner.locator("button[data-act=accept-illegal]")).to_be_visible()
    assert device.state()["seq"] == 1  # nothing stored while the opponent decides
    _no_sideways_scroll(page)
    shoot(page, "scoresheet-illegal-phone")

    # Have it corrected: the mover enters the roll again (the move as played once more).
    banner.locator("button[data-act=correct]").click()
    expect(banner).to_be_hidden()
    expect(sheet.root).to_have_attribute("data-phase", "move")
    _enter_as_played(sheet)
    expect(banner.locator("button[data-act=accept-illegal]")).to_be_visible(timeout=15_000)

    # Accepted as played: it stands, marked in the turn list.
    banner.locator("button[data-act=accept-illegal]").click()
    sheet.wait_saved(2)
    expect(banner).to_be_hidden()
    last = page.locator("#sheet-turns li").last
    expect(last).to_have_attribute("data-illegal", "1")
    expect(last).not_to_contain_text("accepted")  # in Swedish
    stack = page.locator("#scoresheet svg .stack[data-side='0'][data-point='10']")
    expect(stack).to_have_attribute("data-count", "1")
    turn = LiveTurn.objects.get(match=match, seq=2)
    assert turn.illegal and turn.steps == [list(s) for s in AS_PLAYED]
    shoot(page, "scoresheet-illegal-accepted-phone")

    # Player 1 resigns a single game: the game and the match are over.
    page.locator("#sheet-controls button[data-act=resign]").click()
    page.locator("#sheet-controls button[data-act=resign-1]").click()
    sheet.wait_saved(3)
    expect(sheet.root).to_have_attribute("data-phase", "over")

    # The record's page: the illegal move that stands, on its line.
    live = LiveGame.objects.get(match=match, number=1)
    sub = live.submission
    assert sub is not None
    page.goto(f"{base}/records/{sub.pk}/")
    warnings = page.locator("#record-status ul.warnings li")
    expect(warnings).to_have_count(1)
    expect(warnings.first).to_contain_text("13/8 13/10")
    expect(warnings.first).not_to_contain_text("stands as played")  # in Swedish
    (warning,) = sub.report["warnings"]
    expect(warnings.first).to_contain_text(str(warning["line"]))
    _no_sideways_scroll(page)
    shoot(page, "record-illegal-warning-phone")
    # The viewer steps through the game as it was played.
    page.locator(f"#record-status a[href='/records/{sub.pk}/viewer/']").click()
    expect(page.locator("#viewer")).to_be_visible()
