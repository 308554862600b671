"""The big screen in Chromium at 1920×1080, in Swedish: one panel at a time (the pairings
by table, then the standings), nothing scrolls, the type is large enough to be read from
three metres (measured: the names' rendered size), and a result entered while the screen
is up appears on it without a reload. Screenshots: ``screen-1920-*.png``."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from matches.models import Match, MatchState
from matches.services import game_result_enter
from tests.e2e.conftest import shoot
from tests.results import won
from tests.tournaments.test_round_robin import group, win

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anna-Karin Östergren-Wahlström",
    "Bertil Lindqvist",
    "Cecilia Åkerberg",
    "Dragan Petrović",
    "Eva Nyström",
    "Fredrik Öberg",
    "Gunilla Ek",
    "Hassan Al-Rashid",
    "Ingrid Sjöberg",
    "Johan Ås",
]

# Large enough from three metres: a capital letter of at least ~2.3 cm on a 42" TV
# (93 cm wide at 1920 px) is 48 px; the names are asked to be at least 44 px.
NAME_MIN_PX = 44


def _shown(page: Any) -> list[int]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('.panel'))"
        ".filter(p => p.offsetParent !== null).map(p => +p.dataset.panel)"
    )


def _show(page: Any, url: str, index: int) -> None:
    """Open the screen with panel ``index`` pinned (``?panel=N``: no rotation)."""
    page.goto(f"{url}?panel={index}")
    assert _shown(page) == [index]


def test_the_screen_at_1920_shows_one_large_panel_at_a_time_and_updates_itself(
    live_server: Any, new_page: Any
) -> None:
    t, referee, players = group(len(NAMES))
    for player, name in zip(players, NAMES, strict=True):
        player.name = name
        player.save()
    played = list(
        Match.objects.filter(round__tournament=t, round__number=1)
        .exclude(state=MatchState.BYE)
        .order_by("table")
    )
    for m in played[:3]:
        assert m.player1_id is not None
        win(m, m.player1_id, referee)
    going = played[3]
    game_result_enter(match=going, number=1, result=won("B", "jan"), by=referee)

    base = live_server.url
    page = new_page(1920, 1080)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])
    url = f"{base}/tournaments/{t.pk}/screen/"
    page.goto(url)
    assert len(_shown(page)) == 1  # the script shows one panel at a time
    panels = page.locator(".panel").count()
    assert panels == 3  # the pairings, the standings in two pages

    _show(page, url, 0)
    pairings = page.locator(".panel-pairings")
    assert "Omgång 1" in pairings.locator("h2").inner_text()
    assert "Bord" in pairings.inner_text()
    size = page.evaluate(
        "() => Math.min(...Array.from(document.querySelectorAll('.panel.shown td.name'))"
        ".map(td => parseFloat(getComputedStyle(td).fontSize)))"
    )
    assert size >= NAME_MIN_PX, size
    fits = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert fits[0] <= 1920 and fits[1] <= 1080, fits
    shoot(page, "screen-1920-pairings")

    _show(page, url, 1)
    standings = page.locator(".panel-standings").first
    assert "Tabell" in standings.locator("h2").inner_text()
    fits = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert fits[0] <= 1920 and fits[1] <= 1080, fits
    shoot(page, "screen-1920-standings")

    # A result entered now reaches the screen by its own polling (every 10 s), no reload.
    _show(page, url, 0)
    page.evaluate("() => { window.notReloaded = true; }")
    assert going.player2 is not None
    row = page.locator(".panel-pairings tr", has_text=going.player2.name)
    assert "spelas" in row.inner_text()
    game_result_enter(match=going, number=2, result=won("B", "jan"), by=referee)
    page.locator(".panel-pairings tr.state-decided", has_text=going.player2.name).wait_for(
        timeout=25_000
    )
    assert "spelas" not in row.inner_text()
    assert page.evaluate("() => window.notReloaded") is True


def test_a_knockouts_screen_shows_its_bracket_in_large_type(
    live_server: Any, new_page: Any
) -> None:
    from tests.tournaments.helpers import drawn

    s = drawn(16, lengths=[3, 3, 3, 3])
    players = list(s.players)
    for player, name in zip(players, NAMES + NAMES, strict=False):
        player.name = name
        player.save()
    base = live_server.url
    page = new_page(1920, 1080)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])
    url = f"{base}/tournaments/{s.tournament.pk}/screen/"
    page.goto(url)
    kinds = page.evaluate(
        "() => Array.from(document.querySelectorAll('.panel')).map(p => p.className)"
    )
    assert ["bracket" in k for k in kinds] == [False, True]
    _show(page, url, 1)
    columns = page.locator(".panel.shown .bracket .col").count()
    assert columns == 4  # eight matches, then four, two and the final
    size = page.evaluate(
        "() => Math.min(...Array.from(document.querySelectorAll('.panel.shown .line'))"
        ".map(el => parseFloat(getComputedStyle(el).fontSize)))"
    )
    assert size >= 32, size  # a column of eight: the bracket's smallest type
    fits = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    shoot(page, "screen-1920-bracket")
    assert fits[0] <= 1920 and fits[1] <= 1080, fits
