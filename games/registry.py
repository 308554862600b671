"""The registry of game families: register, find by key, list, detect a record's game.

A ``core.registry.Registry`` (the site's one registry mechanism): a family module registers
what it provides when it is imported (``register(BackgammonFamily())`` at its end), and callers ask
the registry — ``family_for(tournament.game)`` — never import a family by name. Like
python-chess's ``find_variant("atomic")``, a lookup by an unknown key names the known ones.

The built-in families (:data:`BUILTIN_MODULES`) are imported on the first question, so a
caller needs no start-up hook; :func:`families` lists them in that order (bräde first),
then any other registered family in the order it registered.
"""

from __future__ import annotations

from core.registry import Registry
from games.family import GameFamily

__all__ = [
    "BUILTIN_MODULES",
    "FAMILIES",
    "UnknownGameError",
    "choices",
    "detect",
    "families",
    "family_for",
    "register",
    "unregister",
]

BUILTIN_MODULES = ("games.brade", "games.backgammon", "games.kungabrade")


class UnknownGameError(LookupError):
    """No family is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no game {key!r}; known games: {', '.join(known)}")
        self.key = key


FAMILIES: Registry[GameFamily] = Registry(
    what="a game family", builtin=BUILTIN_MODULES, unknown=UnknownGameError
)
register = FAMILIES.register
unregister = FAMILIES.unregister


def families() -> tuple[GameFamily, ...]:
    """Every registered family: the built-in ones first (bräde, backgammon, Kungabräde)."""
    return FAMILIES.all()


def family_for(key: str) -> GameFamily:
    """The family registered under ``key``; :class:`UnknownGameError` names the known ones."""
    return FAMILIES.get(key)


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
