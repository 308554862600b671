"""The roles, checked on the server by the services and selectors of every app.

Roles, per tournament:
- *organiser*: a user in the tournament's ``organisers`` (or a superuser). Manages the
  tournament; may also do everything a referee may.
- *referee*: a user in its ``referees``. Enters and corrects results, declares walkovers
  and submits game records in that tournament only; a referee scoped to one of its
  venues (``Venue.referees``, ``tournaments.venues``) does so for that venue's matches
  only (``is_match_referee``), and sees the whole tournament as every referee does.
- *player*: a user linked to a ``Player`` (``Player.user``); submits records for, and
  reports, their own matches.
- everyone (also anonymous): reads public tournaments (``tournaments.permissions``).

Across tournaments, *registry staff*: a superuser, or a user given the model permission
``tournaments.change_player`` by an administrator; they keep the register of players.
``is_staff`` alone is not enough: it only opens the admin site.

*Organiser* across tournaments (may create tournaments): a user with the model permission
``tournaments.add_tournament``. *Club administrator*: a superuser, or a user given
``accounts.grant_organiser`` (in the admin, once, by whoever runs the site); they grant
and revoke the organiser right on the site's own page (``accounts.organiser_rights``),
so a club needs the admin only to name its first administrator. Not ``is_staff``: that
opens the admin site, which a club administrator does not need.

Below every app: these checks read the objects they are given (a tournament's staff, a
match's players, the user's linked player through the user model's reverse ``player``
relation) and import no app, so tournaments and matches both use them without importing
each other (``tests/test_layers.py``). Who may *see* what (visibility, which needs the
tournaments' tables) is ``tournaments.permissions``.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import Q
from typing_extensions import TypeIs

__all__ = [
    "AuthUser",
    "User",
    "authenticated",
    "can_create_tournament",
    "can_grant_organiser",
    "can_manage_all_players",
    "can_read_records",
    "is_match_player",
    "is_match_referee",
    "is_organiser",
    "is_referee",
    "player_of",
    "signed_in",
]

# Who asks: a signed-in user (the site's user model is Django's ``auth.User``), the
# anonymous one (``request.user``), or nobody (None: the public's reads, a task's changes).
User = AuthUser | AnonymousUser | None


class Staffed(Protocol):
    """A tournament, as far as the roles read it: its key, organisers and referees."""

    pk: Any

    @property
    def organisers(self) -> Any: ...

    @property
    def referees(self) -> Any: ...


class Played(Protocol):
    """A match, as far as the roles read it: its tournament and its two players' ids."""

    player1_id: int | None
    player2_id: int | None

    @property
    def tournament(self) -> Any: ...


def authenticated(user: User) -> TypeIs[AuthUser]:
    """A signed-in user (not the anonymous one, not nobody): narrows ``user`` for mypy."""
    return isinstance(user, AuthUser) and user.is_authenticated


def signed_in(user: User) -> AuthUser | None:
    """Who a change is recorded as (a ``…_by`` column): the signed-in user, else nobody."""
    return user if authenticated(user) else None


def is_organiser(user: User, tournament: Staffed) -> bool:
    if not authenticated(user):
        return False
    if user.is_superuser:
        return True
    return bool(tournament.organisers.filter(pk=user.pk).exists())


def is_referee(user: User, tournament: Staffed) -> bool:
    """A referee of this tournament, or one of its organisers (or a superuser): asked
    in one query, both relations at once."""
    if not authenticated(user):
        return False
    if user.is_superuser:
        return True
    staff = Q(organisers=user) | Q(referees=user)
    rows = type(tournament)._default_manager.filter(pk=tournament.pk)  # type: ignore[attr-defined]
    return bool(rows.filter(staff).exists())


class Placed(Protocol):
    """A match, as far as a venue's referee reads it: its tournament and its venue."""

    venue_id: int | None

    @property
    def tournament(self) -> Any: ...


def is_match_referee(user: User, match: Placed) -> bool:
    """A referee who may enter and correct ``match``'s results: an organiser (never
    scoped), a referee scoped to no venue, or one scoped to the match's venue. A
    referee scoped to a venue may not act on a match at no venue."""
    tournament = match.tournament
    if not is_referee(user, tournament):
        return False
    if is_organiser(user, tournament):
        return True
    scoped = set(tournament.venues.filter(referees=user).values_list("pk", flat=True))
    return not scoped or match.venue_id in scoped


def player_of(user: User) -> Any:
    """The player linked to ``user`` (``tournaments.Player.user``), or None. Read fresh
    each time, through the relation's model, not the user object's cached reverse
    accessor: a player linked after the user was loaded is found."""
    if not authenticated(user):
        return None
    player_model = user._meta.get_field("player").related_model
    return player_model._default_manager.filter(user=user).first()


def is_match_player(user: User, match: Played) -> bool:
    player = player_of(user)
    return player is not None and player.pk in (match.player1_id, match.player2_id)


def can_create_tournament(user: User) -> bool:
    return authenticated(user) and bool(user.has_perm("tournaments.add_tournament"))


def can_grant_organiser(user: User) -> bool:
    """A club administrator: superusers and users with ``accounts.grant_organiser``."""
    return authenticated(user) and bool(user.has_perm("accounts.grant_organiser"))


def can_manage_all_players(user: User) -> bool:
    """Registry staff: superusers and users with ``tournaments.change_player``."""
    return authenticated(user) and bool(
        user.is_superuser or user.has_perm("tournaments.change_player")
    )


def can_read_records(user: User, match: Played) -> bool:
    """Raw game records: the match's players and the tournament's referees/organisers."""
    return is_referee(user, match.tournament) or is_match_player(user, match)
