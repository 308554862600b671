"""The live pages' version of a tournament: every service that changes what a
tournament's pages show bumps it inside its transaction (``tournament_touch``), the
source of the live pages' ETag and Last-Modified (``web.live``).

It is also where a change is *announced*: every bump of a version (a tournament's here, a
match's ``Match.live_version`` in ``matches.common``, a live board's ``LiveGame.version``
in ``scoresheets.stamps``) tells the watchers registered with ``pages_watch`` (the push
streams, ``push.publish``), inside the change's transaction; a watcher acts once it
commits. A port: this module imports no watcher.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.db.models import F, QuerySet
from django.utils import timezone

from tournaments.models import (
    Tournament,
)


class PagesWatcher(Protocol):
    """Told of every version bumped, inside the change's transaction (module doc)."""

    def tournaments_changed(self, *, tournaments: QuerySet[Tournament]) -> None: ...

    def match_stamped(self, *, match_id: int, tournament_id: int, version: int) -> None: ...

    def matches_stamped(self, *, match_ids: Sequence[int]) -> None: ...

    def board_stamped(self, *, match_id: int, tournament_id: int, version: int) -> None: ...


_watchers: list[PagesWatcher] = []


def pages_watch(*, watcher: PagesWatcher) -> None:
    """Register ``watcher`` (an app's ``ready``); registering one twice keeps one."""
    if watcher not in _watchers:
        _watchers.append(watcher)


def match_stamped(*, match_id: int, tournament_id: int, version: int) -> None:
    """Match ``match_id``'s parts moved to ``version`` (``matches.common.match_mark``)."""
    for watcher in _watchers:
        watcher.match_stamped(match_id=match_id, tournament_id=tournament_id, version=version)


def matches_stamped(*, match_ids: Sequence[int]) -> None:
    """These matches' parts moved to their tournament's version (``matches_touch``)."""
    for watcher in _watchers:
        watcher.matches_stamped(match_ids=match_ids)


def board_stamped(*, match_id: int, tournament_id: int, version: int) -> None:
    """Match ``match_id``'s live board moved to ``version`` (``LiveGame.version``)."""
    for watcher in _watchers:
        watcher.board_stamped(match_id=match_id, tournament_id=tournament_id, version=version)


def tournaments_touch(*, tournaments: QuerySet[Tournament], whole: bool = True) -> None:
    """Mark that what the pages of ``tournaments`` show has changed: one UPDATE that bumps
    their ``version`` and sets ``changed_at``, the source of the live pages' ETag and
    Last-Modified (``web.live``).

    ``whole`` (the default, the safe choice): any part of the pages may have changed, so
    every part's version moves (``whole_version``). ``whole=False`` is for a change the
    caller attributes to some matches, which it then stamps itself
    (``matches.common.match_mark``): the other matches' parts keep their versions and their
    viewers keep getting "not modified".

    Call it inside the transaction of the change, so the new version commits with the
    change it announces (a poller never sees the version before the data) and a rolled
    back change bumps nothing. It locks the tournament's row until the commit: the match
    services call it first, before any match row is locked (``matches.common.lock_match``),
    so every writer takes the tournament's lock before its matches' and none deadlock.
    """
    if whole:
        tournaments.update(
            version=F("version") + 1, whole_version=F("version") + 1, changed_at=timezone.now()
        )
    else:
        tournaments.update(version=F("version") + 1, changed_at=timezone.now())
    for watcher in _watchers:
        watcher.tournaments_changed(tournaments=tournaments)


def tournament_touch(*, tournament_id: int, whole: bool = True) -> None:
    """``tournaments_touch`` for one tournament: called by every service that changes what
    its pages show (results, corrections, walkovers, resets, the draw, game records and
    their verdicts, entries, seeds, withdrawals, staff, details, round lengths)."""
    tournaments_touch(tournaments=Tournament.objects.filter(pk=tournament_id), whole=whole)
