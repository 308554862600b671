"""The engine's error types. All subclass ``ValueError`` (like python-chess).

Each carries the error *kind* of the replay report (game-record.md), the game
number and line number where known, and a plain message that cites the rule.
"""

from __future__ import annotations

from typing import ClassVar


class EngineError(ValueError):
    """Base of every error the engine raises on bad input or illegal play."""

    kind: ClassVar[str] = "illegal"

    def __init__(self, message: str, *, game: int | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game = game
        self.line = line

    def located(self, *, game: int | None = None, line: int | None = None) -> EngineError:
        """The same error with game/line filled in where they were unknown."""
        err = type(self)(
            self.message,
            game=self.game if self.game is not None else game,
            line=self.line if self.line is not None else line,
        )
        return err

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "game": self.game, "line": self.line, "message": self.message}

    def __str__(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.line is not None:
            where.append(f"line {self.line}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.message}"


class RecordSyntaxError(EngineError):
    """The record text or JSON is malformed (kind ``syntax``)."""

    kind = "syntax"


class IllegalPlayError(EngineError):
    """A roll, step, play or resignation breaks a rule (kind ``illegal``)."""

    kind = "illegal"


class ResultMismatchError(EngineError):
    """The claimed ``Result:`` differs from what the play produced."""

    kind = "result_mismatch"


class IncompleteGameError(EngineError):
    """A game neither ends by its play nor carries a result."""

    kind = "incomplete"


class MatchError(EngineError):
    """A match-level breach (scoring.md): even length, resignation over the cap…"""

    kind = "match"
