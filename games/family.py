"""The game family protocol: what every game gives the rest of the site.

A family provides, from its own pure package:

- ``key`` (``brade``, ``backgammon``, ``kungabrade``): the code a tournament stores;
  ``name``: its English display name (the pages translate it with gettext, the key is the
  stable code).
- ``vocabulary``: its outcome words (how a game is won), the words that qualify an outcome
  (bräde's patterns and munk) and its game types (Kungabräde), as :class:`Term` codes with
  names.
- ``records``: the record formats it reads and writes (:class:`RecordFormat`; none for
  Kungabräde).
- ``replay``: its replay (:class:`Replayer`), or None when the game has none (Kungabräde);
  ``detect(text)``: how sure the family is, from 0 to 1, that a record is its own (the
  replay command's content detection).
- ``match_scoring(settings)``: the match scoring for one match's settings
  (:class:`games.results.MatchScoring`).
- ``board``: how a position becomes a :class:`games.board.BoardPicture`
  (:class:`BoardDrawing`), or None.
- What a tournament's pages and forms need to know, so the site never asks which game it
  is: ``length_unit`` (a match length counts ``games``, best of an odd n, or ``points``);
  ``loser_starts`` (the loser of a game starts the next and game 1's starter is asked
  for, bräde's R2/S5); ``options`` (the tournament fields the game reads: rule set,
  add-ons, scale, resignation policy); ``result_fields`` (what a result entry takes
  besides winner and outcome); ``tiebreak_scales`` (the scales on which a match carries
  tiebreak points, bräde's skiljepoäng); ``cube_limit(settings, score)``, the highest
  cube a game at this score can use (None for a game without a cube);
  ``record_format(text)``, which of its record formats a text is written in;
  ``describe(result)``, a result in words; and ``explain(settings, results, names=)``,
  sentences (coded messages) on where a match stands.

Shaped after python-chess's variants (one class per variant, found by name) and Django's
registries (a module registers what it provides; callers ask the registry). Pure: imports
nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.messages import Msg
from games.board import BoardPicture
from games.results import MatchScoring, MatchSettings, ResultValue

__all__ = [
    "BoardDrawing",
    "GameFamily",
    "QualifiedOutcome",
    "RecordFormat",
    "ReplayOutcome",
    "Replayer",
    "Term",
    "Vocabulary",
]

R = TypeVar("R")
S_contra = TypeVar("S_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Term:
    """A word of a game: a stable ``code`` (stored, sent in the API) and its ``name`` for
    people. ``translate`` is False for the game's own Swedish words, which stay as they
    are in every language (hemspel, sprängjan, Slagfält); True for English names the
    pages translate with gettext (``gammon``, ``castle taken``)."""

    code: str
    name: str
    translate: bool = True


@dataclass(frozen=True, slots=True)
class QualifiedOutcome:
    """An outcome with the qualifiers it carries: bräde's vackert spel ``pattern`` (R12)
    and ``munk`` (R11); codes of the family's vocabulary."""

    outcome: str
    pattern: str = ""
    munk: bool = False


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A family's words: ``outcomes`` (how a game is won), ``qualifiers`` (words that
    qualify an outcome: bräde's vackert spel patterns and munk) and ``game_types``
    (Kungabräde's kinds of game). ``qualified`` lists every outcome with each set of
    qualifiers the game's rules allow it (bräde: vackert spel with each pattern, munk with
    hemspel and vackert spel), in the order an entry offers them; empty for a game whose
    outcomes carry no qualifiers."""

    outcomes: tuple[Term, ...]
    qualifiers: tuple[Term, ...] = ()
    game_types: tuple[Term, ...] = ()
    qualified: tuple[QualifiedOutcome, ...] = ()

    def outcome(self, code: str) -> Term:
        """The outcome with this code; ``KeyError`` for an unknown one."""
        return _find(self.outcomes, code, "outcome")

    def qualifier(self, code: str) -> Term:
        return _find(self.qualifiers, code, "qualifier")

    def game_type(self, code: str) -> Term:
        return _find(self.game_types, code, "game type")

    @property
    def outcome_codes(self) -> tuple[str, ...]:
        return tuple(term.code for term in self.outcomes)


def _find(terms: tuple[Term, ...], code: str, what: str) -> Term:
    for term in terms:
        if term.code == code:
            return term
    raise KeyError(f"no {what} {code!r}; known: {', '.join(t.code for t in terms) or 'none'}")


@dataclass(frozen=True, slots=True)
class RecordFormat(Generic[R]):
    """One record format of a family: ``read`` text into the family's record type,
    ``write`` one back (either may be None when the family only reads or only writes)."""

    name: str
    suffix: str
    read: Callable[[str], R] | None
    write: Callable[[R], str] | None


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """What a replay found, ready to print: ``report`` is the JSON report (``--json``),
    ``lines`` the text report, one string per line."""

    family: str
    valid: bool
    report: dict[str, Any]
    lines: tuple[str, ...]


class Replayer(Protocol):
    """A family's replay of a record file (any of its formats, found by content)."""

    @property
    def max_bytes(self) -> int:
        """The largest record it replays; a larger one is reported as a syntax error, so
        a reader needs at most one byte more."""
        ...

    def run(self, data: bytes) -> ReplayOutcome:
        """Replay ``data``; never raises on bad input (the error goes in the report)."""
        ...

    def decode(self, data: bytes) -> str:
        """The text of a record file, decoded as :meth:`run` (and so ``manage.py replay``)
        decodes it, for a site that stores the text it was sent; ``UnicodeDecodeError``
        for bytes this game's records cannot be."""
        ...


