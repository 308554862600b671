"""A stand-in for ``engine.replay.replay_text`` whose verdict the test chooses.

It returns objects shaped like ``ReplayReport``/``GameReport`` (valid, error, rules,
tags, games, match, to_dict) so the record pipeline can be tested without
depending on the engine's move checking. The real engine is exercised in
``test_records_engine.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.types import Outcome, Side


@dataclass
class FakeGame:
    number: int
    starter: Side
    outcome: Outcome | None
    turns: int = 10

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "outcome": None if self.outcome is None else self.outcome.text(),
        }


@dataclass
class FakeReport:
    valid: bool
    error: EngineError | None
    rules: str
    tags: dict[str, str]
    games: list[FakeGame]
    match: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "error": None if self.error is None else self.error.to_dict(),
            "rules": self.rules,
            "games": [g.to_dict() for g in self.games],
        }


@dataclass
class FakeReplay:
    """Callable like ``replay_text``; records the texts it was given."""

    results: Sequence[str] = ()
    tags: dict[str, str] = field(default_factory=dict)
    rules: str = "talisman"
    error: EngineError | None = None
    calls: list[str] = field(default_factory=list)

    def __call__(self, text: str) -> FakeReport:
        self.calls.append(text)
        games = []
        starter = Side.WHITE
        for number, result in enumerate(self.results, start=1):
            outcome = Outcome.from_text(result)
            games.append(FakeGame(number, starter, outcome))
            starter = outcome.winner.other
        return FakeReport(
            valid=self.error is None,
            error=self.error,
            rules=self.rules,
            tags=dict(self.tags),
            games=games,
        )
