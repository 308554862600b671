"""Services for clubs and players: creating them and changing a player.

Every function is ``<entity>_<action>`` with keyword-only, typed arguments; the user acting
is ``by`` and is checked here (``core.permissions``, ``tournaments.permissions``), so the
API, the admin and the pages share the same rules. Errors are the domain errors of
``core.errors``.
"""

from __future__ import annotations

import enum
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import (
    ConflictError,
    PermissionDeniedError,
    ValidationError,
)
from core.permissions import (
    User,
    can_create_tournament,
    can_manage_all_players,
)
from tournaments.invitations import player_link_or_invite
from tournaments.models import (
    Club,
    Player,
    Tournament,
)
from tournaments.page_versions import tournaments_touch
from tournaments.permissions import (
    can_manage_players,
    organises_player,
    player_is_theirs,
)
from tournaments.player_names import player_name_key


def _registry_refused(by: User, refusal: str) -> PermissionDeniedError:
    """Why ``by`` may not create clubs or players (``can_manage_players``).

    Decision: a new organiser (one who may create tournaments but organises none yet)
    is told the way in, with the code ``organise_first``: clubs and players are created
    for a tournament, so the first step is creating one (its organiser may then create
    its clubs and players). Anyone else gets ``refusal``.
    """
    if can_create_tournament(by):
        return PermissionDeniedError(
            _(
                "You may create clubs and players once you organise a tournament: create "
                "your tournament first, then enter its players."
            ),
            code="organise_first",
        )
    return PermissionDeniedError(refusal)


def club_create(*, name: str, city: str = "", by: User) -> Club:
    if not can_manage_players(by):
        raise _registry_refused(by, _("Only organisers and staff may create clubs."))
    name = name.strip()
    if not name:
        raise ValidationError(_("A club needs a name."))
    if Club.objects.filter(name__iexact=name).exists():
        raise ConflictError(_("A club named “%(name)s” exists already; use it.") % {"name": name})
    return Club.objects.create(name=name, city=city.strip())


def player_create(
    *,
    name: str,
    club: Club | None = None,
    rating: int | None = None,
    user: Any = None,
    by: User,
) -> Player:
    """A new player. ``user`` (an account or its id) is linked at once by registry staff
    and invited by anyone else (``tournaments.invitations.player_link_or_invite``)."""
    if not can_manage_players(by):
        raise _registry_refused(by, _("Only organisers and staff may create players."))
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."))
    if rating is not None and rating < 0:
        raise ValidationError(_("A rating cannot be negative."))
    with transaction.atomic():
        player = _player_insert(name=name, club=club, rating=rating)
        if user is not None:
            # Registry staff link at once; an organiser invites the account, which must
            # accept (``tournaments.invitations``), and hears nothing about it.
            player_link_or_invite(player=player, user_id=getattr(user, "pk", user), by=by)
    return player


def player_name_taken_error(*, name: str, club: Club) -> ConflictError:
    """The refusal of a second player of ``club`` called ``name`` (one name, one player
    per club: ``Player``'s constraint), code ``player_name_taken``."""
    return ConflictError(
        _(
            "%(club)s has a player called “%(name)s” already: enter that player, or give "
            "this one a name that tells them apart (e.g. with a middle name or “d.y.”)."
        )
        % {"club": club.name, "name": name},
        code="player_name_taken",
    )


def player_name_holder(
    *, name: str, club: Club | None, other_than: int | None = None
) -> Player | None:
    """The player of ``club`` whose name has ``name``'s key (``tournaments.player_names``),
    other than the player ``other_than``; ``None`` if none, or for no club (players of no
    club may share a name)."""
    if club is None:
        return None
    qs = Player.objects.filter(club=club, name_key=player_name_key(name))
    if other_than is not None:
        qs = qs.exclude(pk=other_than)
    return qs.first()


def _player_insert(*, name: str, club: Club | None, rating: int | None) -> Player:
    """Create the player, or ``player_name_taken`` if their club has that name already:
    checked first, and the constraint decides a race (in a savepoint, so the caller's
    transaction goes on)."""
    if club is not None and player_name_holder(name=name, club=club) is not None:
        raise player_name_taken_error(name=name, club=club)
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, club=club, rating=rating)
    except IntegrityError:
        if club is None or player_name_holder(name=name, club=club) is None:
            raise
        raise player_name_taken_error(name=name, club=club) from None


