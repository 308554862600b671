"""The digital scoresheet through its API: a game recorded turn by turn, its result
entered as a verified record, and the next game's starter."""

from __future__ import annotations

import random
from typing import Any

import pytest

from matches.models import Game, GameRecordSubmission, RecordState, ResultSource
from scoresheets.models import LiveGame, LiveTurn
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table, play_game
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> Any:
    s = drawn(2, lengths=[3])
    return s, match_of(s.tournament, 1, 0)


def test_a_brade_game_recorded_to_its_end_is_entered_verified(
    setup: Any, django_capture_on_commit_callbacks: Any
) -> None:
    s, match = setup
    table = Table(client_for(s.referee), match.pk)
    started = table.start()
    assert started.status_code == 201, started.content
    assert table.state["phase"] == "start" and table.state["seq"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        play_game(table, random.Random(3))
    game = Game.objects.get(match=match, number=1)
    assert game.source == ResultSource.RECORD and game.verified
    sub = GameRecordSubmission.objects.get(match=match)
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    live = LiveGame.objects.get(match=match, number=1)
    assert live.outcome is not None
    assert live.outcome["result"]["winner"] == (0 if game.winner == "W" else 1)
    # the next game: started by the loser (R2, S5), its turns numbered on
    state = table.state
    assert state["game_number"] == 2 and state["phase"] == "roll"
    assert state["starter"] == (1 if game.winner == "W" else 0)
    assert state["seq"] == LiveTurn.objects.filter(match=match).count()
