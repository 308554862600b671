"""The bracket as people know it: lines join each match to the one its winner goes to, a
player's path lights up when pointed at or when a match has keyboard focus, and the
matches being played are marked. Screenshots at phone and desktop width are kept
(``bracket-*.png``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchState
from matches.services import game_result_enter
from tests.e2e.conftest import shoot
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of
from web.views import public

pytestmark = pytest.mark.django_db(transaction=True)


def _decide(setup: Setup, match: Match) -> None:
    """player1 (White) wins ``match`` by hemspel after hemspel."""
    number = match.games.count() + 1
    while match.state != MatchState.DECIDED:
        game_result_enter(match=match, number=number, result=won("W", "hemspel"), by=setup.referee)
        match.refresh_from_db()
        number += 1


def _eight() -> tuple[Setup, Match]:
    """8 players: the first two matches decided (player1 wins both), their semifinal begun."""
    setup = drawn(8, lengths=[3, 3, 3])
    _decide(setup, match_of(setup.tournament, 1, 0))
    _decide(setup, match_of(setup.tournament, 1, 1))
    semi = match_of(setup.tournament, 2, 0)
    game_result_enter(match=semi, number=1, result=won("W", "hemspel"), by=setup.referee)
    semi.refresh_from_db()
    assert semi.state == MatchState.PLAYING
    return setup, semi


def _match(page: Any, round_number: int, slot: int) -> Any:
    return (
        page.locator(".bracket .round:not(.third)")
        .nth(round_number - 1)
        .locator("li.match")
        .nth(slot)
    )


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return {
        "left": box["x"],
        "right": box["x"] + box["width"],
        "top": box["y"],
        "bottom": box["y"] + box["height"],
        "width": box["width"],
        "height": box["height"],
    }


def _lines_join(page: Any, rounds: int) -> None:
    """Every match but the final has a line out, every match after the first round a line
    in; the two lines out of a pair of feeders meet the line into the match they feed."""
    for r in range(1, rounds):
        matches = _match(page, r, 0).locator("xpath=..").locator("li.match")
        for j in range(matches.count() // 2):
            upper = _box(_match(page, r, 2 * j).locator(".conn-out"))
            lower = _box(_match(page, r, 2 * j + 1).locator(".conn-out"))
            into = _box(_match(page, r + 1, j).locator(".conn-in"))
            for line in (upper, lower):
                assert line["width"] > 0 and line["height"] > 0, line
            assert into["width"] > 0 and into["height"] > 0, into
            assert abs(upper["bottom"] - lower["top"]) <= 1.5  # the pair's lines meet ...
            assert abs(into["top"] - (upper["bottom"] - 1)) <= 1.5  # ... where the next starts
            assert abs(into["left"] - (upper["right"] - 1)) <= 1.5
            assert abs(upper["right"] - lower["right"]) <= 0.5
    expect(_match(page, rounds, 0).locator(".conn-out")).to_have_count(0)
    expect(_match(page, 1, 0).locator(".conn-in")).to_have_count(0)


def _highlighted(page: Any) -> set[str]:
    return set(
        page.locator("#bracket .line.path").evaluate_all("els => els.map(e => e.dataset.player)")
    )


@pytest.mark.parametrize("size", [(1280, 900), (360, 740)], ids=["desktop", "phone"])
def test_lines_join_the_matches_and_a_players_path_lights_up(
    live_server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    setup, _ = _eight()
    first = match_of(setup.tournament, 1, 0)
    assert first.winner_id is not None and first.player2_id is not None
    winner, loser = str(first.winner_id), str(first.player2_id)
    page = new_page(*size)
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    name = "desktop" if size[0] > 600 else "phone"

    expect(page.locator(".bracket .conn-out")).to_have_count(4 + 2)
    expect(page.locator(".bracket .conn-in")).to_have_count(2 + 1)
    _lines_join(page, rounds=3)

    # Every player slot names its player.
    slots = page.locator(".bracket .line[data-player]")
    expect(slots).to_have_count(8 + 2)
    expect(_match(page, 1, 0).locator(f".line[data-player='{winner}']")).to_have_count(1)

    # The match being played: marked by its badge and a thicker border in the live colour.
    playing = page.locator(".bracket li.state-playing")
    expect(playing).to_have_count(1)
    expect(playing.locator(".tag.live")).to_be_visible()
    assert playing.locator(".box").evaluate("e => getComputedStyle(e).borderTopWidth") == "2px"
    assert (
        page.locator(".bracket li.state-ready .box").first.evaluate(
            "e => getComputedStyle(e).borderTopWidth"
        )
        == "1px"
    )

    # Pointing at the winner of the first match: their two slots and the line between.
    assert _highlighted(page) == set()
    _match(page, 1, 0).locator(f".line[data-player='{winner}']").hover()
    expect(page.locator("#bracket .line.path")).to_have_count(2)
    assert _highlighted(page) == {winner}
    expect(_match(page, 1, 0)).to_have_class(re.compile(r"\bpath-out\b"))
    expect(_match(page, 2, 0)).to_have_class(re.compile(r"\bpath-in\b"))
    expect(page.locator("#bracket .path-out")).to_have_count(1)
    expect(page.locator("#bracket .path-in")).to_have_count(1)
    shoot(page, f"bracket-{name}-hover")

    # The loser's path is their one match; nothing leads on.
    _match(page, 1, 0).locator(f".line[data-player='{loser}']").hover()
    expect(page.locator("#bracket .line.path")).to_have_count(1)
    assert _highlighted(page) == {loser}
    expect(page.locator("#bracket .path-out, #bracket .path-in")).to_have_count(0)

    # Away from the bracket: nothing highlighted.
    page.locator("main h1").hover()
    expect(page.locator("#bracket .line.path")).to_have_count(0)

    # Keyboard: Tab into the bracket; the first match's two players light up.
    page.locator("main h1").click()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#bracket .box') !== null"):
            break
    else:
        pytest.fail("Tab never reached the bracket")
    expect(page.locator("#bracket .line.path")).to_have_count(3)
    assert _highlighted(page) == {winner, loser}
    page.keyboard.press("Tab")  # the second first-round match: its winner went on too
    second = match_of(setup.tournament, 1, 1)
    assert _highlighted(page) == {str(second.player1_id), str(second.player2_id)}
    expect(_match(page, 1, 1)).to_have_class(re.compile(r"\bpath-out\b"))
    expect(_match(page, 1, 0)).not_to_have_class(re.compile(r"\bpath-out\b"))
    shoot(page, f"bracket-{name}-focus")
    page.keyboard.press("Shift+Tab")
    assert _highlighted(page) == {winner, loser}
    page.locator("main h1").click()  # focus leaves the bracket
    expect(page.locator("#bracket .line.path")).to_have_count(0)
    shoot(page, f"bracket-{name}")

    # Printed, the lines are still there (borders, not backgrounds).
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
    # The resize reflows the page (the sideways-scroll hint goes, the boxes widen): measure
    # once it has settled, the same check retried for up to 2 s, never loosened.
    for attempt in range(20):
        try:
            _lines_join(page, rounds=3)
            break
        except AssertionError:
            if attempt == 19:
                raise
            page.wait_for_timeout(100)
    shoot(page, f"bracket-{name}-print")


def test_the_path_stays_lit_when_the_bracket_updates_itself(
    live_server: Any, new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(public, "LIVE_EVERY", 1)  # poll every second instead of every 10
    setup, semi = _eight()
    page = new_page()
    page.goto(f"{live_server.url}/tournaments/{setup.tournament.pk}/")
    winner = str(semi.player1_id)
    page.locator(f"#bracket .line[data-player='{winner}']").first.hover()
    expect(page.locator("#bracket .line.path")).to_have_count(2)
    _decide(setup, semi)
    # The new bracket (the semifinal's winner in the final) is swapped in by itself ...
    final = _match(page, 3, 0).locator(f".line[data-player='{winner}']")
    expect(final).to_have_count(1, timeout=10_000)
    # ... and the path, one match longer now, is lit again without the mouse moving.
    expect(page.locator("#bracket .line.path")).to_have_count(3)
    assert _highlighted(page) == {winner}
    expect(_match(page, 2, 0)).to_have_class(re.compile(r"\bpath-out\b"))
    expect(_match(page, 3, 0)).to_have_class(re.compile(r"\bpath-in\b"))
