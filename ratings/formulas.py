"""The registry of rating formulas: register, find by key, list.

A ``core.registry.Registry``, as the games' and the formats' are: a formula's module
registers its formula when it is imported (``register(Formula(...))`` at its end), and
callers ask the registry — ``formula_for(book.formula)`` — never import a formula by
name. A third formula is one module (a class with ``key``, ``name``, ``summary`` and
``match_change``: ``ratings.formula.RatingFormula``) and one line in
:data:`BUILTIN_MODULES`.

:data:`DEFAULT_FORMULA` is FIBS: the formula every rating list used before there was a
choice, and the one a list uses unless it chooses another.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from core.registry import Registry
from ratings.errors import RatingValueError
from ratings.formula import RatingFormula

__all__ = [
    "BUILTIN_MODULES",
    "DEFAULT_FORMULA",
    "FORMULAS",
    "UnknownFormulaError",
    "choices",
    "formula_for",
    "formula_keys",
    "formulas",
    "register",
    "unregister",
]

BUILTIN_MODULES = ("ratings.fibs", "ratings.danish")
DEFAULT_FORMULA = "fibs"


class UnknownFormulaError(RatingValueError):
    """No formula is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no rating formula {key!r}; known formulas: {', '.join(known)}")
        self.key = key


# The site's one registry mechanism (``core.registry``); a key fits the stored column (16).
FORMULAS: Registry[RatingFormula] = Registry(
    what="a rating formula", builtin=BUILTIN_MODULES, unknown=UnknownFormulaError, key_length=16
)
register = FORMULAS.register
unregister = FORMULAS.unregister


def formulas() -> tuple[RatingFormula, ...]:
    """Every registered formula: the built-in ones first (FIBS, then the Danish one)."""
    return FORMULAS.all()


def formula_keys() -> tuple[str, ...]:
    """The keys of :func:`formulas`, in its order."""
    return tuple(formula.key for formula in formulas())


def formula_for(key: str) -> RatingFormula:
    """The formula registered under ``key``; :class:`UnknownFormulaError` names the known
    ones."""
    return FORMULAS.get(key)


def choices() -> tuple[tuple[str, str], ...]:
    """``(key, name)`` pairs in :func:`formulas` order, for a model field's or a form's
    choices (the edge translates the names)."""
    return tuple((formula.key, formula.name) for formula in formulas())
