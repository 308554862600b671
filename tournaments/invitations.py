"""Linking a player to a user account, with that account's consent.

A player linked to an account reports and confirms results, submits records and sees
their private tournaments as that user: linking someone else's account to a player
acts in their name, so it needs the account's consent or registry staff.

- **Registry staff** (``core.permissions.can_manage_all_players``) link at once (they keep
  the register; also the admin site).
- **An organiser** invites: ``player_invite`` records an invitation to the account; its
  user sees it on ``/account/invitations/`` (and ``GET /api/invitations/``) and accepts
  it (``invitation_accept``: the link is made) or declines it (``invitation_decline``).
- **Nothing tells an organiser about an account**: whether the id is an account at all,
  linked to a player already, or free, the answer is the same (the invitation is made
  only for a free account; for the others nothing is stored). Only the invited user,
  who may know their own account, hears why an invitation cannot be accepted.
- An invitation is answered once; accepting closes the other open invitations of the
  player and of the account (state ``closed``), since each links once.

Decisions where the rules are silent: an invitation does not expire (the organiser
may invite again, which is the same open invitation); an organiser invites for a
player they may change (``tournaments.players.player_update``'s rule: only theirs),
or for the player they are creating.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ConflictError, NotFoundError, PermissionDeniedError
from core.permissions import AuthUser, User, authenticated, can_manage_all_players, signed_in
from tournaments.models import InvitationState, Player, PlayerInvitation, Tournament
from tournaments.page_versions import tournaments_touch
from tournaments.permissions import can_manage_players, player_is_theirs

__all__ = [
    "invitation_accept",
    "invitation_decline",
    "invitation_get",
    "invitation_list",
    "player_invite",
    "player_link_or_invite",
]


def _free_account(user_id: int) -> Any:
    """The active account ``user_id`` if it exists and is linked to no player, else None."""
    return get_user_model().objects.filter(pk=user_id, is_active=True, player__isnull=True).first()


def _invite(*, player: Player, user_id: int, by: User) -> PlayerInvitation | None:
    """The open invitation of ``player`` to account ``user_id`` (made now, or the one
    already open), or None when the account cannot take one. The caller answers the
    same either way."""
    account = _free_account(user_id)
    if account is None:
        return None
    open_one = PlayerInvitation.objects.filter(
        player=player, user=account, state=InvitationState.PENDING
    ).first()
    if open_one is not None:
        return open_one
    try:
        with transaction.atomic():
            return PlayerInvitation.objects.create(
                player=player, user=account, invited_by=signed_in(by)
            )
    except IntegrityError:  # the same invitation made at the same moment
        return PlayerInvitation.objects.filter(
            player=player, user=account, state=InvitationState.PENDING
        ).first()


def player_link_or_invite(*, player: Player, user_id: int, by: User) -> None:
    """For a player ``by`` has just created: registry staff link the account at once
    (``ConflictError`` if it is another player's); anyone else invites it, and hears
    nothing about the account (``_invite``)."""
    if can_manage_all_players(by):
        account = get_user_model().objects.filter(pk=user_id).first()
        if account is None:
            raise NotFoundError(_("No user account #%(id)s.") % {"id": user_id})
        if Player.objects.filter(user=account).exclude(pk=player.pk).exists():
            raise ConflictError(_("That user account is linked to another player already."))
        player.user = account
        player.save(update_fields=["user"])
        return
    if not can_manage_players(by):
        raise PermissionDeniedError(_("Only organisers and staff may create players."))
    _invite(player=player, user_id=user_id, by=by)


def player_invite(*, player: Player, user_id: int, by: User) -> None:
    """Invite account ``user_id`` to be ``player``'s: registry staff, or an organiser
    the player is only theirs of (``permissions.player_is_theirs``). Refused for a
    player linked already (``player_linked``: about the player, whom the caller sees);
    about the account it says nothing."""
    if not (can_manage_all_players(by) or player_is_theirs(by, player)):
        raise PermissionDeniedError(
            _(
                "Only registry staff and the organisers whose player %(name)s is may invite "
                "an account for them."
            )
            % {"name": player.name},
            code="not_your_player",
        )
    if player.user_id is not None:
        raise ConflictError(
            _("%(name)s is linked to a user account already.") % {"name": player.name},
            code="player_linked",
        )
    _invite(player=player, user_id=user_id, by=by)


def invitation_list(*, by: User) -> QuerySet[PlayerInvitation]:
    """The open invitations to ``by``'s own account, newest first."""
    if not authenticated(by):
        return PlayerInvitation.objects.none()
    return PlayerInvitation.objects.filter(user=by, state=InvitationState.PENDING).select_related(
        "player__club", "invited_by__player"
    )


def invitation_get(*, pk: int, by: User) -> PlayerInvitation:
    """An invitation to ``by``'s own account, or ``NotFoundError`` (another user's
    invitations look absent)."""
    found = (
        PlayerInvitation.objects.filter(pk=pk, user_id=by.pk)
        .select_related("player__club", "invited_by__player")
        .first()
        if authenticated(by)
        else None
    )
    if found is None:
        raise NotFoundError(_("No invitation #%(id)s to you.") % {"id": pk})
    return found


def _require_open(invitation: PlayerInvitation, by: User) -> tuple[PlayerInvitation, AuthUser]:
    """The open invitation, locked, and the invited account answering it (``NotFoundError``
    for anyone else)."""
    if not authenticated(by) or invitation.user_id != by.pk:
        raise NotFoundError(_("No invitation #%(id)s to you.") % {"id": invitation.pk})
    locked = PlayerInvitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.state != InvitationState.PENDING:
        raise ConflictError(
            _("This invitation was answered already."),
            code="invitation_closed",
        )
    return locked, by


def invitation_accept(*, invitation: PlayerInvitation, by: User) -> Player:
    """``by`` accepts: their account is linked to the player (``player_linked`` if the
    player is someone else's by now, ``account_linked`` if ``by`` plays as another player);
    the other open invitations of the player and of the account are closed."""
    with transaction.atomic():
        locked, account = _require_open(invitation, by)
        player = Player.objects.select_for_update().get(pk=locked.player_id)
        if player.user_id is not None:
            raise ConflictError(
                _("%(name)s is linked to another account already.") % {"name": player.name},
                code="player_linked",
            )
        if Player.objects.filter(user_id=account.pk).exists():
            raise ConflictError(
                _("Your account is linked to another player already."), code="account_linked"
            )
        now = timezone.now()
        player.user_id = account.pk
        player.save(update_fields=["user"])
        locked.state, locked.answered_at = InvitationState.ACCEPTED, now
        locked.save(update_fields=["state", "answered_at"])
        PlayerInvitation.objects.filter(state=InvitationState.PENDING).filter(player=player).update(
            state=InvitationState.CLOSED, answered_at=now
        )
        PlayerInvitation.objects.filter(state=InvitationState.PENDING, user_id=account.pk).update(
            state=InvitationState.CLOSED, answered_at=now
        )
        # The player's tournaments' pages show who is linked (reporting, records).
        tournaments_touch(tournaments=Tournament.objects.filter(entries__player=player))
    return player


def invitation_decline(*, invitation: PlayerInvitation, by: User) -> PlayerInvitation:
    """``by`` declines: nothing is linked; the organiser may invite again."""
    with transaction.atomic():
        locked, _account = _require_open(invitation, by)
        locked.state, locked.answered_at = InvitationState.DECLINED, timezone.now()
        locked.save(update_fields=["state", "answered_at"])
    return locked
