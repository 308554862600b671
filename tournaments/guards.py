"""The checks a tournament's services share: who may change it, whether it is still a
draft, and which entries a draw places.

Below the tournament services (``tournament_setup``, ``entries``, ``round_lengths``) and the
format modules that draw or change a tournament (``knockout_draw``, ``elimination_draw``,
``round_robin_draw``, ``swiss_rounds``, ``group_stage``, ``format_change``) and the Swiss
progression in ``matches``: each imports them from here, not a private helper of the
services (which would need an import inside a function to dodge the circle).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_organiser
from tournaments.models import Entry, Tournament, TournamentStatus

__all__ = [
    "draft_locked",
    "draft_require",
    "draw_entries",
    "organiser_require",
    "status_label",
]


def organiser_require(by: User, tournament: Tournament) -> None:
    """``PermissionDeniedError`` unless ``by`` organises ``tournament``."""
    if not is_organiser(by, tournament):
        raise PermissionDeniedError(
            _("Only an organiser of “%(tournament)s” may do this; ask one of them.")
            % {"tournament": tournament.name}
        )


def status_label(status: str) -> str:
    """The status as ``get_status_display`` words it, in the active language."""
    labels: dict[str, str] = {
        TournamentStatus.DRAFT: _("draft (entries open)"),
        TournamentStatus.RUNNING: _("running (bracket drawn)"),
        TournamentStatus.FINISHED: _("finished"),
    }
    return labels.get(status, status)


def draft_require(tournament: Tournament, what: str) -> None:
    """``what``: the refused action, translated by the caller (e.g. ``_("Changing seeds")``)."""
    if tournament.status != TournamentStatus.DRAFT:
        raise ConflictError(
            _(
                # Translators: %(what)s is an action such as "Changing seeds"; %(status)s the
                # tournament's status, e.g. "running (bracket drawn)".
                "%(what)s is possible only before the bracket is drawn; “%(tournament)s” is "
                "%(status)s."
            )
            % {
                "what": what,
                "tournament": tournament.name,
                "status": status_label(tournament.status),
            },
            status=tournament.status,
        )


def draft_locked(tournament: Tournament, what: str) -> Tournament:
    """The tournament's row, locked to the end of the transaction, if it is still a draft:
    a draw cannot slip in between the check and the writes (the draw locks it too)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    draft_require(locked, what)
    return locked


def draw_entries(tournament: Tournament, too_few: str) -> list[Entry]:
    """The entries a draw places (not withdrawn, in entry order); ``too_few`` (with
    ``%(count)s``) when fewer than two."""
    entries = list(
        Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )
    if len(entries) < 2:
        raise ValidationError(too_few % {"count": len(entries)})
    return entries
