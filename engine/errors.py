"""The engine's error types. All subclass ``ValueError`` (like python-chess).

Each carries the error *kind* of the replay report (game-record.md), the game
number and line number where known, and its message (``engine.messages``): a stable
``code`` and ``params`` from which the pages render it in their reader's language, and
the English ``message`` that cites the rule (the CLI's and the stored verdict's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.messages import Msg, Param


class InvalidValue(ValueError):
    """A value the engine's types refuse (a bad position, outcome or rule set), with its
    coded message (``msg``) for the record error that wraps it."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.text())
        self.msg = msg


class EngineError(ValueError):
    """Base of every error the engine raises on bad input or illegal play."""

    kind: ClassVar[str] = "illegal"

    def __init__(
        self, message: str | Msg, *, game: int | None = None, line: int | None = None
    ) -> None:
        msg = message if isinstance(message, Msg) else Msg.plain(message)
        text = msg.text()
        super().__init__(text)
        self.msg = msg
        self.message = text
        self.game = game
        self.line = line

    @property
    def code(self) -> str:
        """The message's stable code (``engine.messages.MESSAGES``)."""
        return self.msg.code

    @property
    def params(self) -> Mapping[str, Param]:
        return self.msg.params

    def located(self, *, game: int | None = None, line: int | None = None) -> EngineError:
        """The same error with game/line filled in where they were unknown."""
        err = type(self)(
            self.msg,
            game=self.game if self.game is not None else game,
            line=self.line if self.line is not None else line,
        )
        return err

    def to_dict(self, *, coded: bool = False) -> dict[str, object]:
        """The report's ``error`` object (game-record.md); ``coded`` adds the message's
        ``code`` and ``params`` (kept in the stored report, so that pages can render it
        in their reader's language; the CLI's ``--json`` stays as documented)."""
        out: dict[str, object] = {
            "kind": self.kind,
            "game": self.game,
            "line": self.line,
            "message": self.message,
        }
        if coded:
            out.update(self.msg.to_dict())
        return out

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
