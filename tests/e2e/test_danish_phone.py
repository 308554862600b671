"""A backgammon match page in Danish on a phone: at 360 px, with the long names Danish
clubs have, the page (its games table stacked, the cube's Danish column name, the
Crawford game, the explanation) never scrolls sideways, and every word a reader sees is
Danish. Screenshot: test-output/screenshots/phone-da-bg-match.png.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.conf import settings

from matches.models import MatchState
from matches.services import game_result_enter
from tests.e2e.conftest import shoot
from tests.e2e.test_phone_layout import PHONE, WIDTH
from tests.factories import ClubFactory, EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.helpers import match_of
from tests.web.language_words import foreign_words
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Mads Kristian Østergaard-Bækgaard",
    "Anne-Mette Frederiksen-Kjærsgaard",
    "Søren Aabye Kierkegaard-Christiansen",
    "Jens Peter Rasmussen-Vestergaard",
]
CLUB = "Aalborg Backgammonklub og Omegns Brætspilsforening"


def test_a_danish_backgammon_match_fits_a_phone(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="dommer-dk")
    tournament = tournament_create(
        by=organiser,
        name="Danmarksmesterskabet i backgammon for klubhold 2027",
        start_date=datetime.date(2027, 5, 1),
        venue="Aalborg Kongres & Kultur Center, Europa Plads 4, Aalborg",
        game="backgammon",
    )
    club = ClubFactory.create(name=CLUB)
    for seed, name in enumerate(NAMES, start=1):
        player = PlayerFactory.create(name=name, club=club)
        EntryFactory.create(tournament=tournament, player=player, seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[3, 5])
    match = match_of(tournament, 1, 1)  # seeds 2 and 3, to 3 points
    # 2–0 on a cube of 2, Crawford game 2 to player 2, then a dropped double on 2: 2–3.
    for number, (winner, outcome, cube) in enumerate(
        [("W", "single", 2), ("B", "single", 1), ("B", "drop", 2)], start=1
    ):
        game_result_enter(
            match=match, number=number, result=won(winner, outcome, cube=cube), by=organiser
        )
    match.refresh_from_db()
    assert (match.state, match.points1, match.points2) == (MatchState.DECIDED, 2, 3)

    base = live_server.url
    page = new_page(*PHONE)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "da", "url": base}])
    response = page.goto(f"{base}/matches/{match.pk}/")
    assert response is not None and response.status == 200
    page.get_by_text("Stillingen forklaret").click()  # the explanation, opened
    shoot(page, "phone-da-bg-match")
    assert page.locator("html").get_attribute("lang") == "da"
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= width["view"], width
    meta = page.locator("p.meta").first.inner_text()
    assert "Til 3 point" in meta and "Crawfordparti: parti 2" in meta
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 3
    assert "droppet dobling" in rows.nth(2).inner_text()
    assert rows.nth(2).locator("td[data-label=Dobleterning]").inner_text().strip() == "2"
    text = page.locator("main").inner_text()
    assert "nåede 3 point i parti 3 og vandt kampen" in text
    assert "Parti 2 var Crawfordpartiet (ingen dobling)." in text
    assert foreign_words(text, "da", (*NAMES, CLUB, tournament.name, tournament.venue)) == []
