"""The port from tournaments to the apps that follow a tournament's visibility (the apps'
layers): only public tournaments' matches are rated, so the clubs app wants to
hear when a tournament turns public or private. ``clubs`` sits above ``tournaments``, so
``tournaments`` must not import it: the clubs app registers its watcher here when Django
starts (``clubs.apps.ClubsConfig.ready``), as it does with ``matches.match_changes``.
``tests/test_layers.py`` checks that ``tournaments`` imports nothing from ``clubs``.

A watcher is called inside the change's transaction, after the tournament is saved.
Decision: with no watcher registered nobody is told (tournaments work without clubs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.registry import Watchers

if TYPE_CHECKING:
    from tournaments.models import Tournament

__all__ = ["VisibilityWatcher", "visibility_changed", "visibility_watcher_register"]


class VisibilityWatcher(Protocol):
    """Told that ``tournament`` became public or private (inside the transaction)."""

    def __call__(self, *, tournament: Tournament) -> None: ...


_watchers: Watchers[VisibilityWatcher] = Watchers()
# Register a watcher once (an app's ``ready()`` may run twice).
visibility_watcher_register = _watchers.register


def visibility_changed(*, tournament: Tournament) -> None:
    """Tell every registered watcher that ``tournament``'s visibility changed."""
    for watcher in _watchers:
        watcher(tournament=tournament)
