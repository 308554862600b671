"""Why a match has nothing to play, in the reader's language through gettext (one way of
translating, as every page string): a bye, a walkover, players not known yet."""

from __future__ import annotations

import pytest

from matches.models import MatchState
from matches.selectors import match_explanation
from matches.services import match_walkover
from tests.tournaments.helpers import drawn, players_of

pytestmark = pytest.mark.django_db


def test_a_bye_a_walkover_and_a_waiting_match_in_both_languages() -> None:
    setup = drawn(3, lengths=[3, 3])  # four slots: one bye
    matches = setup.tournament.matches.order_by("round__number", "slot")
    bye = next(m for m in matches if m.state == MatchState.BYE)
    final = next(m for m in matches if m.state == MatchState.WAITING)
    ready = next(m for m in matches if m.state == MatchState.READY)
    # The final waits for the first round's other match.
    assert match_explanation(match=final, games=[], lang="sv") == [
        "Matchens spelare är inte kända än."
    ]
    winner = players_of(ready)[0]
    match_walkover(match=ready, winner=winner, by=setup.organiser, reason="no show")
    ready.refresh_from_db()
    assert match_explanation(match=bye, games=[], lang="en") == [
        f"{bye.player1} advances with a bye."
    ]
    assert match_explanation(match=bye, games=[], lang="sv") == [
        f"{bye.player1} går vidare utan match (frirond)."
    ]
    assert match_explanation(match=ready, games=[], lang="en") == [f"{winner} wins by walkover."]
    assert match_explanation(match=ready, games=[], lang="sv") == [f"{winner} vinner på walkover."]
