"""The port from matches to the apps that follow a match as it changes.

Every change to a match begins with ``matches.common.lock_match``; the clubs app keeps
the ratings in step with the matches (``clubs.rating_services``), so it wants to
hear of each one. ``clubs`` sits above ``matches`` (it reads matches to rate them), so
``matches`` must not import it: instead the clubs app registers its watcher here when Django
starts (``clubs.apps.ClubsConfig.ready``), as ``matches`` registers its side of
``tournaments.match_play_port`` and as an app registers its admin with ``admin.site``.
``tests/test_layers.py`` checks that ``matches`` imports nothing from ``clubs``.

A watcher is called inside the match's transaction, before the row is locked, with the
match's id only; it decides itself what to do and when (the ratings' watcher defers its
work to the commit). Decision: with no watcher registered a change simply has nobody to
tell — matches work without the clubs app, the way a Django signal with no receiver does.
"""

from __future__ import annotations

from typing import Any, Protocol

from core.registry import Watchers

__all__ = [
    "NEWS_MATCHES_DRAWN",
    "NEWS_RECORD_REJECTED",
    "NEWS_RECORD_VERIFIED",
    "NEWS_ROUND_PUBLISHED",
    "NEWS_TEAM_MATCH_DECIDED",
    "NEWS_TOURNAMENT_FINISHED",
    "GamesRemovedWatcher",
    "MatchWatcher",
    "NewsWatcher",
    "games_removed",
    "games_removed_register",
    "match_changing",
    "match_watcher_register",
    "match_watchers",
    "news_tell",
    "news_watcher_register",
    "news_watchers",
]


class MatchWatcher(Protocol):
    """Told that match ``match_id`` is about to change (inside its transaction)."""

    def __call__(self, *, match_id: int) -> None: ...


_watchers: Watchers[MatchWatcher] = Watchers()
# Register a watcher once (registering the same one again changes nothing, so an app's
# ``ready()`` may run twice, as it does in some test runners).
match_watcher_register = _watchers.register
# The registered watchers, in the order they were registered.
match_watchers = _watchers.all


def match_changing(*, match_id: int) -> None:
    """Tell every registered watcher that match ``match_id`` is about to change."""
    for watcher in _watchers:
        watcher(match_id=match_id)


# --- news: what happened, for the apps that tell others -------------------------------
#
# The watchers above hear that a match is *about* to change; the audit trail
# (``MatchEvent``) says what the change was. A few things have no audit row of their own
# and happen outside one match's change: a record's verdict (a rejected record writes no
# event), a Swiss round published (it changes every match of the round at once) and a
# tournament finished (the last match decided, or a Swiss round published with only
# byes and walkovers left). The services tell them here; the webhooks app registers its
# watcher (``webhooks.apps.WebhooksConfig.ready``), so ``matches`` never imports it.

NEWS_RECORD_VERIFIED = "record.verified"
NEWS_RECORD_REJECTED = "record.rejected"
NEWS_ROUND_PUBLISHED = "round.published"
NEWS_TOURNAMENT_FINISHED = "tournament.finished"
# A draw created a tournament's matches (a bracket, a round robin, an elimination
# bracket, a group knockout): no match was changed, so no match watcher heard of it.
NEWS_MATCHES_DRAWN = "matches.drawn"
# A team match was decided (an app above this one keeps team matches from their boards'
# matches): told with the team match as ``team_match``, since no app below it reads it.
NEWS_TEAM_MATCH_DECIDED = "team_match.decided"


class NewsWatcher(Protocol):
    """Told, inside the transaction, that ``kind`` happened in tournament
    ``tournament_id``; ``data`` holds the ids it concerns (JSON values only)."""

    def __call__(self, *, kind: str, tournament_id: int, data: dict[str, Any]) -> None: ...


_news_watchers: Watchers[NewsWatcher] = Watchers()
news_watcher_register = _news_watchers.register
news_watchers = _news_watchers.all


def news_tell(*, kind: str, tournament_id: int, **data: Any) -> None:
    """Tell every registered news watcher that ``kind`` happened."""
    for watcher in _news_watchers:
        watcher(kind=kind, tournament_id=tournament_id, data=data)


# --- games removed: what was kept of them elsewhere goes too ----------------------------
#
# A reset voids a match's games so it can be played again. An app that keeps something
# per game of a match (the digital scoresheet's recordings, ``scoresheets``) hears of it
# here, inside the reset's transaction, and lets the match be recorded again; it
# registers itself when Django starts (``scoresheets.apps``), so ``matches`` never
# imports it.


class GamesRemovedWatcher(Protocol):
    """Told, inside the transaction, that match ``match_id``'s games were removed."""

    def __call__(self, *, match_id: int) -> None: ...


_removed_watchers: Watchers[GamesRemovedWatcher] = Watchers()
games_removed_register = _removed_watchers.register


def games_removed(*, match_id: int) -> None:
    """Tell every registered watcher that match ``match_id``'s games were removed."""
    for watcher in _removed_watchers:
        watcher(match_id=match_id)
