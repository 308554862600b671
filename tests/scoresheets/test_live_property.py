"""Property: random legal games played through the turn API equal the engine's replay of
the same moves — turn by turn the steps the API applied, at the end the board and the
outcome — and the record stored for the game replays valid with the same outcome.

Each example is a new one-game match (so the last state still shows the finished game's
board), for every bräde rule set (board with and without its add-ons) and backgammon
with the cube."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.cube import win_kind
from backgammon.movegen import legal_results
from backgammon.position import CHECKERS, OFF, START, Position
from backgammon.replay import apply_move_text
from backgammon.replay import replay_text as bg_replay
from engine.game import Game
from engine.replay import replay_text
from engine.rules import RuleSet
from engine.types import Side
from games.backgammon import BACKGAMMON_FAMILY, BackgammonBoardState
from games.brade import BRADE_FAMILY, BradeBoardState
from games.live_brade import picture_json
from matches.models import GameRecordSubmission
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table, play_game
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db

SIDES = (Side.WHITE, Side.BLACK)
RULE_SETS = [
    ("talisman", []),
    ("helmfrid", []),
    ("vasa", []),
    ("board", []),
    ("board", ["easy-reentry", "one-die", "double-six"]),
]
PROPERTY = settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _record(match_id: int) -> str:
    sub = GameRecordSubmission.objects.filter(match_id=match_id).order_by("-pk").first()
    assert sub is not None
    return sub.text


def _unchanging(board: dict[str, Any]) -> dict[str, Any]:
    return {k: board[k] for k in ("points", "bar", "off")}


@pytest.mark.parametrize(("rules", "addons"), RULE_SETS)
@PROPERTY
@given(rng=st.randoms(use_true_random=False))
def test_a_brade_game_through_the_api_is_the_engines_replay(
    rules: str, addons: list[str], rng: random.Random
) -> None:
    s = drawn(2, lengths=[1], rules=rules, addons=addons)
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    assert table.start().status_code == 201
    play_game(table, rng, limit=1200)
    state = table.state
    assert state["phase"] == "over" and state["status"] == "finished"
    turns = state["turns"]
    tek = turns[0]["dice"]
    game = Game(
        RuleSet.from_names(rules, addons), starter=Side.WHITE if tek[0] < tek[1] else Side.BLACK
    )
    last = None
    for turn in turns[1:]:
        if turn["action"] == "resign":
            game.resign()
            continue
        assert turn["side"] == SIDES.index(game.to_move)
        result = game.play_turn(tuple(turn["dice"]), [tuple(s) for s in turn["steps"]])
        assert [list(p) for p in result.play.pairs()] == turn["steps"]
        last = result
    assert game.outcome is not None
    assert state["outcome"]["words"] == game.outcome.text()
    assert state["outcome"]["winner"] == SIDES.index(game.outcome.winner)
    picture = BRADE_FAMILY.board.picture(BradeBoardState(game.position), view=0)
    assert _unchanging(state["board"]) == _unchanging(picture_json(picture, None))
    assert last is not None
    report = replay_text(_record(match.pk))
    assert report.valid, report.error
    assert [g.outcome for g in report.games] == [game.outcome]


@PROPERTY
@given(rng=st.randoms(use_true_random=False))
def test_a_backgammon_game_through_the_api_is_the_engines_replay(rng: random.Random) -> None:
    s = drawn(2, lengths=[1], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk, commits=True)
    assert table.start().status_code == 201
    play_game(table, rng, limit=1200)
    state = table.state
    assert state["phase"] == "over"
    boards = [START.me, START.opp]
    cube = 1
    for turn in state["turns"]:
        if turn["action"] == "take":
            cube *= 2
        if turn["action"] != "play":
            continue
        player = turn["side"]
        pos = Position(boards[player], boards[1 - player])
        d1, d2 = turn["dice"]
        moves = tuple(
            f"{'bar' if a == 25 else a}/{'off' if b == OFF else b}" for a, b in turn["steps"]
        )
        after = apply_move_text(pos, moves)
        assert after in legal_results(pos, d1, d2)
        boards[player], boards[1 - player] = after.me, after.opp
    picture = BACKGAMMON_FAMILY.board.picture(BackgammonBoardState((boards[0], boards[1])), view=0)
    assert _unchanging(state["board"]) == _unchanging(picture_json(picture, None))
    outcome = state["outcome"]
    last = state["turns"][-1]
    if last["action"] == "play":  # borne off: single, gammon or backgammon times the cube
        winner = last["side"]
        assert boards[winner][OFF] == CHECKERS
        kind = win_kind(boards[winner], boards[1 - winner])
        assert outcome["points"] == int(kind) * cube and outcome["winner"] == winner
    elif last["action"] == "drop":  # the doubler wins the cube's value before the double
        assert outcome["winner"] == 1 - last["side"] and outcome["points"] == cube
    else:  # a locked game resigned (tests/scoresheets/helpers.play_game): a single game
        assert last["action"] == "resign"
        assert outcome["winner"] == 1 - last["side"] and outcome["points"] == cube
    report = bg_replay(_record(match.pk))
    assert report.valid, report.errors
    assert [(g.winner, g.points) for g in report.games] == [(outcome["winner"], outcome["points"])]