class BoardDrawing(Protocol[S_contra]):
    """How a family's position (its replay's state, of the family's own type) becomes a
    :class:`BoardPicture` seen from ``view``'s seat."""

    @property
    def layout(self) -> str: ...

    def picture(self, state: S_contra, *, view: int = 0) -> BoardPicture: ...


class GameFamily(Protocol):
    """One game behind the seam (see the module docstring)."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def vocabulary(self) -> Vocabulary: ...

    @property
    def records(self) -> tuple[RecordFormat[Any], ...]: ...

    @property
    def replay(self) -> Replayer | None: ...

    @property
    def board(self) -> BoardDrawing[Any] | None: ...

    def detect(self, text: str) -> float:
        """How sure the family is (0 to 1) that ``text`` is one of its records."""
        ...

    def match_scoring(self, settings: MatchSettings) -> MatchScoring:
        """The scoring of a match with these settings; :class:`ScoringError` (kind
        ``match``) for settings the game refuses (a length out of range)."""
        ...

    @property
    def length_unit(self) -> str:
        """``games`` (a match is the best of an odd number of games) or ``points``."""
        ...

    @property
    def loser_starts(self) -> bool:
        """Whether the loser of a game starts the next (and game 1's starter is recorded)."""
        ...

    @property
    def options(self) -> tuple[str, ...]:
        """The tournament settings the game reads (``rules``, ``addons``, ``scale``,
        ``resignation_policy``); the others are left at their defaults."""
        ...

    @property
    def tiebreak_scales(self) -> tuple[str, ...]:
        """The scales (``MatchSettings.scale``) on which a match also carries tiebreak
        points (bräde's skiljepoäng, scoring.md S2/S3: ``ww`` and ``ny1``); empty for a game
        without them, whose tournaments may not rank by them."""
        ...

    def cube_limit(self, settings: MatchSettings, score: tuple[int, int]) -> int | None:
        """The highest cube value a game can use in a match with these settings at
        ``score`` (backgammon: past it the cube is dead), so that an entry asks to confirm
        a larger one; None for a game without a cube."""
        ...

    def record_format(self, text: str) -> RecordFormat[Any] | None:
        """Which of :attr:`records` ``text`` is written in (the archive names a record's
        file by it); None for a game without records."""
        ...

    @property
    def result_fields(self) -> tuple[str, ...]:
        """The :class:`ResultValue` fields a result entry takes besides winner and outcome
        (``pattern``, ``munk``, ``cube``, ``conceded``, ``game_type``)."""
        ...

    def describe(self, result: ResultValue) -> str:
        """A result in words, as the game's records write it (``White jan``,
        ``player 2 gammon, cube 2``): for messages and the audit trail."""
        ...

    def explain(
        self,
        settings: MatchSettings,
        results: Sequence[ResultValue],
        *,
        names: tuple[str, str],
    ) -> tuple[Msg, ...]:
        """Sentences on where a match with these results stands, as coded messages that
        the edge words in the reader's language (``matches.explain_text``)."""
        ...
