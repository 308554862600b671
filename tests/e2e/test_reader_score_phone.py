"""A score read from each side, at 360 px: the player who lost reads "förlorade · 0–4" on
her private link's page, the winner "vann · 4–0"; the bracket keeps the match's order.

Elements are found by id, name and class, never by English text (the site is Swedish).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matches.results import game_result_enter
from tests.e2e.conftest import shoot
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.private_links import private_link_issue, private_link_token

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_player_reads_the_score_from_their_side(live_server: Any, new_page: Any) -> None:
    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    for number in (1, 2):
        game_result_enter(
            match=match,
            number=number,
            result=won("W", "jan"),
            by=s.referee,
            starter="W" if number == 1 else None,
        )
    seen = {}
    for player in (one, two):
        link = private_link_issue(tournament=s.tournament, player=player, by=s.organiser)
        page = new_page(360, 800)
        page.goto(f"{live_server.url}/p/{private_link_token(link)}/")
        meta = page.locator(f"#match-{match.pk} p.meta")
        expect(meta).to_be_visible()
        seen[player.pk] = " ".join(meta.inner_text().split())
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shoot(page, f"reader-score-{'winner' if player == one else 'loser'}")
    assert seen[one.pk].endswith("vann · 4–0"), seen
    assert seen[two.pk].endswith("förlorade · 0–4"), seen
