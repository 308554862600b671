"""Who may do what, checked on the server by services and selectors.

Roles, per tournament:
- *organiser*: a user in ``Tournament.organisers`` (or a superuser). Manages the
  tournament; may also do everything a referee may.
- *referee*: a user in ``Tournament.referees``. Enters and corrects results,
  declares walkovers and submits game records in that tournament only.
- *player*: a user linked to a ``Player``; submits records for their own matches.
- everyone (also anonymous): reads public tournaments.

A private tournament is visible only to its organisers, referees and entered
players; to everyone else it does not exist (404, never 403, so ids cannot be
probed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from tournaments.models import Player, Tournament

if TYPE_CHECKING:
    from matches.models import Match

User = Any  # django.contrib.auth user or AnonymousUser


def _authenticated(user: User) -> bool:
    return bool(user is not None and user.is_authenticated)


def is_organiser(user: User, tournament: Tournament) -> bool:
    if not _authenticated(user):
        return False
    if user.is_superuser:
        return True
    return bool(tournament.organisers.filter(pk=user.pk).exists())


def is_referee(user: User, tournament: Tournament) -> bool:
    """A referee of this tournament, or one of its organisers."""
    if not _authenticated(user):
        return False
    if is_organiser(user, tournament):
        return True
    return bool(tournament.referees.filter(pk=user.pk).exists())


def player_of(user: User) -> Player | None:
    if not _authenticated(user):
        return None
    return Player.objects.filter(user=user).first()


def is_match_player(user: User, match: Match) -> bool:
    player = player_of(user)
    return player is not None and player.pk in (match.player1_id, match.player2_id)


def can_create_tournament(user: User) -> bool:
    return _authenticated(user) and bool(user.has_perm("tournaments.add_tournament"))


def can_manage_players(user: User) -> bool:
    """Create and edit players and clubs: staff, or anyone who organises a tournament."""
    if not _authenticated(user):
        return False
    if user.is_staff or user.is_superuser or user.has_perm("tournaments.add_player"):
        return True
    return bool(Tournament.objects.filter(organisers=user).exists())


def visible_tournaments(user: User) -> QuerySet[Tournament]:
    """Every tournament ``user`` may read."""
    qs = Tournament.objects.all()
    if _authenticated(user) and user.is_superuser:
        return qs
    condition = Q(is_public=True)
    if _authenticated(user):
        condition |= (
            Q(organisers=user)
            | Q(referees=user)
            | Q(entries__player__user=user, entries__player__user__isnull=False)
        )
        # Joins over many-valued relations can duplicate rows; filter by id instead.
        ids = Tournament.objects.filter(condition).values("id")
        return qs.filter(id__in=ids)
    return qs.filter(condition)


def can_view(user: User, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return visible_tournaments(user).filter(pk=tournament.pk).exists()


def can_read_records(user: User, match: Match) -> bool:
    """Raw game records: the match's players and the tournament's referees/organisers."""
    return is_referee(user, match.tournament) or is_match_player(user, match)
