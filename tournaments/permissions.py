"""Who may see what: tournaments and players, and who keeps the register of players.

The roles themselves (organiser, referee, player, registry staff) are ``core.permissions``,
below both apps; this module adds what needs the tournaments' tables.

A private tournament is visible only to its organisers, referees and entered
players; to everyone else it does not exist (404, never 403, so ids cannot be
probed).

Players follow their tournaments, by the one rule of
``visible_tournaments``: a player is visible to ``user`` if entered in a tournament
``user`` may see, or entered in none yet (a new player in the register, whom an
organiser must be able to find and enter), or linked to ``user``. A player entered
only in private tournaments looks absent to everyone else; and a player's matches
are listed only from the tournaments the reader may see (``player_matches``).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from core.permissions import User, authenticated, can_manage_all_players
from tournaments.models import Entry, Player, Tournament

__all__ = [
    "User",
    "can_manage_all_players",
    "can_manage_players",
    "can_view",
    "organises_player",
    "player_is_theirs",
    "players_visible_to",
    "visible_tournaments",
]


def can_manage_players(user: User) -> bool:
    """Create players and clubs: staff, or anyone who organises a tournament.

    Changing a player asks more (``tournaments.players.player_update``): registry
    staff, the player's own user, or an organiser of a tournament they are entered in.
    """
    if not authenticated(user):
        return False
    if user.is_staff or user.is_superuser or user.has_perm("tournaments.add_player"):
        return True
    return bool(Tournament.objects.filter(organisers=user).exists())


def organises_player(user: User, player: Player) -> bool:
    """``user`` organises a tournament ``player`` is entered in (withdrawn entries count).

    Organising some other tournament is not enough: that is what ``can_manage_players``
    asks, and it lets an organiser create players, not change other organisers' ones.
    """
    if not authenticated(user):
        return False
    return Entry.objects.filter(player=player, tournament__organisers=user).exists()


def player_is_theirs(user: User, player: Player) -> bool:
    """``player`` is only ``user``'s to keep: entered in at least one tournament, and every
    tournament they are entered in (withdrawn entries count) is organised by ``user``.

    A player entered in tournaments of other organisers too belongs to the register
    (``players.player_update``): entering a public player in a draft of one's own does
    not make them one's own. Co-organisers of the same tournaments share their players.
    """
    if not authenticated(user):
        return False
    entries = Entry.objects.filter(player=player)
    return entries.exists() and not entries.exclude(tournament__organisers=user).exists()


def visible_tournaments(user: User) -> QuerySet[Tournament]:
    """Every tournament ``user`` may read."""
    qs = Tournament.objects.all()
    if authenticated(user) and user.is_superuser:
        return qs
    condition = Q(is_public=True)
    if authenticated(user):
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
    if authenticated(user):
        condition |= Q(user=user)
    return qs.filter(condition)


def can_view(user: User, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return visible_tournaments(user).filter(pk=tournament.pk).exists()