def player_of_club_get_or_create(*, name: str, club: Club) -> tuple[Player, bool]:
    """The player of ``club`` called ``name`` (by its key), created if there is none;
    and whether it was created (as Django's ``get_or_create``). For a caller that checked
    its own right to add players (the season's results import).

    Safe when two requests add the same new name at once, on PostgreSQL and SQLite: the
    one whose insert meets the other's row (the constraint ``player_name_once_per_club``)
    rolls its savepoint back and takes the winner's player; the caller's transaction
    goes on. A winner's row gone again by then (deleted) is one more try.
    """
    name = name.strip()
    for _attempt in range(3):
        held = player_name_holder(name=name, club=club)
        if held is not None:
            return held, False
        try:
            with transaction.atomic():
                return Player.objects.create(name=name, club=club), True
        except IntegrityError:
            continue  # another request added that name meanwhile: read the winner's row
    raise ConflictError(
        _("%(name)s was added to %(club)s and removed again meanwhile; try again.")
        % {"name": name, "club": club.name},
        code="player_name_changing",
    )


def player_shared_error(player: Player) -> PermissionDeniedError:
    """The refusal of an organiser's change to a player who also plays in other
    organisers' tournaments (``player_update``; the admin shows it too)."""
    return PermissionDeniedError(
        _(
            "%(name)s plays in other organisers' tournaments too: only registry staff "
            "may change their name, club or rating."
        )
        % {"name": player.name},
        code="player_shared",
    )


class Keep(enum.Enum):
    """``KEEP``: a field ``player_update`` leaves as it is (``None`` clears a club)."""

    KEEP = "keep"


KEEP = Keep.KEEP


def player_update(
    *,
    player: Player,
    by: User,
    name: str | Keep = KEEP,
    club: Club | Keep | None = KEEP,
    rating: int | Keep | None = KEEP,
) -> Player:
    """Change a player's name, club or rating; a field left out stays as it is.

    Who may change what (as a careful club would):
    - registry staff (``permissions.can_manage_all_players``): everything;
    - an organiser, of a player who is only theirs (``permissions.player_is_theirs``:
      every tournament the player is entered in is one they organise): the club and the
      rating, and the name while the player is linked to no user account. A player
      entered in other organisers' tournaments too is the register's: their name, club
      and rating show in those tournaments, so an organiser who entered them in a draft
      of their own may not rename or re-rate them (403, ``player_shared``) and asks
      registry staff;
    - the user linked to the player: their own name, and only that (club and rating,
      which seeds, are the organisers' to keep);
    - so the name of a linked player is that person's own: an organiser asks them or
      staff to change it.
    A value equal to the stored one is no change, so a client may send a whole player
    back. Everyone else gets ``PermissionDeniedError`` (the API answers 404 before it
    for a player the caller cannot see).
    """
    staff = can_manage_all_players(by)
    organiser = staff or organises_player(by, player)
    own = player.user_id is not None and getattr(by, "pk", None) == player.user_id
    if not (organiser or own):
        raise PermissionDeniedError(
            _("Only staff and the organisers of %(name)s’s tournaments may edit %(name)s.")
            % {"name": player.name}
        )
    if not isinstance(name, Keep):
        name = name.strip()
        if not name:
            raise ValidationError(_("A player needs a name."))
    if not isinstance(rating, Keep) and rating is not None and rating < 0:
        raise ValidationError(_("A rating cannot be negative."))
    name_changes = not isinstance(name, Keep) and name != player.name
    club_changes = not isinstance(club, Keep) and (club.pk if club else None) != player.club_id
    rating_changes = not isinstance(rating, Keep) and rating != player.rating
    if name_changes and not (staff or own or player.user_id is None):
        raise PermissionDeniedError(
            _("%(name)s has a user account: only they and staff may change the name.")
            % {"name": player.name}
        )
    if (club_changes or rating_changes) and not organiser:
        raise PermissionDeniedError(
            _("Your club and rating are kept by the organisers of your tournaments; ask one.")
        )
    organiser_changes = (name_changes and not own) or club_changes or rating_changes
    if organiser_changes and not staff and not player_is_theirs(by, player):
        raise player_shared_error(player)
    new_name = player.name if isinstance(name, Keep) else name
    new_club = player.club if isinstance(club, Keep) else club
    changes_key = name_changes or club_changes
    if (
        changes_key
        and new_club
        and player_name_holder(name=new_name, club=new_club, other_than=player.pk)
    ):
        raise player_name_taken_error(name=new_name, club=new_club)
    # Every check passed: only now change the object (a refusal leaves it as it was).
    if not isinstance(name, Keep):
        player.name = name
    if not isinstance(club, Keep):
        player.club = club
    if not isinstance(rating, Keep):
        player.rating = rating
    with transaction.atomic():
        try:
            with transaction.atomic():
                player.save()
        except IntegrityError:  # the name taken in the club meanwhile (the constraint)
            if new_club is None or not player_name_holder(
                name=new_name, club=new_club, other_than=player.pk
            ):
                raise
            player.refresh_from_db(fields=["name", "name_key", "club", "rating"])
            raise player_name_taken_error(name=new_name, club=new_club) from None
        # The name, club and rating show on the pages of every tournament they entered.
        tournaments_touch(tournaments=Tournament.objects.filter(entries__player=player))
    return player
