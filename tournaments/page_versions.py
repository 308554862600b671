"""The live pages' version of a tournament: every service that changes what a
tournament's pages show bumps it inside its transaction (``tournament_touch``), the
source of the live pages' ETag and Last-Modified (``web.live``)."""

from __future__ import annotations

from django.db.models import F, QuerySet
from django.utils import timezone

from tournaments.models import (
    Tournament,
)


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


def tournament_touch(*, tournament_id: int, whole: bool = True) -> None:
    """``tournaments_touch`` for one tournament: called by every service that changes what
    its pages show (results, corrections, walkovers, resets, the draw, game records and
    their verdicts, entries, seeds, withdrawals, staff, details, round lengths)."""
    tournaments_touch(tournaments=Tournament.objects.filter(pk=tournament_id), whole=whole)
