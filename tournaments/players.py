"""Services for clubs and players: creating them and changing a player.

Every function is ``<entity>_<action>`` with keyword-only, typed arguments; the user acting
is ``by`` and is checked here (``core.permissions``, ``tournaments.permissions``), so the
API, the admin and the pages share the same rules. Errors are the domain errors of
``core.errors``.
"""

from __future__ import annotations

import enum
from typing import Any

from django.db import transaction
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
        player = Player.objects.create(name=name, club=club, rating=rating)
        if user is not None:
            # Registry staff link at once; an organiser invites the account, which must
            # accept (``tournaments.invitations``), and hears nothing about it.
            player_link_or_invite(player=player, user_id=getattr(user, "pk", user), by=by)
    return player


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
    # Every check passed: only now change the object (a refusal leaves it as it was).
    if not isinstance(name, Keep):
        player.name = name
    if not isinstance(club, Keep):
        player.club = club
    if not isinstance(rating, Keep):
        player.rating = rating
    with transaction.atomic():
        player.save()
        # The name, club and rating show on the pages of every tournament they entered.
        tournaments_touch(tournaments=Tournament.objects.filter(entries__player=player))
    return player
