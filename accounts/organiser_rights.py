"""The organiser right, granted and revoked by a club administrator on the site.

The right is Django's model permission ``tournaments.add_tournament`` (who may create
tournaments, ``core.permissions.can_create_tournament``); a club administrator is a user
with ``accounts.grant_organiser`` or a superuser (``core.permissions.can_grant_organiser``).
Each change is kept as an ``OrganiserRightChange`` (whose, by whom, when), shown on the
page under the list.

Decisions where the rules are silent:

- The right is given to the user directly (``user_permissions``). Someone who has it
  through a group, or is a superuser, is listed as such and cannot be revoked here:
  that is the admin's business, and the page says so.
- Granting a right the user has, or revoking one they lack, changes nothing and is not
  recorded. A club administrator may revoke their own organiser right (their
  administrator right stays).
- Tournaments a user organises already stay theirs when the right is revoked: it only
  stops them creating new ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import OrganiserRightChange
from core.errors import NotFoundError, PermissionDeniedError
from core.permissions import AuthUser, User, can_grant_organiser, signed_in

__all__ = [
    "Organiser",
    "organiser_grant",
    "organiser_revoke",
    "organiser_right_changes",
    "organisers_list",
]

PERMISSION = ("tournaments", "add_tournament")


@dataclass(frozen=True)
class Organiser:
    """A user who may create tournaments; ``direct``: granted here (so revocable here)."""

    user: AuthUser
    direct: bool


def _permission() -> Permission:
    app_label, codename = PERMISSION
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def _require(by: User) -> None:
    if not can_grant_organiser(by):
        raise PermissionDeniedError(
            _("Only club administrators may grant and revoke the organiser right."),
            code="not_club_administrator",
        )


def organisers_list(*, by: User) -> list[Organiser]:
    """Every active user who may create tournaments, by user name (superusers too)."""
    _require(by)
    model: Any = get_user_model()
    permission = _permission()
    direct = set(model.objects.filter(user_permissions=permission).values_list("pk", flat=True))
    users = model.objects.with_perm(
        permission, include_superusers=True, backend="accounts.backends.LimitedModelBackend"
    )
    return [Organiser(u, u.pk in direct) for u in users.order_by("username")]


def organiser_right_changes(*, by: User, limit: int = 50) -> QuerySet[OrganiserRightChange]:
    """The latest changes of the right, newest first."""
    _require(by)
    return OrganiserRightChange.objects.select_related("user", "by")[:limit]


def _user(username: str) -> Any:
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise NotFoundError(
            _("No user is called “%(name)s”. Check the spelling; they need an account first.")
            % {"name": username.strip()},
            code="no_such_user",
        )
    return user


def organiser_grant(*, username: str, by: User) -> tuple[AuthUser, bool]:
    """Give ``username`` the right; (the user, whether it changed anything)."""
    _require(by)
    user = _user(username)
    permission = _permission()
    with transaction.atomic():
        if user.user_permissions.filter(pk=permission.pk).exists():
            return user, False
        user.user_permissions.add(permission)
        OrganiserRightChange.objects.create(user=user, granted=True, by=signed_in(by))
    return user, True


def organiser_revoke(*, username: str, by: User) -> tuple[AuthUser, bool]:
    """Take the directly granted right from ``username``; (the user, whether it changed
    anything)."""
    _require(by)
    user = _user(username)
    permission = _permission()
    with transaction.atomic():
        if not user.user_permissions.filter(pk=permission.pk).exists():
            return user, False
        user.user_permissions.remove(permission)
        OrganiserRightChange.objects.create(user=user, granted=False, by=signed_in(by))
    return user, True
