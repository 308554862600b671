"""The one registry mechanism of the site, for everything that plugs in: the keyed
registries (the games' families, the tournament formats, the games that record live) and
the watchers an app registers to hear of another's changes (a match changing, news, games
removed, a tournament's visibility).

A :class:`Registry` works like ``django.apps.apps`` and ``admin.site.register``: a module
registers what it provides when it is imported (``FAMILIES.register(BackgammonFamily())``
at its end); callers ask by key and never import a provider by name. Its built-in modules
are imported on the first question, so a caller needs no start-up hook; the built-in items
come first, in their modules' order, then any other in the order it registered. A lookup
by an unknown key raises the registry's own error naming the known keys (as
python-chess's ``find_variant`` does).

:class:`Watchers` keeps callbacks in the order they registered, each once (an app's
``ready()`` may run twice, as it does in some test runners).

Pure Python: the pure packages (``games``, ``formats``) use it as the apps do.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, Protocol, TypeVar

__all__ = ["Keyed", "Registry", "Watchers"]


class Keyed(Protocol):
    @property
    def key(self) -> str: ...


T = TypeVar("T", bound=Keyed)
W = TypeVar("W")


class Registry(Generic[T]):
    """Items by key (module docstring). ``what`` names an item in errors ("a game
    family"); ``unknown(key, known)`` makes the error of a lookup that finds nothing;
    ``key_length``: the longest key (the column that stores it)."""

    def __init__(
        self,
        *,
        what: str,
        builtin: Sequence[str],
        unknown: Callable[[str, tuple[str, ...]], Exception],
        key_length: int = 32,
    ) -> None:
        self._what = what
        self._builtin = tuple(builtin)
        self._unknown = unknown
        self._key = re.compile(rf"^[a-z][a-z0-9_]{{0,{key_length - 1}}}$")
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, item: T) -> T:
        """Register ``item`` under its key and return it; the same object twice is
        harmless (a module imported again), another under a taken key is an error."""
        if not self._key.match(item.key):
            raise ValueError(
                f"{self._what}'s key is lower-case letters, digits and _, not {item.key!r}"
            )
        existing = self._items.get(item.key)
        if existing is not None and existing is not item:
            raise ValueError(f"{self._what} is already registered under {item.key!r}")
        self._items[item.key] = item
        return item

    def unregister(self, key: str) -> None:
        """Remove the item under ``key`` (tests, plug-ins); the registry's error if none."""
        self._load()
        if key not in self._items:
            raise self._unknown(key, tuple(self._items))
        del self._items[key]

    def _load(self) -> None:
        if not self._loaded:
            for module in self._builtin:
                importlib.import_module(module)  # each registers its items at import
            self._loaded = True

    def _order(self, item: T) -> int:
        builtin = [module.rsplit(".", 1)[1] for module in self._builtin]
        return builtin.index(item.key) if item.key in builtin else len(builtin)

    def all(self) -> tuple[T, ...]:
        """Every registered item, the built-in ones first."""
        self._load()
        return tuple(sorted(self._items.values(), key=self._order))  # sorted() is stable

    def get(self, key: str) -> T:
        """The item registered under ``key``; the registry's error names the known ones."""
        self._load()
        try:
            return self._items[key]
        except KeyError:
            raise self._unknown(key, tuple(i.key for i in self.all())) from None

    def find(self, key: str) -> T | None:
        """The item registered under ``key``, or None."""
        self._load()
        return self._items.get(key)


class Watchers(Generic[W]):
    """Callbacks in the order they registered, each once (module docstring)."""

    def __init__(self) -> None:
        self._watchers: list[W] = []

    def register(self, watcher: W) -> None:
        if watcher not in self._watchers:
            self._watchers.append(watcher)

    def __iter__(self) -> Iterator[W]:
        return iter(tuple(self._watchers))

    def all(self) -> tuple[W, ...]:
        return tuple(self._watchers)

    def replace(self, watchers: Sequence[W]) -> None:
        """Keep exactly ``watchers`` (a test puts back what it found)."""
        self._watchers[:] = list(watchers)
