"""Venues: a championship whose rounds are played at several places at once (an SM split
between Stockholm and Göteborg, a league night at every home club). Each venue has its
own tables, numbered from 1 (``matches.tables``), its own wall sheet and big screen
(``?venue=``), and referees who may be scoped to it (``core.permissions.is_match_referee``).

A tournament with no venues is played at one place and works exactly as before: its
matches have no venue and a round's tables are numbered 1, 2, 3 … over the whole round.

Decisions where the docs are silent:
- **Which venue a match is at** is decided when its round's matches are created, with its
  table: the round's matches played at a table, in pairing order (the top boards first),
  are shared out in venue order (``venue_shares``). A venue with a number of tables takes
  that many, in order (so "Stockholm, 10 tables" holds the round's first ten matches, the
  table ranges of a chess arbiter's split); the venues without a number share the rest
  evenly, the earlier ones taking one more; when every venue has a number and the round
  has more matches than tables, the last venue takes the rest. A bye is at no venue.
- **The organiser moves a match** to another venue (``matches.venues.match_venue_set``),
  where it takes the venue's first free table in its round, or splits a round again
  after adding venues late (``matches.venues.round_venues_split``), only while none of
  its matches has begun (players would be sent elsewhere mid-match).
- **A venue is deleted** only while no match is at it: its matches are moved first, so no
  result loses the place it was played at.
- **A referee scoped to a venue** (one venue per referee per tournament here, though the
  table allows more): enters and corrects the results, declares walkovers and records
  the games of that venue's matches only; sees the whole tournament as every referee
  does (a referee in Göteborg reads Stockholm's results and the one standings). A
  referee in no venue's list keeps every match; organisers are never scoped. Scoping
  names a referee of the tournament: a user who is not one is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from core.bounds import parse_db_id
from core.errors import ConflictError, NotFoundError, ValidationError
from core.permissions import AuthUser, User
from tournaments.guards import organiser_require
from tournaments.models import Tournament, Venue
from tournaments.page_versions import tournament_touch

__all__ = [
    "MAX_VENUE_TABLES",
    "referee_venue",
    "tournament_venues",
    "venue_create",
    "venue_delete",
    "venue_get",
    "venue_referee_set",
    "venue_shares",
    "venue_update",
]

#: The most tables one venue may say it has (as ``matches.tables.MAX_TABLE``).
MAX_VENUE_TABLES = 999


def venue_shares(count: int, tables: Sequence[int | None]) -> list[int]:
    """How many of a round's ``count`` matches each venue takes, in venue order, given
    each venue's number of tables (None: not given); see the module text. Pure."""
    if not tables:
        return []
    shares = [0] * len(tables)
    left = count
    for i, n in enumerate(tables):
        if n is not None:
            shares[i] = min(n, left)
            left -= shares[i]
    open_ = [i for i, n in enumerate(tables) if n is None]
    if open_:
        each, extra = divmod(left, len(open_))
        for k, i in enumerate(open_):
            shares[i] = each + (1 if k < extra else 0)
    else:
        shares[-1] += left
    return shares


def tournament_venues(tournament: Tournament | int) -> list[Venue]:
    """The tournament's venues in their order (none: played at one place)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return list(Venue.objects.filter(tournament_id=pk).order_by("ordering", "id"))


def venue_get(*, tournament: Tournament, pk: int | str | None) -> Venue | None:
    """The tournament's venue ``pk`` (from a page's ``?venue=``); None for none given;
    ``NotFoundError`` for a number that is not one of its venues."""
    if pk is None or pk == "":
        return None
    number = parse_db_id(str(pk))
    venue = (
        None if number is None else Venue.objects.filter(tournament=tournament, pk=number).first()
    )
    if venue is None:
        raise NotFoundError(_("The tournament has no such venue."), code="unknown_venue")
    return venue


def referee_venue(user: User, tournament: Tournament) -> Venue | None:
    """The venue ``user`` referees at in ``tournament``, None when not scoped."""
    if not isinstance(user, AuthUser) or not user.is_authenticated:
        return None
    return Venue.objects.filter(tournament=tournament, referees=user).order_by("ordering").first()


def _checked(tournament: Tournament, name: str, tables: int | None, *, pk: int | None) -> str:
    name = name.strip()
    if not name:
        raise ValidationError(_("A venue needs a name."), code="venue_name")
    if len(name) > 100:
        raise ValidationError(_("A venue's name is at most 100 characters."), code="venue_name")
    if tables is not None and not 1 <= tables <= MAX_VENUE_TABLES:
        raise ValidationError(
            _("A venue has from 1 to %(max)s tables.") % {"max": MAX_VENUE_TABLES},
            code="venue_tables",
        )
    taken = Venue.objects.filter(tournament=tournament, name__iexact=name)
    if pk is not None:
        taken = taken.exclude(pk=pk)
    if taken.exists():
        raise ConflictError(
            _("The tournament has a venue called “%(name)s” already.") % {"name": name},
            code="venue_name_taken",
        )
    return name


def venue_create(*, tournament: Tournament, name: str, tables: int | None, by: User) -> Venue:
    """A new venue of ``tournament``, after its others: an organiser only."""
    organiser_require(by, tournament)
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        name = _checked(tournament, name, tables, pk=None)
        last = Venue.objects.filter(tournament=tournament).aggregate(n=Max("ordering"))["n"]
        return Venue.objects.create(
            tournament=tournament,
            name=name,
            tables=tables,
            ordering=0 if last is None else last + 1,
        )


def venue_update(
    *, venue: Venue, name: str, tables: int | None, ordering: int | None = None, by: User
) -> Venue:
    """Rename a venue, change its number of tables or its place in the order; the
    matches already at it stay there (``round_venues_split`` shares a round again)."""
    tournament = venue.tournament
    organiser_require(by, tournament)
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        venue.name = _checked(tournament, name, tables, pk=venue.pk)
        venue.tables = tables
        if ordering is not None:
            venue.ordering = max(0, ordering)
        venue.save(update_fields=["name", "tables", "ordering"])
    return venue


def venue_delete(*, venue: Venue, by: User) -> None:
    """Delete a venue no match is at (``ConflictError`` ``venue_in_use`` otherwise)."""
    tournament = venue.tournament
    organiser_require(by, tournament)
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        if venue.matches.exists():
            raise ConflictError(
                _("Matches are played at “%(name)s”: move them to another venue first.")
                % {"name": venue.name},
                code="venue_in_use",
            )
        venue.delete()


def venue_referee_set(
    *, tournament: Tournament, user: AuthUser, venue: Venue | None, by: User
) -> None:
    """Scope a referee of ``tournament`` to ``venue`` (None: every match again)."""
    organiser_require(by, tournament)
    if venue is not None and venue.tournament_id != tournament.pk:
        raise ValidationError(_("The tournament has no such venue."), code="unknown_venue")
    if not tournament.referees.filter(pk=user.pk).exists():
        raise ValidationError(
            _("%(user)s is not a referee of this tournament.") % {"user": user.get_username()},
            code="not_a_referee",
        )
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        for other in Venue.objects.filter(tournament=tournament, referees=user):
            other.referees.remove(user)
        if venue is not None:
            venue.referees.add(user)
