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

The crowd's own answers (``core.kept_responses``): next to the stamp, the cache holds the
board's *public validator* (``public_key``: the text of its live game and version,
``public_text``) while everyone may see the board, written and removed with the stamp
(``board_stamp_keep``, ``board_stamp_forget``, and added with it by a reader that read
the stamp from the database). A poll from someone not signed in is answered with the kept
answer of the version it names, before Django; a board that is not everyone's has no
validator, so its polls go to the view. A tournament made private removes its boards'
validators and stamps at once (``live_boards_forget``, told through
``tournaments.tournament_changes``), and again when that change commits: a turn or a read
racing with the change could put one back, for at most ``STAMP_SECONDS``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache as cache_sql

from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from matches.models import Match
from matches.visibility import seen_by_everyone
from scoresheets.models import LiveGame
from tournaments.models import Round, Tournament
from tournaments.page_versions import board_stamped

__all__ = [
    "STAMP_SECONDS",
    "BoardStamp",
    "board_public_add",
    "board_stamp",
    "board_stamp_cached",
    "board_stamp_forget",
    "board_stamp_keep",
    "public_key",
    "public_text",
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

    @property
    def seen_by_everyone(self) -> bool:
        """Whether everyone may see the board (``matches.visibility.seen_by_everyone``):
        only then has it a public validator, and are its answers kept for the crowd."""
        return seen_by_everyone(tournament_public=self.is_public, round_published=self.published)


def state_key(live_id: int, started_at: datetime, version: int) -> str:
    """The cache key of a live game's state at ``version``; the start time tells apart two
    live games given one id (as a test database may)."""
    return f"scoresheet:state:{live_id}:{started_at.timestamp():.6f}:{version}"


def _stamp_key(pk: int) -> str:
    return f"scoresheet:stamp:{pk}"


def public_key(pk: int) -> str:
    """The cache key of match ``pk``'s public validator (module doc)."""
    return f"scoresheet:public:{pk}"


def public_text(stamp: BoardStamp) -> str:
    """The version a public validator names: the live game (its id and start, as
    ``state_key``) and its version."""
    return f"{stamp.live_id}.{stamp.started_at.timestamp():.6f}.{stamp.version}"


@cache_sql
def _stamp_sql() -> str:
    """``board_stamp``'s query, written out: the ORM took longer to compile it than the
    database to answer it, and every poll that finds a new version asks it."""
    live = LiveGame._meta
    match = Match._meta
    tournament = Tournament._meta
    round_ = Round._meta
    return (
        f'SELECT m."tournament_id", t."is_public", l."version", l."updated_at", '
        f't."created_at", l."id", l."started_at", r."published" '
        f'FROM "{live.db_table}" l '
        f'JOIN "{match.db_table}" m ON m."id" = l."match_id" '
        f'JOIN "{tournament.db_table}" t ON t."id" = m."tournament_id" '
        f'LEFT JOIN "{round_.db_table}" r ON r."id" = m."round_id" '
        f'WHERE l."match_id" = %s ORDER BY l."number" DESC LIMIT 1'
    )


def board_stamp(*, pk: int) -> BoardStamp | None:
    """Match ``pk``'s stamp read from the database in one query (None: nothing of it was
    recorded)."""
    with connection.cursor() as cursor:
        cursor.execute(_stamp_sql(), [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    tournament_id, is_public, version, updated_at, created_at, live_id, started, published = row
    return BoardStamp(
        tournament_id, bool(is_public), version, _aware(updated_at), _aware(created_at),
        live_id, _aware(started), bool(published),
    )  # fmt: skip


def _aware(value: datetime | str) -> datetime:
    """A timestamp as the ORM reads it: aware (SQLite's driver hands over naive UTC)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


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
        board_public_add(stamp, pk=pk)
    return stamp


def board_public_add(stamp: BoardStamp, *, pk: int) -> None:
    """Add match ``pk``'s public validator for ``stamp``, read from the database, unless
    the cache holds one (a writer's, perhaps newer): the crowd's next polls are answered
    from the cache. A failing cache is skipped."""
    if not stamp.seen_by_everyone:
        return
    try:
        cache.add(public_key(pk), public_text(stamp), STAMP_SECONDS)
    except Exception:
        log.warning("cache unavailable; not keeping the live board's validator", exc_info=True)


def board_stamp_keep(*, live: LiveGame, match: Match) -> None:
    """Write the stamp of ``live``, the match's latest live game as the current
    transaction left it, into the cache: called by every service that changes a live
    game's version, before it commits (module doc). Made of the rows at hand (no query):
    what ``board_stamp`` would read once the transaction commits. The new version is
    announced too (``tournaments.page_versions.board_stamped``: the push streams)."""
    board_stamped(match_id=match.pk, tournament_id=match.tournament_id, version=live.version)
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
        if stamp.seen_by_everyone:  # both in one round trip
            cache.set_many(
                {_stamp_key(match.pk): stamp, public_key(match.pk): public_text(stamp)},
                STAMP_SECONDS,
            )
        else:
            cache.set(_stamp_key(match.pk), stamp, STAMP_SECONDS)
            cache.delete(public_key(match.pk))
    except Exception:
        log.warning("cache unavailable; not keeping the live board's stamp", exc_info=True)


def board_stamp_forget(*, match_id: int) -> None:
    """Remove match ``match_id``'s cached stamp and public validator (nothing of it is
    recorded any more, or not everyone may see it now): the next poll asks the database.
    A failing cache is skipped."""
    try:
        cache.delete_many([_stamp_key(match_id), public_key(match_id)])
    except Exception:
        log.warning("cache unavailable; not removing the live board's stamp", exc_info=True)
