"""The engine's error types. All subclass ``ValueError`` (like python-chess).

Each carries the error *kind* of the replay report (game-record.md), the game
number and line number where known, and its message (``engine.messages``): a stable
``code`` and ``params`` from which the pages render it in their reader's language, and
the English ``message`` that cites the rule (the CLI's and the stored verdict's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Self

from engine.messages import Msg, Param


class InvalidValue(ValueError):
    """A value the engine's types refuse (a bad position, outcome or rule set), with its
    coded message (``msg``) for the record error that wraps it."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.text())
        self.msg = msg


class CodedError(ValueError):
    """Base of the pure engines' errors on a record or a play (bräde's :class:`EngineError`,
    ``backgammon.errors.BackgammonError``): the report's error *kind*, the coded message
    (``msg``, whose English is ``message``) and where it happened, as far as known.

    ``places`` names the locations a game's report gives, in its order: bräde's name the game
    and line, backgammon's also the turn."""

    kind: ClassVar[str] = "illegal"
    places: ClassVar[tuple[str, ...]] = ("game", "line")

    def __init__(
        self,
        message: str | Msg,
        *,
        game: int | None = None,
        turn: int | None = None,
        line: int | None = None,
    ) -> None:
        msg = message if isinstance(message, Msg) else Msg.plain(message)
        self.check(msg)
        text = msg.text()
        super().__init__(text)
        self.msg = msg
        self.message = text
        self.game = game
        self.turn = turn
        self.line = line

    def check(self, msg: Msg) -> None:
        """A subclass's guard on the codes it may carry (none here)."""

    @property
    def code(self) -> str:
        """The message's stable code (``engine.messages.MESSAGES``)."""
        return self.msg.code

    @property
    def params(self) -> Mapping[str, Param]:
        return self.msg.params

    def located(
        self, *, game: int | None = None, turn: int | None = None, line: int | None = None
    ) -> Self:
        """The same error with game/turn/line filled in where they were unknown."""
        return type(self)(
            self.msg,
            game=self.game if self.game is not None else game,
            turn=self.turn if self.turn is not None else turn,
            line=self.line if self.line is not None else line,
        )

    def _where(self) -> dict[str, int | None]:
        where = {"game": self.game, "turn": self.turn, "line": self.line}
        return {place: where[place] for place in self.places}

    def to_dict(self, *, coded: bool = False) -> dict[str, object]:
        """The report's ``error`` object (game-record.md); ``coded`` adds the message's
        ``code`` and ``params`` (kept in the stored report, so that pages can render it
        in their reader's language; the CLI's ``--json`` stays as documented)."""
        out: dict[str, object] = {"kind": self.kind, **self._where(), "message": self.message}
        if coded:
            out.update(self.msg.to_dict())
        return out

    def __str__(self) -> str:
        where = [f"{place} {value}" for place, value in self._where().items() if value is not None]
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.message}"


class EngineError(CodedError):
    """Base of every error the engine raises on bad input or illegal play."""


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
