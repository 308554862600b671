"""A game's result for the tests, written as people say it: ``won("W", "jan")`` is White
(player 1) winning by jan. It goes through the edge's conversion (``matches.result_values``)
the API and the forms use, so a test's result is what a client's would be."""

from __future__ import annotations

from typing import Any

from engine.types import Side
from games.results import ResultValue
from matches.result_values import result_value_from


def won(winner: Side | str = "W", outcome: str = "hemspel", **fields: Any) -> ResultValue:
    """The result of ``winner`` (a side or its letter) winning by ``outcome``, with the
    game's own ``fields`` (``pattern``, ``munk``, ``cube``, ``conceded``, ``game_type``)."""
    return result_value_from({"winner": winner, "outcome": outcome, **fields})
