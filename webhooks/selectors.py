"""Reads of a tournament's hooks and their delivery log, for its organisers only."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User
from tournaments.models import Tournament
from tournaments.selectors import tournament_get
from webhooks.models import Webhook, WebhookDelivery
from webhooks.services import organiser_require

LOG_LENGTH = 20


def managed_tournament_get(*, pk: int, by: User) -> Tournament:
    """A tournament ``by`` organises: 404 if they cannot see it, 403 if they do not
    organise it."""
    tournament = tournament_get(pk=pk, by=by)
    organiser_require(tournament=tournament, by=by)
    return tournament


def hooks_of(*, tournament: Tournament) -> QuerySet[Webhook]:
    return Webhook.objects.filter(tournament=tournament).order_by("id")


def hook_get(*, tournament: Tournament, pk: int) -> Webhook:
    hook = hooks_of(tournament=tournament).filter(pk=pk).first()
    if hook is None:
        raise NotFoundError(_("No webhook #%(id)s in this tournament.") % {"id": pk})
    return hook


def delivery_log(*, hook: Webhook, limit: int = LOG_LENGTH) -> list[WebhookDelivery]:
    """The hook's latest deliveries, newest first."""
    return list(
        WebhookDelivery.objects.filter(hook=hook)
        .select_related("event")
        .order_by("-created_at", "-id")[:limit]
    )
