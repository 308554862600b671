"""A league night through the pages, on phones at 360 px in Swedish: the two captains give
their line-ups on the team match page, two boards are recorded live on the home players'
phones (the last turns on the page, the game's end among them), a referee enters the third
board on the referee page, the team match is decided early (3–0 with a board left) and
the big screen shows the team match and the table change by themselves; the fourth board
is still played and counted.

The big screen is opened once the live boards are in, and every page opened before is closed
before the test thread's own API writes (a device recording a board): an open page polls or
follows its stream, and its reads would meet those writes on SQLite's one shared in-memory
database (a table locked). The live games
are chosen beforehand with the pure live game (``games.live``), as the scoresheet's own
browser test does, from seeds where the home team's player wins.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import MatchState
from teams.models import TeamBoard, TeamMatch
from tests.e2e.conftest import login, shoot
from tests.e2e.test_scoresheet_phone import Act, Device, _open, simulate
from tests.teams.league_helpers import division_make, season_make

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}


def _won_by(side: int) -> list[Act]:
    """A whole talisman game whose last play (the winning one) is ``side``'s."""
    for seed in range(1, 200):
        acts = simulate("brade", seed, prefix=[], rules="talisman", names=("P001", "P002"))
        if acts[-1].side == side:
            return acts
    raise AssertionError("no seed gives that winner")


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"


def test_a_league_night(live_server: Any, new_page: Any) -> None:
    base = live_server.url
    division = division_make(season=season_make(), name="Ligan", teams=2, boards=4, double=False)
    tournament = division.tournament
    tm = TeamMatch.objects.select_related("home", "away").get(tournament=tournament)

    # The captains give their line-ups; the other team's stays hidden until both are in.
    assert tm.away is not None
    for number, team in enumerate((tm.home, tm.away)):
        captain = division.captains[team.pk]
        page = new_page(**PHONE)
        login(page, base, captain.username)
        page.goto(f"{base}/team-matches/{tm.pk}/")
        form = page.locator(".line-up-form")
        expect(form).to_have_count(1)  # their own team's only
        _no_sideways_scroll(page)
        shoot(page, f"league-night-line-up-{number + 1}-phone")
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()
        page.close()  # its polling would meet the devices' writes below (see the docstring)
    tm.refresh_from_db()
    assert tm.boards_made
    boards = list(TeamBoard.objects.filter(team_match=tm).select_related("match").order_by("board"))
    assert len(boards) == 4

    # Boards 1 and 2 recorded live on the home players' phones; the home player is
    # player 1 on board 1 and player 2 on board 2 (the first-named side alternates).
    for board in boards[:2]:
        match = board.match
        assert match is not None
        home_side = 0 if board.home_first else 1
        player = match.player1 if home_side == 0 else match.player2
        assert player is not None and player.user is not None
        acts = _won_by(home_side)
        device = Device(match, player.user)
        assert device.start().status_code == 201
        for act in acts[:-2]:
            assert device.post(act).status_code == 201, act
        sheet = _open(new_page, base, player.user.username, match)
        for act in acts[-2:]:
            seq = sheet.seq()
            sheet.play(act, forced=act.choices == 1)
            sheet.wait_saved(seq + 1)
        expect(sheet.root).to_have_attribute("data-phase", "over")
        shoot(sheet.page, f"league-night-board-{board.board}-over-phone")
        sheet.page.close()  # before the next board's device writes (see the docstring)
        match.refresh_from_db()
        assert match.state == MatchState.DECIDED and match.winner_id == player.pk

    # The screen is opened now: while it polls, the test's own writes (the devices above,
    # in this thread) would meet its reads on SQLite's one shared in-memory database.
    screen = new_page(1280, 720)
    screen.goto(f"{base}/tournaments/{tournament.pk}/screen/")
    expect(screen.locator(f"[data-team-match='{tm.pk}'] .score")).to_contain_text(
        "2–0", timeout=20_000
    )

    # The referee enters board 3 for the home player on the referee page: 3–0 with one
    # board left, so the away team cannot catch up.
    referee = division.referee
    page = new_page(**PHONE)
    login(page, base, referee.username)
    third = boards[2].match
    assert third is not None
    home_player = third.player1 if boards[2].home_first else third.player2
    assert home_player is not None
    page.goto(f"{base}/matches/{third.pk}/enter/")
    page.get_by_text(home_player.name, exact=True).first.click()
    page.get_by_role("button", name="hemspel", exact=True).click()
    page.wait_for_selector(".verdict.decided")
    tm.refresh_from_db()
    assert (tm.result, tm.decided_early, tm.home_boards, tm.away_boards) == ("home", True, 3, 0)

    # The screen shows it by itself: the team match 3–0 decided early, the table's points.
    row = screen.locator(f"[data-team-match='{tm.pk}']")
    expect(row.locator(".score")).to_contain_text("3–0", timeout=20_000)
    expect(row.locator(".tag")).to_be_attached()
    expect(screen.locator(f".team-table tr[data-team='{tm.home_id}'] .mp")).to_have_text(
        "2", timeout=20_000
    )
    expect(screen.locator(f".team-table tr[data-team='{tm.away_id}'] .mp")).to_have_text("0")
    shoot(screen, "league-night-screen")

    # The team match page on a phone: the boards and the early decision.
    reader = new_page(**PHONE)
    reader.goto(f"{base}/team-matches/{tm.pk}/")
    _no_sideways_scroll(reader)
    expect(reader.locator("td .meta").first).to_have_text(
        "avgjord"
    )  # the board's state, in Swedish
    shoot(reader, "league-night-team-match-phone")

    # The fourth board is still played and counts in the board points.
    fourth = boards[3].match
    assert fourth is not None
    away_player = fourth.player2 if boards[3].home_first else fourth.player1
    assert away_player is not None
    page.goto(f"{base}/matches/{fourth.pk}/enter/")
    page.get_by_text(away_player.name, exact=True).first.click()
    page.get_by_role("button", name="hemspel", exact=True).click()
    page.wait_for_selector(".verdict.decided")
    expect(screen.locator(f".team-table tr[data-team='{tm.away_id}'] .bp")).to_have_text(
        "1", timeout=20_000
    )
    tm.refresh_from_db()
    assert (tm.result, tm.home_boards, tm.away_boards) == ("home", 3, 1)
