"""An illegal backgammon move accepted at the table (seed 002, "Ugyldige slag og ulovlige
ryk": the opponent lets it stand or has it corrected), through the turn API: refused
first with its reason and ``acceptable``, then posted again with ``accept_illegal`` and
stored as played; corrected with the same ``seq``; idempotent; never for a move that
cannot be carried out; refused in bräde, whose rules have no such acceptance."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import GameRecordSubmission
from scoresheets.models import LiveTurn
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db

# Player 0 opens with 5-2 and plays 13/8 13/10: the 3 is no die of the roll.
OPENING = [5, 2]
WRONG_COUNT = [[13, 8], [13, 10]]


def _table(game: str = "backgammon", length: int = 3) -> Table:
    s = drawn(2, lengths=[length], game=game)
    table = Table(client_for(s.referee), match_of(s.tournament, 1, 0).pk)
    assert table.start().status_code == 201
    return table


@pytest.fixture
def opened() -> Table:
    """A backgammon game after its opening roll: player 0 plays 5-2."""
    table = _table()
    assert table.post("start", dice=OPENING).status_code == 201
    assert table.state["phase"] == "move" and table.state["to_move"] == 0
    return table


def _stored(table: Table) -> list[LiveTurn]:
    return list(LiveTurn.objects.filter(match_id=table.match).order_by("seq"))


def _count(state: dict[str, Any], side: int, point: int) -> int:
    """``side``'s checkers on ``point`` of the state's board (player 0's numbering)."""
    for stack in state["board"]["points"]:
        if stack["side"] == side and stack["point"] == point:
            return int(stack["count"])
    return 0


def test_an_illegal_play_is_refused_with_its_reason_then_accepted_as_played(
    opened: Table,
) -> None:
    refused = opened.post("play", steps=WRONG_COUNT)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "illegal_play"
    assert error["acceptable"] is True and "fields" not in error
    assert error["message"] == (
        "52: 13/8 13/10 is not a legal play: 13/10 moves 3 pips, and no die left shows that "
        "(dice left: 2)"
    )
    assert len(_stored(opened)) == 1  # nothing stored: the opponent decides
    assert opened.state["rules"]["accept_illegal"] is True

    accepted = opened.post("play", steps=WRONG_COUNT, accept_illegal=True)
    assert accepted.status_code == 201, accepted.content
    state = accepted.json()
    last = state["turns"][-1]
    assert last["illegal"] is True
    assert last["steps"] == WRONG_COUNT and last["text"] == "52: 13/8 13/10"
    # the checkers moved as written, and the opponent is on roll
    assert (_count(state, 0, 13), _count(state, 0, 8), _count(state, 0, 10)) == (3, 4, 1)
    assert state["to_move"] == 1 and state["phase"] == "roll"
    assert [t.illegal for t in _stored(opened)] == [False, True]
    # read again (the turns replayed from the database): the same
    again = opened.get().json()
    assert again["turns"][-1]["illegal"] is True and again["board"] == state["board"]


def test_a_refused_illegal_play_is_corrected_with_the_same_seq(opened: Table) -> None:
    assert opened.post("play", steps=WRONG_COUNT).status_code == 400
    corrected = opened.post("play", steps=[[13, 8], [13, 11]])
    assert corrected.status_code == 201
    assert corrected.json()["turns"][-1]["illegal"] is False
    assert corrected.json()["seq"] == 2


def test_an_accepted_illegal_play_sent_again_is_stored_once(opened: Table) -> None:
    assert opened.post("play", steps=WRONG_COUNT, accept_illegal=True).status_code == 201
    again = opened.post("play", steps=WRONG_COUNT, accept_illegal=True, seq=2)
    assert again.status_code == 200
    assert again.json()["seq"] == 2
    assert len(_stored(opened)) == 2
    # the same seq without the acceptance is other content: a conflict
    other = opened.post("play", steps=WRONG_COUNT, seq=2)
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "live_conflict"


@pytest.mark.parametrize(
    "steps",
    [
        [[12, 7], [13, 11]],  # no checker of player 0 on 12
        [[8, 1], [13, 11]],  # point 1 is held by the opponent's two checkers
    ],
)
def test_only_a_move_that_can_be_carried_out_is_acceptable(
    opened: Table, steps: list[list[int]]
) -> None:
    refused = opened.post("play", steps=steps)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "illegal_play" and "acceptable" not in error
    forced = opened.post("play", steps=steps, accept_illegal=True)
    assert forced.status_code == 400
    assert forced.json()["error"]["code"] == "illegal_play"
    assert len(_stored(opened)) == 1
    # the line drawn: a wrong count, which can be carried out, is accepted
    assert opened.post("play", steps=WRONG_COUNT, accept_illegal=True).status_code == 201


def test_accepting_a_legal_play_records_it_as_legal(opened: Table) -> None:
    response = opened.post("play", steps=[[13, 8], [13, 11]], accept_illegal=True)
    assert response.status_code == 201
    assert response.json()["turns"][-1]["illegal"] is False


def test_only_a_play_is_accepted_as_played(opened: Table) -> None:
    assert opened.post("play", steps=[[13, 8], [13, 11]]).status_code == 201
    response = opened.post("double", accept_illegal=True)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "accept_illegal_play_only"
    assert len(_stored(opened)) == 2


@pytest.mark.parametrize(
    ("dice", "steps"),
    [
        ([6, 4], [[1, 7], [1, 5]]),  # a legal play: the flag alone is refused
        ([3, 3], [[1, 4], [1, 4], [4, 7], [4, 7]]),  # R5.3: a band on 4 and 7
    ],
)
def test_brade_refuses_to_accept_an_illegal_play(dice: list[int], steps: list[list[int]]) -> None:
    table = _table("brade")
    assert table.post("start", dice=[2, 5]).status_code == 201
    response = table.post("play", dice=dice, steps=steps, accept_illegal=True)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "accept_illegal_unsupported"
    assert len(_stored(table)) == 1
    assert table.get().json()["rules"]["accept_illegal"] is False


def test_the_games_record_writes_it_as_played_and_warns_of_it(opened: Table) -> None:
    """The end of the game: the record holds the move as written, its report (stored
    verified) warns of it on its line, the verdict says the opponent accepted it."""
    assert opened.post("play", steps=WRONG_COUNT, accept_illegal=True).status_code == 201
    assert opened.post("resign", resign_value=1).status_code == 201  # player 1 resigns
    sub = GameRecordSubmission.objects.get(match_id=opened.match)
    lines = sub.text.splitlines()
    (warning,) = sub.report["warnings"]
    assert lines[warning["line"] - 1].split() == ["1)", "52:", "13/8", "13/10"]
    assert warning["code"] == "bg.turn.illegal_stands"
    assert warning["params"] == {"dice": "52", "moves": "13/8 13/10"}
    assert [v["code"] for v in sub.report["verdict"]] == [
        "verdict.recorded_live",
        "verdict.accepted_live",
    ]
    assert "1 illegal move was accepted as played by the opponent" in sub.message
