"""A score read from the reader's side: on a player's own pages (their private link's
page, their home, their player page) their points come first, whichever of the match's
two places they hold ("vann 2–0", "förlorade 0–2"); brackets and lists of matches keep
the match's own order."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tests.web.test_home_pages import as_user, linked, win
from tournaments.private_links import private_link_issue, private_link_token

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def decided() -> tuple[Setup, Match]:
    """Best of 3, the first player wins both games (4–0 in game points: two jan)."""
    s = drawn(2, lengths=[3], results_by="players")
    m = match_of(s.tournament, 1, 0)
    win(m, s.referee, games=2, side="W")
    m.refresh_from_db()
    assert m.points1 == 4 and m.points2 == 0 and m.winner_id == m.player1_id
    return s, m


def _link_page(s: Setup, player: Any) -> str:
    link = private_link_issue(tournament=s.tournament, player=player, by=s.organiser)
    token = private_link_token(link)
    page = (
        Client()
        .get(reverse("web:private_home", args=[token]), HTTP_ACCEPT_LANGUAGE="sv")
        .content.decode()
    )
    return _text(page)


def test_the_private_link_page_reads_the_score_from_its_player(
    decided: tuple[Setup, Match],
) -> None:
    s, m = decided
    one, two = players_of(m)
    assert "förlorade · 0–4" in _link_page(s, two)
    assert "vann · 4–0" in _link_page(s, one)


def test_a_match_being_played_reads_from_the_reader_too() -> None:
    s = drawn(2, lengths=[3], results_by="players")
    m = match_of(s.tournament, 1, 0)
    win(m, s.referee, games=1, side="B")  # the second player leads 2–0 (a jan)
    one, two = players_of(m)
    assert "spelas · 2–0" in _link_page(s, two)
    assert "spelas · 0–2" in _link_page(s, one)


def test_the_home_reads_the_last_results_from_its_player(decided: tuple[Setup, Match]) -> None:
    s, m = decided
    first, second = linked(s, m)
    loser = _text(as_user(second, "sv").get("/home/").content.decode())
    winner = _text(as_user(first, "sv").get("/home/").content.decode())
    assert re.search(r"förlorade mot \S+ .*?0–4", loser), loser
    assert re.search(r"vann mot \S+ .*?4–0", winner), winner


def test_the_player_page_reads_from_that_player(decided: tuple[Setup, Match]) -> None:
    _s, m = decided
    one, two = players_of(m)
    for player, score in ((two, "0–4"), (one, "4–0")):
        page = Client().get(reverse("web:player_detail", args=[player.pk])).content.decode()
        cell = re.search(r'data-label="[^"]*">\s*<a href="[^"]*">([^<]*)</a>', page)
        assert cell is not None and cell.group(1) == score, player.name


def test_the_bracket_keeps_the_matchs_own_order(decided: tuple[Setup, Match]) -> None:
    s, _m = decided
    page = Client().get(reverse("web:tournament_detail", args=[s.tournament.pk]))
    assert '<span class="score">4–0</span>' in page.content.decode()
