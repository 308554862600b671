"""The site's one registry mechanism (``core.registry``): what every keyed registry (games,
formats, live recordings) and every list of watchers shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from core.registry import Registry, Watchers
from formats.registry import FORMATS
from games.live import RECORDERS
from games.registry import FAMILIES


@dataclass(frozen=True)
class Item:
    key: str


class Missing(LookupError):
    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no {key}; known: {', '.join(known)}")


def _registry() -> Registry[Item]:
    return Registry(what="an item", builtin=(), unknown=Missing, key_length=8)


def test_a_registry_finds_by_key_and_names_the_known_ones_when_it_cannot() -> None:
    items = _registry()
    a, b = items.register(Item("alpha")), items.register(Item("beta"))
    assert items.get("beta") is b
    assert items.all() == (a, b)
    assert items.find("gamma") is None
    with pytest.raises(Missing, match="no gamma; known: alpha, beta"):
        items.get("gamma")


def test_a_registry_refuses_a_bad_key_and_a_second_item_under_a_taken_one() -> None:
    items = _registry()
    first = items.register(Item("alpha"))
    assert items.register(first) is first  # the same object again: harmless
    with pytest.raises(ValueError, match="already registered under 'alpha'"):
        items.register(Item("alpha"))
    for bad in ("Alpha", "9lives", "a-b", "toolongkey"):
        with pytest.raises(ValueError, match="lower-case letters"):
            items.register(Item(bad))
    items.unregister("alpha")
    with pytest.raises(Missing):
        items.unregister("alpha")


def test_watchers_are_kept_once_each_in_their_order() -> None:
    heard: list[str] = []
    watchers: Watchers[Callable[[], None]] = Watchers()

    def one() -> None:
        heard.append("one")

    def two() -> None:
        heard.append("two")

    for each in (one, two, one):
        watchers.register(each)
    for watcher in watchers:
        watcher()
    assert heard == ["one", "two"]
    assert watchers.all() == (one, two)


def test_the_games_formats_and_live_recordings_share_the_mechanism() -> None:
    assert [f.key for f in FAMILIES.all()] == ["brade", "backgammon", "kungabrade"]
    assert FORMATS.get("swiss").key == "swiss"
    assert sorted(r.key for r in RECORDERS.all()) == ["backgammon", "brade"]
    assert all(isinstance(r, Registry) for r in (FAMILIES, FORMATS, RECORDERS))
