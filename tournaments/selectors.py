"""Reads for pages and the API: tournaments, their entries, players, and the live pages'
version (``LiveStamp``). The bracket, placings and a player's matches are read from the
matches (``matches.round_selectors``).

Each selector runs a fixed number of queries whatever the field size
(``select_related``/``prefetch_related``); ``bench/web_bench.py`` shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User
from tournaments.models import Entry, Player, Tournament
from tournaments.permissions import players_visible_to, visible_tournaments


def player_list(*, by: User = None) -> QuerySet[Player]:
    """The players ``by`` may see (``permissions.players_visible_to``), with their clubs."""
    return players_visible_to(by).select_related("club")


def player_get(*, pk: int, by: User = None) -> Player:
    """A player ``by`` may see, or ``NotFoundError``: a player entered only in private
    tournaments looks absent to outsiders, as those tournaments do."""
    player = player_list(by=by).filter(pk=pk).first()
    if player is None:
        raise NotFoundError(_("No player #%(id)s that you can see.") % {"id": pk})
    return player


def tournament_entries(*, tournament: Tournament) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club")
        # Active entries first, seeded ones by seed, then the unseeded by name (NULLs last
        # on every database: SQLite sorts them first by default, PostgreSQL last).
        .order_by(
            F("withdrawn_at").asc(nulls_first=True),
            F("seed").asc(nulls_last=True),
            "player__name",
        )
    )


def tournament_list(*, by: User = None) -> QuerySet[Tournament]:
    return visible_tournaments(by).order_by("-start_date", "name", "id")


def tournament_get(*, pk: int, by: User = None) -> Tournament:
    """A tournament ``by`` may read, or ``NotFoundError`` (private ones look absent)."""
    tournament = visible_tournaments(by).filter(pk=pk).first()
    if tournament is None:
        raise NotFoundError(_("No tournament #%(id)s that you can see.") % {"id": pk})
    return tournament


@dataclass(frozen=True)
class LiveStamp:
    """What a live page's ETag and Last-Modified come from (``web.live``): the version of
    what the page shows — the tournament's for its pages, a match's for the match's parts
    — and the tournament's last change, its creation (which tells apart two tournaments
    that were given the same id, as a test database may) and whether everyone may see it.

    A match's version is the larger of its own stamp (``Match.live_version``) and the
    tournament's ``whole_version`` (``page_versions.tournaments_touch``)."""

    tournament_id: int
    is_public: bool
    version: int
    changed_at: datetime
    created_at: datetime


STAMP_FIELDS = ("is_public", "version", "changed_at", "created_at")


def tournament_stamp(*, pk: int) -> LiveStamp | None:
    """The tournament's ``LiveStamp`` in one query, or None if there is no such
    tournament. No permission check: callers decide what a stamp may answer."""
    row = Tournament.objects.filter(pk=pk).values_list("pk", *STAMP_FIELDS).first()
    return LiveStamp(*row) if row else None


def part_version(own: int, whole: int) -> int:
    """A part's version: its own stamp, or the last change of the whole tournament if
    that is later (``LiveStamp``)."""
    return max(own, whole)
