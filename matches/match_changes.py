"""The port from matches to the apps that follow a match as it changes (issue 13's layers).

Every change to a match begins with ``matches.common.lock_match``; the clubs app keeps
the ratings in step with the matches (issue 15: ``clubs.rating_services``), so it wants to
hear of each one. ``clubs`` sits above ``matches`` (it reads matches to rate them), so
``matches`` must not import it: instead the clubs app registers its watcher here when Django
starts (``clubs.apps.ClubsConfig.ready``), as ``matches`` registers its side of
``tournaments.matchplay`` and as an app registers its admin with ``admin.site``.
``tests/test_layers.py`` checks that ``matches`` imports nothing from ``clubs``.

A watcher is called inside the match's transaction, before the row is locked, with the
match's id only; it decides itself what to do and when (the ratings' watcher defers its
work to the commit). Decision: with no watcher registered a change simply has nobody to
tell — matches work without the clubs app, the way a Django signal with no receiver does.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["MatchWatcher", "match_changing", "match_watcher_register", "match_watchers"]


class MatchWatcher(Protocol):
    """Told that match ``match_id`` is about to change (inside its transaction)."""

    def __call__(self, *, match_id: int) -> None: ...


_watchers: list[MatchWatcher] = []


def match_watcher_register(watcher: MatchWatcher) -> None:
    """Register ``watcher`` (once: registering the same one again changes nothing, so an
    app's ``ready()`` may run twice, as it does in some test runners)."""
    if watcher not in _watchers:
        _watchers.append(watcher)


def match_watchers() -> tuple[MatchWatcher, ...]:
    """The registered watchers, in the order they were registered."""
    return tuple(_watchers)


def match_changing(*, match_id: int) -> None:
    """Tell every registered watcher that match ``match_id`` is about to change."""
    for watcher in _watchers:
        watcher(match_id=match_id)
