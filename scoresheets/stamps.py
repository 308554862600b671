"""The live board's stamp: what the live state's ETag is made of, read in one query and
kept in the cache so that a crowd polling with ``If-None-Match`` is answered 304 without
touching the database.

The stamp names the version of the match's latest live game (``LiveGame.version``), the
tournament (its id, creation and visibility), the live game's row (its id and start: the
key of the state kept per version) and whether the match's round is published.

How the cached stamp is kept right (decided):

- Only a 304 trusts it (``core.conditional.api_conditional``'s ``quick``): a viewer
  whose ETag differs from the cached stamp's is asked again against the database, and
  every 200 is built under the stamp read from the database. A cached stamp newer than the
  database therefore costs one query, never a wrong answer.
- A cached stamp older than the database would answer 304 to a board that changed, so
  every service that changes a live game's version writes the stamp as its own
  transaction leaves it (``board_stamp_keep``) before that transaction commits: from then
  on the cache holds that version or a newer one. Were the transaction rolled back, the
  cache would hold a version the database never had: the next poll asks the database
  (above). A reader that missed the cache only *adds* the stamp it read (never replaces
  one a writer set), and the cached stamp lives ``STAMP_SECONDS``: what a change that did
  not go through those services (an admin's edit) could leave behind is gone by then.
- A 304 only confirms what that viewer was shown (the ETag is keyed to them): a
  tournament made private, or a round unpublished, stops its followers' 304s at the next
  turn or within ``STAMP_SECONDS``; its 200s stop at once (they read the database).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache

from matches.models import Match
from scoresheets.models import LiveGame

__all__ = [
    "STAMP_SECONDS",
    "BoardStamp",
    "board_stamp",
    "board_stamp_cached",
    "board_stamp_forget",
    "board_stamp_keep",
    "state_key",
]

log = logging.getLogger(__name__)

# How long a cached stamp is trusted for a 304 when no service wrote it since.
STAMP_SECONDS = 10


@dataclass(frozen=True)
class BoardStamp:
    """A match's live board stamp (``core.conditional.Stamp`` and more)."""

    tournament_id: int
    is_public: bool
    version: int
    changed_at: datetime
    created_at: datetime
    live_id: int
    started_at: datetime
    published: bool  # the match's round is published


def state_key(live_id: int, started_at: datetime, version: int) -> str:
    """The cache key of a live game's state at ``version``; the start time tells apart two
    live games given one id (as a test database may)."""
    return f"scoresheet:state:{live_id}:{started_at.timestamp():.6f}:{version}"


def _stamp_key(pk: int) -> str:
    return f"scoresheet:stamp:{pk}"


def board_stamp(*, pk: int) -> BoardStamp | None:
    """Match ``pk``'s stamp read from the database in one query (None: nothing of it was
    recorded)."""
    row = (
        LiveGame.objects.filter(match_id=pk)
        .order_by("-number")
        .values_list(
            "match__tournament_id",
            "match__tournament__is_public",
            "version",
            "updated_at",
            "match__tournament__created_at",
            "pk",
            "started_at",
            "match__round__published",
        )
        .first()
    )
    if row is None:
        return None
    tournament_id, is_public, version, updated_at, created_at, live_id, started, published = row
    return BoardStamp(
        tournament_id, is_public, version, updated_at, created_at, live_id, started,
        bool(published),
    )  # fmt: skip


def board_stamp_cached(*, pk: int) -> BoardStamp | None:
    """Match ``pk``'s stamp from the cache, else from the database (then added to the
    cache, unless a writer put one there meanwhile). A failing cache is skipped."""
    try:
        found = cache.get(_stamp_key(pk))
    except Exception:
        log.warning("cache unavailable; reading the live board's stamp", exc_info=True)
        return board_stamp(pk=pk)
    if isinstance(found, BoardStamp):
        return found
    stamp = board_stamp(pk=pk)
    if stamp is not None:
        try:
            cache.add(_stamp_key(pk), stamp, STAMP_SECONDS)
        except Exception:
            log.warning("cache unavailable; not keeping the live board's stamp", exc_info=True)
    return stamp


def board_stamp_keep(*, live: LiveGame, match: Match) -> None:
    """Write the stamp of ``live``, the match's latest live game as the current
    transaction left it, into the cache: called by every service that changes a live
    game's version, before it commits (module doc). Made of the rows at hand (no query):
    what ``board_stamp`` would read once the transaction commits."""
    tournament = match.tournament
    stamp = BoardStamp(
        match.tournament_id,
        tournament.is_public,
        live.version,
        live.updated_at,
        tournament.created_at,
        live.pk,
        live.started_at,
        bool(match.round_id and match.round.published),
    )
    try:
        cache.set(_stamp_key(match.pk), stamp, STAMP_SECONDS)
    except Exception:
        log.warning("cache unavailable; not keeping the live board's stamp", exc_info=True)


def board_stamp_forget(*, match_id: int) -> None:
    """Remove match ``match_id``'s cached stamp (nothing of it is recorded any more): the
    next poll asks the database. A failing cache is skipped."""
    try:
        cache.delete(_stamp_key(match_id))
    except Exception:
        log.warning("cache unavailable; not removing the live board's stamp", exc_info=True)
