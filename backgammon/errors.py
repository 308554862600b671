"""The backgammon engine's error types. All subclass ``ValueError`` (like ``engine.errors``).

Each carries the error *kind* used in replay reports, the game number and the line number
(1-based, in the record text) where known, and its message: a coded :class:`Msg`
(``backgammon.messages``) whose English text, citing the seed's section, is ``message``.
"""

from __future__ import annotations

from typing import ClassVar

from backgammon.messages import MESSAGES
from engine.messages import Msg


class BackgammonError(ValueError):
    """Base of every error the backgammon engine raises on bad input or illegal play."""

    kind: ClassVar[str] = "illegal"

    def __init__(
        self,
        message: Msg | str,
        *,
        game: int | None = None,
        turn: int | None = None,
        line: int | None = None,
    ) -> None:
        coded = message if isinstance(message, Msg) else Msg.plain(message)
        assert coded.code == "text" or coded.code in MESSAGES, coded.code
        super().__init__(coded.text())
        self.msg = coded
        self.message = coded.text()
        self.game = game
        self.turn = turn
        self.line = line

    def located(
        self, *, game: int | None = None, turn: int | None = None, line: int | None = None
    ) -> BackgammonError:
        """The same error with game/turn/line filled in where they were unknown."""
        return type(self)(
            self.msg,
            game=self.game if self.game is not None else game,
            turn=self.turn if self.turn is not None else turn,
            line=self.line if self.line is not None else line,
        )

    def to_dict(self, *, coded: bool = False) -> dict[str, object]:
        """The report's error; ``coded`` adds the message's ``code`` and ``params`` (the
        stored report keeps them so that pages render it in their reader's language)."""
        out: dict[str, object] = {
            "kind": self.kind,
            "game": self.game,
            "turn": self.turn,
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
        if self.turn is not None:
            where.append(f"turn {self.turn}")
        if self.line is not None:
            where.append(f"line {self.line}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.message}"


class PositionError(BackgammonError):
    """A position, Position ID or Match ID that cannot exist (kind ``syntax``)."""

    kind = "syntax"


class RecordSyntaxError(BackgammonError):
    """The ``.mat`` text is malformed (kind ``syntax``)."""

    kind = "syntax"


class ImpossibleMoveError(BackgammonError):
    """A move that cannot be carried out at all: no checker there, no such point, a point
    held by two or more opposing checkers (kind ``illegal``)."""

    kind = "illegal"


class CubeError(BackgammonError):
    """A cube action out of turn, a double in the Crawford game, a take with no double…"""

    kind = "cube"


class ResultMismatchError(BackgammonError):
    """A ``Wins N points`` that differs from what the play and the cube give."""

    kind = "result_mismatch"


class ScoreMismatchError(BackgammonError):
    """A game's score line that differs from the score the earlier games give."""

    kind = "score_mismatch"


class MatchError(BackgammonError):
    """A match-level breach: a game after the match was decided, a match length out of
    range (kind ``match``, as bräde's match errors)."""

    kind = "match"


class ResultEntryError(BackgammonError):
    """An entered game result that cannot be: a cube value that is not a power of two, a
    resignation of more than a backgammon, a drop with a resignation level… (kind
    ``result``)."""

    kind = "result"


class IncompleteGameError(BackgammonError):
    """A game that neither ends by its play nor by a drop or resignation."""

    kind = "incomplete"


class UnsupportedFormatError(BackgammonError):
    """A file in a format the site recognises but does not read (eXtreme Gammon's ``.xg``,
    BGBlitz's ``.bgf``, a text export with analysis): kind ``format``, so that the report
    names the format instead of calling the file a broken record."""

    kind = "format"
