"""The registry of game families: register, find by key, list, detect a record's game.

Like ``django.apps.apps`` and ``admin.site.register``: a family module registers what it
provides when it is imported (``register(BackgammonFamily())`` at its end), and callers ask
the registry — ``family_for(tournament.game)`` — never import a family by name. Like
python-chess's ``find_variant("atomic")``, a lookup by an unknown key names the known ones.

The built-in families (:data:`BUILTIN_MODULES`) are imported on the first question, so a
caller needs no start-up hook; :func:`families` lists them in that order (bräde first),
then any other registered family in the order it registered.
"""

from __future__ import annotations

import importlib
import re

from games.family import GameFamily

__all__ = [
    "BUILTIN_MODULES",
    "UnknownGameError",
    "choices",
    "detect",
    "families",
    "family_for",
    "register",
    "unregister",
]

BUILTIN_MODULES = ("games.brade", "games.backgammon", "games.kungabrade")

_FAMILIES: dict[str, GameFamily] = {}
_KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_loaded = False


class UnknownGameError(LookupError):
    """No family is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no game {key!r}; known games: {', '.join(known)}")
        self.key = key


def register(family: GameFamily) -> GameFamily:
    """Register ``family`` under its key and return it. Registering the same object twice
    is harmless (a module imported again); another family under a taken key is an error."""
    key = family.key
    if not _KEY_RE.match(key):
        raise ValueError(f"a game's key is lower-case letters, digits and _, not {key!r}")
    existing = _FAMILIES.get(key)
    if existing is not None and existing is not family:
        raise ValueError(f"a game family is already registered under {key!r}")
    _FAMILIES[key] = family
    return family


def unregister(key: str) -> None:
    """Remove the family under ``key`` (tests, plug-ins); ``UnknownGameError`` if none."""
    _load_builtins()
    if key not in _FAMILIES:
        raise UnknownGameError(key, tuple(_FAMILIES))
    del _FAMILIES[key]


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        for module in BUILTIN_MODULES:
            importlib.import_module(module)  # each registers its family at import
        _loaded = True


def _order(family: GameFamily) -> int:
    builtin = [module.rsplit(".", 1)[1] for module in BUILTIN_MODULES]
    return builtin.index(family.key) if family.key in builtin else len(builtin)


def families() -> tuple[GameFamily, ...]:
    """Every registered family: the built-in ones first (bräde, backgammon, Kungabräde)."""
    _load_builtins()
    return tuple(sorted(_FAMILIES.values(), key=_order))  # sorted() is stable


def family_for(key: str) -> GameFamily:
    """The family registered under ``key``; :class:`UnknownGameError` names the known ones."""
    _load_builtins()
    try:
        return _FAMILIES[key]
    except KeyError:
        raise UnknownGameError(key, tuple(f.key for f in families())) from None


def choices() -> tuple[tuple[str, str], ...]:
    """``(key, name)`` pairs in :func:`families` order, for a model field's or a form's
    choices (the edge translates the names)."""
    return tuple((family.key, family.name) for family in families())


def detect(data: str | bytes) -> GameFamily | None:
    """The family whose replay is surest that ``data`` is its record (the highest
    :meth:`~games.family.GameFamily.detect` above 0; on a tie the earlier family in
    :func:`families` order), or None when no family with a replay claims it."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    best: GameFamily | None = None
    best_confidence = 0.0
    for family in families():
        if family.replay is None:
            continue
        confidence = family.detect(text)
        if confidence > best_confidence:
            best, best_confidence = family, confidence
    return best
