"""Every page fits a phone: nothing scrolls sideways at 360 px (nor at desktop width), in
Swedish, with the long names Swedish clubs really have; dates never break inside.

Tables become stacked rows on a phone, and the bracket scrolls inside its own box, so the
page itself never gets wider than the screen. Screenshots of every page at both widths
go to test-output/screenshots/ (``phone-*.png``, ``desktop-*.png``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings

from matches import services as match_services
from matches.models import Game, GameRecordSubmission, Match, MatchState, RecordState
from tests.e2e.conftest import login, shoot
from tests.factories import ClubFactory, EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.helpers import match_of
from tournaments.models import Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (360, 740)
DESKTOP = (1280, 900)

NAMES = [
    "Karl-Johan Östergren-Wahlström från Sundsvalls Brädsällskap",
    "Ann-Charlotte Gyllenhammar-Björkqvist",
    "Per-Olof Lindqvist-Åkerberg",
    "Maj-Britt Söderström-Hägglund",
    "Carl-Gustaf Wachtmeister af Johannishus",
    "Eva-Lotta Kristoffersson-Nyström",
    "Lars-Erik Hjalmarsson-Kvarnström",
    "Ulla-Britt Blomqvist-Engström",
]
CLUBS = [
    "Sundsvalls Brädsällskap",
    "Föreningen Brädspelarna i Härnösand och Kramfors",
]
USERNAME = "karl-johan.ostergren-wahlstrom"


def _record(white: str, black: str, *, illegal: bool = False) -> str:
    """A one-game record in which White bears off its last checker (hemspel)."""
    play = "24/off 20/off" if illegal else "24/off"
    return (
        f'[White "{white}"]\n[Black "{black}"]\n[Rules "talisman"]\n\n'
        f"Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: {play}\nResult: White hemspel\n"
    )


@dataclass
class ClubDay:
    running: Tournament
    draft: Tournament
    decided: Match
    playing: Match
    ready: Match
    game: Game
    verified: GameRecordSubmission
    rejected: GameRecordSubmission


def _tournament(by: Any, name: str) -> Tournament:
    return tournament_create(
        by=by,
        name=name,
        start_date=datetime.date(2026, 12, 1),
        end_date=datetime.date(2026, 12, 2),
        venue="Folkets hus, Stora salen, Storgatan 12, Sundsvall",
        third_place_match=True,
    )


def club_day() -> ClubDay:
    """A running 8-player tournament (one match decided, one being played with a verified
    and a rejected record) and a draft one, both run by a user with a long name."""
    organiser = OrganiserFactory.create(username=USERNAME)
    clubs = [ClubFactory.create(name=name) for name in CLUBS]
    running = _tournament(organiser, "Norrländska mästerskapen i bräde för klubblag 2026")
    running.referees.add(organiser)
    for i, name in enumerate(NAMES):
        player = PlayerFactory.create(name=name, club=clubs[i % 2], rating=1500 + i)
        EntryFactory.create(tournament=running, player=player, seed=i + 1 if i < 4 else None)
    tournament_draw(tournament=running, by=organiser, lengths=[3, 3, 5])
    draft = _tournament(organiser, "Höstturneringen i Sundsvalls Brädsällskaps klubblokal")
    for name in NAMES[:3]:
        EntryFactory.create(tournament=draft, player=PlayerFactory.create(name=f"{name} II"))

    decided = match_of(running, 1, 0)
    number = 1
    while decided.state != MatchState.DECIDED:
        match_services.game_result_enter(
            match=decided, number=number, result=won("W", "hemspel"), by=organiser
        )
        decided.refresh_from_db()
        number += 1
    playing = match_of(running, 1, 1)
    game = match_services.game_result_enter(
        match=playing, number=1, result=won("W", "hemspel"), by=organiser
    )
    assert playing.player1 is not None and playing.player2 is not None
    names = (playing.player1.name, playing.player2.name)
    verified = match_services.game_record_submit(match=playing, text=_record(*names), by=organiser)
    rejected = match_services.game_record_submit(
        match=playing, text=_record(*names, illegal=True), by=organiser
    )
    verified.refresh_from_db()
    rejected.refresh_from_db()
    assert verified.state == RecordState.VERIFIED, verified.message
    assert rejected.state == RecordState.INVALID, rejected.message
    return ClubDay(
        running=running,
        draft=draft,
        decided=decided,
        playing=match_of(running, 1, 1),
        ready=match_of(running, 1, 2),
        game=game,
        verified=verified,
        rejected=rejected,
    )


def pages_of(day: ClubDay) -> dict[str, str]:
    """Every page a signed-in organiser and referee reaches, by screenshot name."""
    t, m = day.running.pk, day.playing.pk
    assert day.decided.player1 is not None
    return {
        "home": "/",
        "tournament": f"/tournaments/{t}/",
        "match-decided": f"/matches/{day.decided.pk}/",
        "match-playing": f"/matches/{m}/",
        "player": f"/players/{day.decided.player1.pk}/",
        "referee-entry": f"/matches/{m}/enter/",
        "correction": f"/games/{day.game.pk}/correct/",
        "record-upload": f"/matches/{m}/records/new/",
        "record-verified": f"/records/{day.verified.pk}/",
        "record-rejected": f"/records/{day.rejected.pk}/",
        "viewer": f"/records/{day.verified.pk}/viewer/",
        "manage-running": f"/tournaments/{t}/manage/",
        "manage-draft": f"/tournaments/{day.draft.pk}/manage/",
        "tournament-new": "/tournaments/new/",
        "walkover": f"/matches/{day.ready.pk}/walkover/",
        "account-token": "/account/token/",
        "glossary": "/words/",
    }


# How wide the page is against the screen, and what sticks out (to tell which to fix).
WIDTH = """() => {
  const view = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > view + 0.5)
    .filter(el => !el.closest('.bracket-wrap, .scroll-box'))
    .slice(0, 5)
    .map(el => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
              ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
              + ' ' + Math.round(el.getBoundingClientRect().right));
  return {scroll: document.documentElement.scrollWidth, view, out};
}"""

# Dates shown (2026-12-01, 2026-12-01 10:30) sit in a <time> that is one line box.
BROKEN_DATES = r"""() => {
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const bad = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!/\d{4}-\d{2}-\d{2}/.test(node.textContent)) continue;
    const time = node.parentElement.closest('time');
    if (!time || time.getClientRects().length !== 1) bad.push(node.textContent.trim());
  }
  return bad;
}"""

# In the bracket, a match box stays inside its round's column (a long name is cut short).
SPILLED_MATCHES = """() => [...document.querySelectorAll('.bracket .round')].flatMap(round => {
  const column = round.getBoundingClientRect();
  return [...round.querySelectorAll('.box')]
    .filter(box => box.getBoundingClientRect().right > column.right + 0.5)
    .map(box => box.textContent.trim().split(/\\s+/).slice(0, 3).join(' '));
})"""


def _swedish(page: Any, base: str) -> None:
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])


def _check(page: Any, base: str, name: str, path: str, size: str) -> list[str]:
    response = page.goto(base + path)
    assert response is not None and response.status == 200, (path, response and response.status)
    assert page.locator("html").get_attribute("lang") == "sv", path
    problems = []
    width = page.evaluate(WIDTH)
    if width["scroll"] > width["view"]:
        problems.append(f"{size} {name} ({path}): {width['scroll']} px wide; {width['out']}")
    if spill := page.evaluate(SPILLED_MATCHES):
        problems.append(f"{size} {name} ({path}): bracket matches wider than their round: {spill}")
    if broken := page.evaluate(BROKEN_DATES):
        problems.append(f"{size} {name} ({path}): dates not kept whole: {broken}")
    shoot(page, f"{size}-{name}")
    return problems


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_page_scrolls_sideways(live_server: Any, new_page: Any, size: str) -> None:
    day = club_day()
    base = live_server.url
    width, height = PHONE if size == "phone" else DESKTOP
    problems: list[str] = []

    anonymous = new_page(width, height)
    _swedish(anonymous, base)
    problems += _check(anonymous, base, "login", "/accounts/login/", size)

    page = new_page(width, height)
    _swedish(page, base)
    login(page, base, USERNAME)
    for name, path in pages_of(day).items():
        problems += _check(page, base, name, path, size)
    assert problems == [], "\n".join(problems)


def test_the_bracket_scrolls_in_its_own_box_on_a_phone(live_server: Any, new_page: Any) -> None:
    """On a phone the bracket is wider than the screen: its box scrolls, the page does not."""
    day = club_day()
    page = new_page(*PHONE)
    _swedish(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{day.running.pk}/")
    box = page.locator(".bracket-wrap")
    sizes = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert sizes[0] > sizes[1], sizes  # the bracket does not fit: it scrolls ...
    assert box.evaluate("el => getComputedStyle(el).overflowX") == "auto"  # ... in its box
    box.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    shoot(page, "phone-bracket-scrolled")


def test_a_phone_gets_a_one_line_header_a_bracket_hint_and_the_games_early(
    live_server: Any, new_page: Any
) -> None:
    """At 360 px the header is one line (it took three, ~90 px); a bracket wider than the
    screen says that more rounds are to the right (a desktop that shows it all does not);
    a match page shows its games before the long explanation, which is folded."""
    day = club_day()
    base = live_server.url
    page = new_page(*PHONE)
    _swedish(page, base)
    login(page, base, USERNAME)
    page.goto(f"{base}/tournaments/{day.running.pk}/")
    header = page.locator("header.site").evaluate("el => el.getBoundingClientRect().height")
    assert header <= 48, header
    hint = page.locator("#bracket .scroll-hint")
    assert hint.is_visible() and "Fler omgångar till höger" in hint.inner_text()
    shoot(page, "phone-bracket-hint")
    page.goto(f"{base}/matches/{day.decided.pk}/")
    shoot(page, "phone-match-folded")
    top = "el => el.getBoundingClientRect().top"
    between = page.locator("#games-h").evaluate(top) - page.locator("#standing-h").evaluate(top)
    # The standing (score, verdict, its first sentence) then the games: the rest of the
    # explanation, ~700 px on a phone, is behind "Ställningen förklarad". These names are
    # the longest Swedish clubs have, so the standing alone wraps over several lines.
    assert between < 560, between
    assert not page.locator("details.explanation").evaluate("el => el.open")
    shoot(page, "phone-match-folded")

    desktop = new_page(*DESKTOP)
    _swedish(desktop, base)
    desktop.goto(f"{base}/tournaments/{day.running.pk}/")
    wrap = desktop.locator(".bracket-wrap").first
    fits = wrap.evaluate("el => el.scrollWidth <= el.clientWidth + 2")
    assert desktop.locator("#bracket .scroll-hint").is_visible() is (not fits)
