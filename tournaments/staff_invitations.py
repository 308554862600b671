"""Organisers invite referees and co-organisers of their tournament; the invited person
becomes one when they accept.

- **Only the tournament's organisers invite** (``guards.organiser_require``; superusers
  too). The invitation names a role: ``referee`` or ``organiser``.
- **By user name**: the invitation is to that account at once; its user sees it on
  ``/account/invitations/`` and accepts or declines it. A name that is no active account
  is refused with "no user is called …": organisers see user names on their pages
  anyway (the referees' form says the same), and the invitation must reach someone.
- **By e-mail address** (the text has an ``@`` and is no user name: Django's user names
  may hold an ``@``, and an exact user name is the account): a mail goes to the address
  with a link holding the invitation's secret ``token`` (built on ``SITE_URL``,
  ``core.site_address``). Whoever opens it signed in (after signing up, or signing in
  with an account they had) takes the invitation to their account
  (``staff_invitation_claim``) and accepts it on the invitations page. The mail goes
  whether or not an account has the address, and the invitation is never matched to an
  account by its address: e-mail addresses are not checked at sign-up, so only the
  mailed link proves the address is theirs, and the organiser's answer tells nothing
  about which addresses have accounts.
- **Accepting** adds the user to the tournament's referees or organisers
  (``Tournament.referees`` / ``organisers``) and refreshes its pages; the other open
  invitations of that user to the same role in the same tournament close.

Decisions where the rules are silent: an invitation does not expire, and an open one
is answered once; inviting a user to a role they have already is refused
(``already_staff``); inviting again the same account to the same role gives the open
invitation, not a new one; an e-mail invitation's link works for one account (the first
that opens it).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.errors import ConflictError, NotFoundError, ValidationError
from core.permissions import AuthUser, User, authenticated, signed_in
from core.site_address import site_url
from tournaments.guards import organiser_require
from tournaments.models import InvitationState, StaffInvitation, StaffRole, Tournament
from tournaments.page_versions import tournament_touch

__all__ = [
    "staff_invitation_accept",
    "staff_invitation_claim",
    "staff_invitation_decline",
    "staff_invitation_get",
    "staff_invitation_link",
    "staff_invitation_list",
    "staff_invitations_open",
    "staff_invite",
]


def _staff(tournament: Tournament, role: str) -> Any:
    return tournament.organisers if role == StaffRole.ORGANISER else tournament.referees


def staff_invitation_link(*, invitation: StaffInvitation) -> str:
    """The mailed link (public address) that takes the invitation to an account."""
    return site_url(reverse("web:staff_invitation_open", kwargs={"token": invitation.token}))


def _mail(invitation: StaffInvitation, language: str) -> None:
    """The invitation's mail to its address, in the inviting page's language."""
    with translation.override(language):
        _send(invitation)


def _send(invitation: StaffInvitation) -> None:
    words = {
        "tournament": invitation.tournament.name,
        "inviter": invitation.invited_by.get_username() if invitation.invited_by else "?",
    }
    if invitation.role == StaffRole.ORGANISER:
        subject = _("Invitation to organise %(tournament)s") % words
        what = _("%(inviter)s invites you to organise “%(tournament)s” on Bräde Arena.") % words
    else:
        subject = _("Invitation to referee %(tournament)s") % words
        what = _("%(inviter)s invites you to referee “%(tournament)s” on Bräde Arena.") % words
    body = "\n\n".join(
        [
            what,
            _(
                "Open the link below. Sign in if you have an account, or create one "
                "(%(signup)s); then accept the invitation on your invitations page:"
            )
            % {"signup": site_url(reverse("signup"))},
            staff_invitation_link(invitation=invitation),
            _("If you do not know what this is about, do nothing: nothing changes."),
        ]
    )
    send_mail(subject, body + "\n", None, [invitation.email])


def staff_invite(*, tournament: Tournament, who: str, role: str, by: User) -> StaffInvitation:
    """Invite ``who`` (a user name, or an e-mail address) to be ``role`` of ``tournament``."""
    organiser_require(by, tournament)
    if role not in StaffRole.values:
        raise ValidationError(_("Choose referee or organiser."), code="unknown_role")
    who = who.strip()
    if "@" in who and not get_user_model().objects.filter(username=who).exists():
        try:
            validate_email(who)
        except DjangoValidationError:
            raise ValidationError(
                _("“%(who)s” is no e-mail address.") % {"who": who}, code="bad_email"
            ) from None
        invitation = StaffInvitation.objects.create(
            tournament=tournament,
            role=role,
            email=who,
            token=secrets.token_urlsafe(32),
            invited_by=signed_in(by),
        )
        language = translation.get_language() or settings.LANGUAGE_CODE
        transaction.on_commit(lambda: _mail(invitation, language))
        return invitation
    user = get_user_model().objects.filter(username=who, is_active=True).first()
    if user is None:
        raise NotFoundError(
            _("No user is called “%(name)s”. Check the spelling, or invite by e-mail address.")
            % {"name": who},
            code="no_such_user",
        )
    if _staff(tournament, role).filter(pk=user.pk).exists():
        raise ConflictError(
            _("%(name)s is %(role)s of this tournament already.")
            % {"name": user.get_username(), "role": _role_word(role)},
            code="already_staff",
        )
    with transaction.atomic():
        open_one = (
            StaffInvitation.objects.select_for_update()
            .filter(tournament=tournament, user=user, role=role, state=InvitationState.PENDING)
            .first()
        )
        if open_one is not None:
            return open_one
        return StaffInvitation.objects.create(
            tournament=tournament,
            role=role,
            user=user,
            token=secrets.token_urlsafe(32),
            invited_by=signed_in(by),
        )


def _role_word(role: str) -> str:
    return _("organiser") if role == StaffRole.ORGANISER else _("referee")


def staff_invitations_open(*, tournament: Tournament, by: User) -> QuerySet[StaffInvitation]:
    """The tournament's open invitations, for its organisers' page."""
    organiser_require(by, tournament)
    return StaffInvitation.objects.filter(
        tournament=tournament, state=InvitationState.PENDING
    ).select_related("user")


def staff_invitation_list(*, by: User) -> QuerySet[StaffInvitation]:
    """The open staff invitations to ``by``'s own account, newest first."""
    if not authenticated(by):
        return StaffInvitation.objects.none()
    return StaffInvitation.objects.filter(user=by, state=InvitationState.PENDING).select_related(
        "tournament", "invited_by"
    )


