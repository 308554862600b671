"""Who may do what, checked on the server by services and selectors.

Roles, per tournament:
- *organiser*: a user in ``Tournament.organisers`` (or a superuser). Manages the
  tournament; may also do everything a referee may.
- *referee*: a user in ``Tournament.referees``. Enters and corrects results,
  declares walkovers and submits game records in that tournament only.
- *player*: a user linked to a ``Player``; submits records for their own matches.
- everyone (also anonymous): reads public tournaments.

Across tournaments, *registry staff*: a superuser, or a user given the model
permission ``tournaments.change_player`` by an administrator. They keep the register
of players: see and change every player. ``is_staff`` alone is not enough: it only
opens the admin site, which every organiser who uses it has.

A private tournament is visible only to its organisers, referees and entered
players; to everyone else it does not exist (404, never 403, so ids cannot be
probed).

Players follow their tournaments (issue 11), by the one rule of
``visible_tournaments``: a player is visible to ``user`` if entered in a tournament
``user`` may see, or entered in none yet (a new player in the register, whom an
organiser must be able to find and enter), or linked to ``user``. A player entered
only in private tournaments looks absent to everyone else; and a player's matches
are listed only from the tournaments the reader may see (``player_matches``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from tournaments.models import Entry, Player, Tournament

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
    """Create players and clubs: staff, or anyone who organises a tournament.

    Changing a player asks more (``tournaments.services.player_update``): registry
    staff, the player's own user, or an organiser of a tournament they are entered in.
    """
    if not _authenticated(user):
        return False
    if user.is_staff or user.is_superuser or user.has_perm("tournaments.add_player"):
        return True
    return bool(Tournament.objects.filter(organisers=user).exists())


def can_manage_all_players(user: User) -> bool:
    """Registry staff: superusers and users with ``tournaments.change_player``."""
    return _authenticated(user) and bool(
        user.is_superuser or user.has_perm("tournaments.change_player")
    )


def organises_player(user: User, player: Player) -> bool:
    """``user`` organises a tournament ``player`` is entered in (withdrawn entries count).

    Organising some other tournament is not enough: that is what ``can_manage_players``
    asks, and it lets an organiser create players, not change other organisers' ones.
    """
    if not _authenticated(user):
        return False
    return Entry.objects.filter(player=player, tournament__organisers=user).exists()


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


def players_visible_to(user: User) -> QuerySet[Player]:
    """Every player ``user`` may read: see the module docstring. One query, no joins
    that duplicate rows (the conditions are ``EXISTS`` subqueries)."""
    qs = Player.objects.all()
    if can_manage_all_players(user):
        return qs
    entries = Entry.objects.filter(player=OuterRef("pk"))
    condition = ~Exists(entries) | Exists(
        entries.filter(tournament__in=visible_tournaments(user).values("id"))
    )
    if _authenticated(user):
        condition |= Q(user=user)
    return qs.filter(condition)


def can_view(user: User, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return visible_tournaments(user).filter(pk=tournament.pk).exists()


def can_read_records(user: User, match: Match) -> bool:
    """Raw game records: the match's players and the tournament's referees/organisers."""
    return is_referee(user, match.tournament) or is_match_player(user, match)
