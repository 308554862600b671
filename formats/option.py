"""One tournament option a format may read, declared once as an :class:`OptionSpec`.

An option (a knockout's match for third place, a round robin's groups, a Swiss's number
of rounds, the tiebreak chain, …) is declared once, in ``formats.options``: its key (the
``Tournament`` column and the name of its field in the API and on the creation form), its
kind, its default, its words (English; the edge translates them) and its own check (its
bounds). A format names the options it reads (``Format.options``); everything else follows
the registry: the creation form's fields, the API's fields and their schema, the
normalisation of a tournament's values (an option its format does not read is stored at its
default) and the rules for changing a draft's format.

Anchor: Tabbycat's preferences registry (``options/preferences.py``): every tournament
preference is registered once on ``tournament_preferences_registry`` with its name, its
default, its verbose name, its help text and its validators, and the settings form is
built from the registry. Here a spec is a value, not a class, and the values are stored in
the tournament's own columns (queries filter on them), which a test keeps in step with the
specs (``tests/tournaments/test_option_columns.py``).

Decisions:
- Four kinds: a flag (bool), a number between bounds, a number between bounds that may be
  left empty (``None``: decided later, as a Swiss's rounds are at its start), and the
  tiebreak chain (keys of ``stages.tiebreaks.CHOOSABLE``; left out, the format's usual
  chain, which depends on the game and the format's stage and so is chosen at the edge).
- A number's own check gives a code (:data:`OptionProblem`); its words are the spec's
  (``too_small``, ``too_large``: English, with ``%(min)s``, ``%(max)s`` and ``%(value)s``),
  or the edge's general words when it gives none. Checks across options (groups feeding a
  knockout, a consolation deciding third place) belong to the edge that knows the format's
  stage (``tournaments.format_options``) and run for every format.
- The words are marked with :func:`gettext_noop`, the name ``makemessages`` looks for, so
  the catalogue holds them; the edge translates them with gettext.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

__all__ = ["OptionKind", "OptionProblem", "OptionSpec", "OptionValue", "gettext_noop"]

OptionValue = bool | int | tuple[str, ...] | None
OptionProblem = Literal["too_small", "too_large"]


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks an English message for ``makemessages`` (which knows
    Django's ``gettext_noop`` by name); the edge translates it with gettext."""
    return message


class OptionKind(StrEnum):
    """What values an option takes (module decisions)."""

    FLAG = "flag"
    NUMBER = "number"
    OPTIONAL_NUMBER = "optional_number"
    TIEBREAKS = "tiebreaks"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option (module docstring).

    ``key``: the ``Tournament`` column, the API's and the form's field. ``default``: what a
    tournament stores when its format does not read the option, and what is taken when it
    is left out (but a tiebreak chain left out is the format's usual chain). ``label`` and
    ``help``: the creation form's words; ``description``: the API schema's. ``minimum`` and
    ``maximum``: a number's bounds (also the API's). ``choices``: a tiebreak chain's keys.
    ``older_than_formats``: the option predates the formats, and keeps the place it had
    (after ``is_public`` in the API's objects, among how the tournament is played on the
    creation form) so that no page or answer moves."""

    key: str
    kind: OptionKind
    default: OptionValue
    label: str
    help: str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    too_small: str = ""
    too_large: str = ""
    choices: tuple[str, ...] = ()
    older_than_formats: bool = False

    def __post_init__(self) -> None:
        numbers = (OptionKind.NUMBER, OptionKind.OPTIONAL_NUMBER)
        if (self.kind in numbers) != (self.minimum is not None and self.maximum is not None):
            raise ValueError(f"the option {self.key!r}: a number, and only a number, has bounds")
        if (self.kind == OptionKind.TIEBREAKS) != bool(self.choices):
            raise ValueError(
                f"the option {self.key!r}: a tiebreak chain, and only one, has choices"
            )
        self._check_default()

    def _check_default(self) -> None:
        """A default of the option's kind, within its bounds."""
        match self.kind:
            case OptionKind.FLAG:
                ok = isinstance(self.default, bool)
            case OptionKind.NUMBER:
                ok = _whole(self.default) and self.problem(self.default) is None
            case OptionKind.OPTIONAL_NUMBER:
                ok = self.default is None or (
                    _whole(self.default) and not self.problem(self.default)
                )
            case OptionKind.TIEBREAKS:
                ok = self.default == ()
        if not ok:
            raise ValueError(f"the option {self.key!r} cannot default to {self.default!r}")

    def problem(self, value: OptionValue) -> OptionProblem | None:
        """Why a number is out of the option's bounds, or None (also for a left-out
        optional number, and for the other kinds: a flag is any truth value, a tiebreak
        chain is checked for the game, ``stages.tiebreaks.chain_problem``). A number that
        is not a whole number is a TypeError: the form and the API give whole numbers."""
        if self.minimum is None or self.maximum is None:
            return None
        if value is None and self.kind == OptionKind.OPTIONAL_NUMBER:
            return None
        if not _whole(value):
            raise TypeError(f"the option {self.key!r} is a whole number, not {value!r}")
        assert isinstance(value, int)
        if value < self.minimum:
            return "too_small"
        if value > self.maximum:
            return "too_large"
        return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