def staff_invitation_get(*, pk: int, by: User) -> StaffInvitation:
    """An invitation to ``by``'s own account, or ``NotFoundError``."""
    found = (
        StaffInvitation.objects.filter(pk=pk, user_id=by.pk).select_related("tournament").first()
        if authenticated(by)
        else None
    )
    if found is None:
        raise NotFoundError(_("No invitation #%(id)s to you.") % {"id": pk})
    return found


def staff_invitation_claim(*, token: str, by: User) -> StaffInvitation:
    """The mailed link opened by ``by``: an open e-mail invitation becomes theirs (or is
    theirs already); any other token is ``NotFoundError``."""
    missing = NotFoundError(
        _("This invitation link does not work: it was used already, or answered."),
        code="invitation_link_used",
    )
    if not authenticated(by):
        raise missing
    with transaction.atomic():
        invitation = (
            StaffInvitation.objects.select_for_update()
            .filter(token=token, state=InvitationState.PENDING)
            .first()
        )
        if invitation is None or invitation.user_id not in (None, by.pk):
            raise missing
        if invitation.user_id is None:
            invitation.user = by
            invitation.save(update_fields=["user"])
    return invitation


def _require_open(invitation: StaffInvitation, by: User) -> tuple[StaffInvitation, AuthUser]:
    if not authenticated(by) or invitation.user_id != by.pk:
        raise NotFoundError(_("No invitation #%(id)s to you.") % {"id": invitation.pk})
    locked = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.state != InvitationState.PENDING:
        raise ConflictError(_("This invitation was answered already."), code="invitation_closed")
    return locked, by


def staff_invitation_accept(*, invitation: StaffInvitation, by: User) -> StaffInvitation:
    """``by`` accepts: they become referee or organiser of the tournament."""
    with transaction.atomic():
        locked, account = _require_open(invitation, by)
        now = timezone.now()
        tournament = Tournament.objects.get(pk=locked.tournament_id)
        _staff(tournament, locked.role).add(account)
        locked.state, locked.answered_at = InvitationState.ACCEPTED, now
        locked.save(update_fields=["state", "answered_at"])
        StaffInvitation.objects.filter(
            tournament=tournament,
            user_id=account.pk,
            role=locked.role,
            state=InvitationState.PENDING,
        ).update(state=InvitationState.CLOSED, answered_at=now)
        # The staff's pages differ, and a private tournament is seen by its staff only.
        tournament_touch(tournament_id=tournament.pk)
    return locked


def staff_invitation_decline(*, invitation: StaffInvitation, by: User) -> StaffInvitation:
    """``by`` declines: nothing changes; the organisers may invite again."""
    with transaction.atomic():
        locked, _account = _require_open(invitation, by)
        locked.state, locked.answered_at = InvitationState.DECLINED, timezone.now()
        locked.save(update_fields=["state", "answered_at"])
    return locked
