"""The registry of rating formulas: register, find by key, list.

Shaped as the games' registry (``games.registry``, after ``django.apps.apps`` and
``admin.site.register``): a formula's module registers its formula when it is imported
(``register(FibsFormula())`` at its end), and callers ask the registry —
``formula_for(book.formula)`` — never import a formula by name. A third formula is one
module (a class with ``key``, ``name``, ``summary`` and ``match_change``:
``ratings.formula.RatingFormula``) and one line in :data:`BUILTIN_MODULES`.

:data:`DEFAULT_FORMULA` is FIBS: the formula every rating list used before there was a
choice, and the one a list uses unless it chooses another.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import importlib
import re

from ratings.errors import RatingValueError
from ratings.formula import RatingFormula

__all__ = [
    "BUILTIN_MODULES",
    "DEFAULT_FORMULA",
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

_FORMULAS: dict[str, RatingFormula] = {}
_KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,15}$")  # fits the stored column (16 characters)
_loaded = False


class UnknownFormulaError(RatingValueError):
    """No formula is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no rating formula {key!r}; known formulas: {', '.join(known)}")
        self.key = key


def register(formula: RatingFormula) -> RatingFormula:
    """Register ``formula`` under its key and return it. Registering the same object twice
    is harmless (a module imported again); another formula under a taken key is an error."""
    key = formula.key
    if not _KEY_RE.match(key):
        raise ValueError(f"a formula's key is lower-case letters, digits and _, not {key!r}")
    existing = _FORMULAS.get(key)
    if existing is not None and existing is not formula:
        raise ValueError(f"a rating formula is already registered under {key!r}")
    _FORMULAS[key] = formula
    return formula


def unregister(key: str) -> None:
    """Remove the formula under ``key`` (tests, plug-ins); ``UnknownFormulaError`` if none."""
    _load_builtins()
    if key not in _FORMULAS:
        raise UnknownFormulaError(key, tuple(_FORMULAS))
    del _FORMULAS[key]


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        for module in BUILTIN_MODULES:
            importlib.import_module(module)  # each registers its formula at import
        _loaded = True


def _order(formula: RatingFormula) -> int:
    builtin = [module.rsplit(".", 1)[1] for module in BUILTIN_MODULES]
    return builtin.index(formula.key) if formula.key in builtin else len(builtin)


def formulas() -> tuple[RatingFormula, ...]:
    """Every registered formula: the built-in ones first (FIBS, then the Danish one)."""
    _load_builtins()
    return tuple(sorted(_FORMULAS.values(), key=_order))  # sorted() is stable


def formula_keys() -> tuple[str, ...]:
    """The keys of :func:`formulas`, in its order."""
    return tuple(formula.key for formula in formulas())


def formula_for(key: str) -> RatingFormula:
    """The formula registered under ``key``; :class:`UnknownFormulaError` names the known
    ones."""
    _load_builtins()
    try:
        return _FORMULAS[key]
    except KeyError:
        raise UnknownFormulaError(key, formula_keys()) from None


def choices() -> tuple[tuple[str, str], ...]:
    """``(key, name)`` pairs in :func:`formulas` order, for a model field's or a form's
    choices (the edge translates the names)."""
    return tuple((formula.key, formula.name) for formula in formulas())
