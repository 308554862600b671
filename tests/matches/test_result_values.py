"""A result crosses the site's edges once (``matches.result_values``) and is stored and read
back through the one pair of the result columns' model (``ResultColumns``)."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ValidationError
from engine.types import Side
from games.results import ResultValue
from matches.models import Game, GameReport, GameResult, result_columns
from matches.result_values import result_value_from, result_wire

FULL = ResultValue(
    winner=1, outcome="resign", pattern="", munk=False, cube=4, conceded="gammon", game_type=""
)


@pytest.mark.parametrize(("winner", "seat"), [("W", 0), ("B", 1), (Side.WHITE, 0), (Side.BLACK, 1)])
def test_the_winner_is_a_side_or_its_letter_and_becomes_a_seat(winner: Any, seat: int) -> None:
    assert result_value_from({"winner": winner, "outcome": "jan"}).winner == seat


def test_fields_left_out_or_empty_are_not_set() -> None:
    sent = {"winner": "W", "outcome": "jan", "pattern": None, "cube": None, "conceded": ""}
    assert result_value_from(sent) == ResultValue(winner=0, outcome="jan")


def test_the_fields_a_game_reads_are_kept() -> None:
    sent = {"winner": "B", "outcome": "resign", "cube": 4, "conceded": "gammon", "note": "x"}
    assert result_value_from(sent) == FULL
    brade = {"winner": "W", "outcome": "vackert_spel", "pattern": "trappspel", "munk": True}
    assert result_value_from(brade) == ResultValue(
        winner=0, outcome="vackert_spel", pattern="trappspel", munk=True
    )


@pytest.mark.parametrize("winner", [None, "", "X", 0])
def test_a_winner_that_is_no_side_is_refused(winner: Any) -> None:
    with pytest.raises(ValidationError, match="the winner is W or B"):
        result_value_from({"winner": winner, "outcome": "jan"})


def test_the_wire_form_reads_back_as_the_same_result() -> None:
    wire = result_wire(FULL)
    assert wire == {
        "winner": "B",
        "outcome": "resign",
        "pattern": None,
        "munk": False,
        "cube": 4,
        "conceded": "gammon",
        "game_type": None,
    }
    assert result_value_from(wire) == FULL


@pytest.mark.parametrize("model", [Game, GameResult, GameReport])
def test_each_result_table_stores_and_reads_the_same_value(model: Any) -> None:
    row = model()
    row.result_store(FULL)
    assert row.result_value() == FULL
    assert {name: getattr(row, name) for name in result_columns(FULL)} == result_columns(FULL)
    assert row.winner == "B"
