"""The backgammon engine's error types. All subclass ``engine.errors.CodedError`` (a
``ValueError``), the base bräde's engine errors share.

Each carries the error *kind* used in replay reports, the game number and the line number
(1-based, in the record text) where known, and its message: a coded :class:`Msg`
(``backgammon.messages``) whose English text, citing the seed's section, is ``message``.
"""

from __future__ import annotations

from backgammon.messages import MESSAGES
from engine.errors import CodedError
from engine.messages import Msg


class BackgammonError(CodedError):
    """Base of every error the backgammon engine raises on bad input or illegal play; its
    report names the turn too."""

    places = ("game", "turn", "line")

    def check(self, msg: Msg) -> None:
        assert msg.code == "text" or msg.code in MESSAGES, msg.code


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
