"""Backgammon and Kungabräde tournaments in the browser, at phone and desktop width (issue
13): a referee enters games with the cube (backgammon) or the game type (Kungabräde) in a
few taps, the bracket shows the match score, the match page each game's points, cube and
the Crawford game, the viewer a backgammon board with the cube. No page scrolls sideways at
360 px. Screenshots: test-output/screenshots/{phone,desktop}-bg-*.png and -kb-*.png.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from matches.models import GameRecordSubmission, Match, MatchState, RecordState
from matches.records import game_record_submit
from tests.backgammon.test_mat import XG
from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import DESKTOP, PHONE, WIDTH, _swedish
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.helpers import match_of
from tournaments.models import Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

USER = "domare-bg"


def _tournament(game: str, names: list[str], lengths: list[int]) -> tuple[Tournament, Any]:
    organiser = OrganiserFactory.create(username=USER)
    tournament = tournament_create(
        by=organiser,
        name=f"Sundsvalls öppna i {game} 2027",
        start_date=datetime.date(2027, 5, 1),
        game=game,
    )
    tournament.referees.add(organiser)
    for seed, name in enumerate(names, start=1):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name), seed=seed
        )
    tournament_draw(tournament=tournament, by=organiser, lengths=lengths)
    return tournament, organiser


def _fits(page: Any, where: str) -> None:
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= width["view"], (where, width)


def _visit(page: Any, url: str, name: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    _fits(page, name)
    shoot(page, name)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_backgammon_tournament(live_server: Any, new_page: Any, size: str) -> None:
    tournament, _organiser = _tournament("backgammon", ["Alice", "Bob", "Carl", "Doris"], [3, 5])
    base = live_server.url
    page = new_page(*(PHONE if size == "phone" else DESKTOP))
    _swedish(page, base)
    login(page, base, USER)

    first = match_of(tournament, 1, 0)  # Alice – Doris (seeds 1 and 4)
    enter = f"{base}/matches/{first.pk}/enter/"
    page.goto(enter)
    # Game 1: Alice wins a gammon on a cube of 2 — three taps: winner, cube, how.
    page.locator("label.tap", has_text="Alice").first.click()
    page.locator(".cube label.tap", has_text="2").first.click()
    shoot(page, f"{size}-bg-entry")
    _fits(page, "entry")
    page.get_by_role("button", name="gammon", exact=True).click()
    page.wait_for_url(enter)
    assert "4–0" in page.locator(".bigscore").inner_text()
    # 4 points of 3: the match ends at once.
    assert Match.objects.get(pk=first.pk).state == MatchState.DECIDED

    second = match_of(tournament, 1, 1)  # Bob – Carl, to 3 points
    enter = f"{base}/matches/{second.pk}/enter/"
    page.goto(enter)
    page.locator("label.tap", has_text="Bob").first.click()
    page.get_by_role("button", name="enkelt parti", exact=True).click()  # Swedish page
    page.wait_for_url(enter)
    page.locator("label.tap", has_text="Bob").first.click()
    page.get_by_role("button", name="enkelt parti", exact=True).click()
    page.wait_for_url(enter)
    # Bob is on match point (2 of 3): game 3 is the Crawford game. Carl wins it, then
    # game 4 by a dropped double on a cube of 2: Carl 1 + 2 = 3 takes the match.
    page.locator("label.tap", has_text="Carl").first.click()
    page.get_by_role("button", name="enkelt parti", exact=True).click()
    page.wait_for_url(enter)
    page.locator("label.tap", has_text="Carl").first.click()
    page.locator(".cube label.tap", has_text="2").first.click()
    page.get_by_role("button", name="nekad dubbling", exact=True).click()
    page.wait_for_url(enter)
    decided = Match.objects.get(pk=second.pk)
    assert (decided.points1, decided.points2, decided.crawford_game) == (2, 3, 3)
    assert decided.state == MatchState.DECIDED and decided.winner == decided.player2

    _visit(page, f"{base}/tournaments/{tournament.pk}/", f"{size}-bg-bracket")
    bracket = page.locator("#bracket").inner_text()
    assert "4–0" in bracket and "2–3" in bracket and "till 3 poäng" in bracket

    _visit(page, f"{base}/matches/{second.pk}/", f"{size}-bg-match")
    meta = page.locator("p.meta").first.inner_text()
    assert "Till 3 poäng" in meta and "Crawfordparti: parti 3" in meta
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 4
    assert "Crawford" in rows.nth(2).inner_text()
    assert re.search(r"\b2\b", rows.nth(3).locator("td[data-label=Kub]").inner_text())

    final = match_of(tournament, 2, 0)
    assert (str(final.player1), str(final.player2)) == ("Alice", "Carl")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_backgammon_viewer_draws_the_cube(live_server: Any, new_page: Any, size: str) -> None:
    tournament, organiser = _tournament("backgammon", ["Alice", "Bob"], [3])
    match = match_of(tournament, 1, 0)
    sub = game_record_submit(match=match, text=XG, by=organiser)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.ENTERED, sub.message
    base = live_server.url
    page = new_page(*(PHONE if size == "phone" else DESKTOP))
    _swedish(page, base)
    login(page, base, USER)
    _visit(page, f"{base}/records/{sub.pk}/", f"{size}-bg-record")
    _visit(page, f"{base}/records/{sub.pk}/viewer/?game=1", f"{size}-bg-viewer-start")
    assert page.locator("#board g.cube.centred").count() == 1
    for _ in range(3):  # the roll, the double, the take
        page.keyboard.press("ArrowRight")
    cube = page.locator("#board g.cube")
    assert cube.get_attribute("data-value") == "2" and cube.get_attribute("data-owner") == "0"
    assert "Alice: tar" in page.locator("#viewer-status").inner_text()  # "Takes" in words
    _fits(page, "viewer")
    shoot(page, f"{size}-bg-viewer-cube")
    _visit(page, f"{base}/matches/{match.pk}/", f"{size}-bg-match-from-record")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_kungabrade_tournament(live_server: Any, new_page: Any, size: str) -> None:
    tournament, _organiser = _tournament("kungabrade", ["Astrid", "Birger"], [3])
    match = match_of(tournament, 1, 0)
    base = live_server.url
    page = new_page(*(PHONE if size == "phone" else DESKTOP))
    _swedish(page, base)
    login(page, base, USER)
    enter = f"{base}/matches/{match.pk}/enter/"
    page.goto(enter)
    shoot(page, f"{size}-kb-entry")
    _fits(page, "entry")
    for game_type, outcome in (
        ("Slagfält", "borgen intagen"),
        ("Maktkamp", "alla pjäser förstörda"),
    ):
        page.locator("label.tap", has_text="Astrid").first.click()
        page.locator(".game-type label.tap", has_text=game_type).click()
        page.get_by_role("button", name=outcome, exact=True).click()
        page.wait_for_url(enter)
    decided = Match.objects.get(pk=match.pk)
    assert decided.state == MatchState.DECIDED and (decided.points1, decided.points2) == (2, 0)
    _visit(page, f"{base}/tournaments/{tournament.pk}/", f"{size}-kb-bracket")
    assert "2–0" in page.locator("#bracket").inner_text()
    _visit(page, f"{base}/matches/{match.pk}/", f"{size}-kb-match")
    assert "borgen intagen, Slagfält" in page.locator("table.games").inner_text()
    assert page.get_by_role("link", name="Lämna in partiprotokoll").count() == 0
    response = page.goto(f"{base}/matches/{match.pk}/records/new/")
    assert response is not None and response.status == 403
    assert "Kungabräde har bara resultat" in page.locator("main").inner_text()
