"""A clocked backgammon match on a 360 px phone in Swedish (``scoresheets.clock``): the
recording page runs the clock — the opening roll starts the starter's, a reload mid-turn
keeps the time used, not the full bank — and when the bank is spent the page enters the
flag fall itself: the match is lost, entered as a walkover with the site's reason, and the
match page and its follower show the time control and the result.

The match and the page's driver are those of ``test_scoresheet_phone``. Elements are found
by id, class and data attributes, never by their words; the Swedish is checked by the
absence of the English.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import EventKind, MatchEvent, MatchState
from scoresheets.models import LiveTurn
from tests.e2e.conftest import login, shoot
from tests.e2e.test_scoresheet_phone import Sheet, _match, _no_sideways_scroll, _open

pytestmark = pytest.mark.django_db(transaction=True)


def _clocked(username: str, per_point: int, delay: int) -> tuple[Any, Any]:
    match, user = _match(username, lengths=[1], game="backgammon")
    tournament = match.tournament
    tournament.clock_per_point = per_point
    tournament.clock_delay = delay
    tournament.save(update_fields=["clock_per_point", "clock_delay"])
    return match, user


def _opening(sheet: Sheet) -> None:
    """Start recording and enter the opening roll 5-2: player 0's clock runs."""
    page = sheet.page
    page.locator("#sheet-controls button[data-act=begin-entered]").click()
    page.locator(".die-row[data-name=tek-0] button[data-die='5']").click()
    page.locator(".die-row[data-name=tek-1] button[data-die='2']").click()
    sheet.wait_saved(1)


def _face(sheet: Sheet, side: int) -> Any:
    return sheet.page.locator(f"#sheet-clock .clock-face[data-side='{side}']")


def _ms(sheet: Sheet, side: int) -> int:
    return int(_face(sheet, side).get_attribute("data-ms") or -1)


def test_a_reload_mid_turn_keeps_the_time(live_server: Any, new_page: Any) -> None:
    base = live_server.url
    match, user = _clocked("p-clock-reload", per_point=120, delay=0)  # 2 min, 1 point
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    expect(page.locator("#sheet-time-control")).to_contain_text("2 min")
    _opening(sheet)
    bank = 120_000
    expect(_face(sheet, 0)).to_have_attribute("data-running", "1")
    expect(_face(sheet, 1)).to_have_attribute("data-running", "0")
    expect(_face(sheet, 1)).to_have_attribute("data-ms", str(bank))
    # player 0 thinks: the clock runs down (at least a second shows as used)
    page.wait_for_function(
        "b => +document.querySelector(\"#sheet-clock .clock-face[data-side='0']\").dataset.ms"
        " <= b - 1500",
        arg=bank,
    )
    before = _ms(sheet, 0)
    _no_sideways_scroll(page)
    shoot(page, "scoresheet-clock-phone")

    page.reload()
    expect(_face(sheet, 0)).to_have_attribute("data-running", "1")
    after = _ms(sheet, 0)
    # the time used is kept: not the full bank again, nor more than was left before
    assert 0 < after <= before < bank
    expect(_face(sheet, 1)).to_have_attribute("data-ms", str(bank))

    # the turn confirmed after the reload is charged from the clock's start, not the reload
    sheet.steps(0, ((13, 8), (13, 11)))
    page.locator("#sheet-controls button[data-act=confirm]").click()
    sheet.wait_saved(2)
    turn = LiveTurn.objects.get(match=match, seq=2)
    assert turn.used_ms is not None and turn.used_ms >= bank - before
    assert turn.clock is not None and turn.clock[0] <= before and turn.clock[1] == bank
    expect(_face(sheet, 1)).to_have_attribute("data-running", "1")


def test_a_flag_fall_enters_itself(live_server: Any, new_page: Any) -> None:
    base = live_server.url
    match, user = _clocked("p-clock-flag", per_point=3, delay=1)  # 3 s bank, 1 s delay
    follower = new_page(width=360, height=740)
    follower.goto(f"{base}/matches/{match.pk}/")
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    _opening(sheet)
    # nobody moves: the page posts the flag fall itself once the bank is spent
    expect(sheet.root).to_have_attribute("data-phase", "over", timeout=15_000)
    sheet.wait_saved(2)
    expect(_face(sheet, 0)).to_have_attribute("data-flag", "1")
    expect(_face(sheet, 0)).to_have_attribute("data-ms", "0")
    heading = page.locator("#sheet-turn")
    expect(heading).to_contain_text(match.player1.name)
    expect(heading).not_to_contain_text("time ran out")  # in Swedish
    expect(page.locator("#sheet-controls [data-note=decided]")).to_be_visible()
    _no_sideways_scroll(page)
    shoot(page, "scoresheet-clock-flag-phone")

    flag = LiveTurn.objects.get(match=match, seq=2)
    assert flag.action == "flag" and flag.side == 0 and flag.clock == [0, 3_000]
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER and match.winner_id == match.player2_id
    walkover = MatchEvent.objects.get(match=match, kind=EventKind.WALKOVER)
    assert walkover.data == {"winner": match.player2_id, "reason_code": "flag_fall"}

    # the match page: the time control and the result entered by the clock
    follower.reload()
    expect(follower.locator(".time-control")).to_be_visible()
    expect(follower.locator(".time-control")).not_to_contain_text("per point")  # in Swedish
    # the verdict says the time ran out (in Swedish), and a follower gets no overrule form
    expect(follower.locator(".standing .verdict")).to_contain_text("(flaggfall)")
    expect(follower.locator(".flag-overrule")).to_have_count(0)
    _no_sideways_scroll(follower)
    shoot(follower, "match-clock-flag-phone")

    # the referee overrules it on the match page: a note and the seconds to go on with
    referee = match.tournament.referees.get()
    judge = new_page(width=360, height=740)
    login(judge, base, referee.username)
    judge.goto(f"{base}/matches/{match.pk}/")
    form = judge.locator(".flag-overrule")
    form.locator("summary").click()
    expect(form.locator("textarea[name=note]")).to_be_visible()
    form.locator("textarea[name=note]").fill("Telefonen föll i golvet; klockan gick vidare.")
    form.locator("input[name=seconds]").fill("45")
    _no_sideways_scroll(judge)
    shoot(judge, "match-flag-overrule-phone")
    form.locator("button[type=submit]").click()
    expect(judge.locator(".messages .success")).to_be_visible()
    expect(judge.locator(".flag-overrule")).to_have_count(0)
    match.refresh_from_db()
    assert match.state == MatchState.READY and match.winner_id is None
    shoot(judge, "match-flag-overruled-phone")
