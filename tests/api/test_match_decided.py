"""A game entered after the match was decided is a 409 that says so (not "someone was first")."""

from __future__ import annotations

import pytest

from matches.services import game_result_enter
from tests.api.conftest import client_for
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db


def test_a_game_after_the_decision_is_refused_as_match_decided() -> None:
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    for number in (1, 2):  # 2–0 in a best of 3: decided after game 2 (S4)
        game_result_enter(match=match, number=number, result=won("W", "jan"), by=setup.referee)
    api = client_for(setup.referee)
    url = f"/api/matches/{match.pk}/games/"
    for number in (3, 5):
        r = api.post(url, {"number": number, "winner": "B", "outcome": "jan"})
        assert r.status_code == 409
        error = r.json()["error"]
        assert error["code"] == "match_decided"
        assert error["message"] == (
            f"The match was decided after game 2 (winner: {match.player1}); "
            "no more games are entered."
        )
        assert error["match"]["state"] == "decided"
    # A game that exists stays that game's conflict: who entered it, and what.
    r = api.post(url, {"number": 2, "winner": "B", "outcome": "jan"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_exists"
    assert "Game 2 was entered already by" in r.json()["error"]["message"]
    assert match.games.count() == 2
