"""Changing how a draft tournament is played: its format and the options that shape the
draw, before the draw only.

``tournament_create`` sets these once; ``tournament_update`` changes a tournament's details,
not its format. This service is what the admin's change form calls for a draft
(``tournaments.admin.TournamentAdmin``, where the fields are read-only after the draw). It
checks and normalises the result as ``tournament_create`` does, with the same function
(``format_values``).

Decision: changing the format without giving a tiebreak chain
gives the new format's default chain (a knockout's empty chain would otherwise stay
behind).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ValidationError
from tournaments import guards
from tournaments.format_options import format_values
from tournaments.models import Tournament
from tournaments.page_versions import tournament_touch
from tournaments.permissions import User
from tournaments.tournament_setup import tournament_update

FORMAT_FIELDS = (
    "format",
    "tiebreaks",
    "double_round",
    "groups",
    "group_advance",
    "swiss_rounds",
    "progressive_consolation",
    "consolation_third_place",
    "grand_final_reset",
)


def tournament_format_set(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change the draft's ``FORMAT_FIELDS`` named in ``changes`` (the rest are kept)."""
    guards.organiser_require(by, tournament)
    unknown = set(changes) - set(FORMAT_FIELDS)
    if unknown:
        raise ValidationError(
            _("These fields cannot be changed: %(fields)s.")
            % {"fields": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        guards.draft_require(locked, _("Changing the format"))
        values = {name: changes.get(name, getattr(locked, name)) for name in FORMAT_FIELDS}
        given: Sequence[str] | None = values["tiebreaks"] or None
        if "format" in changes and "tiebreaks" not in changes:
            given = None
        values = format_values(locked.game, locked.scale, **{**values, "tiebreaks": given})
        changed = sorted(name for name in FORMAT_FIELDS if getattr(locked, name) != values[name])
        for name in changed:
            setattr(locked, name, values[name])
        if changed:
            locked.save(update_fields=changed)
            tournament_touch(tournament_id=locked.pk)
    for name in changed:
        setattr(tournament, name, values[name])
    return tournament


def tournament_settings_set(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change a tournament's details (``tournament_update``) and its format
    (``tournament_format_set``) in one step: what the API's change of a tournament calls.

    All or nothing: a refused format change (400, or 409 once the bracket is drawn) keeps
    the details unchanged too. The details go first, so a new game is the one the format's
    tiebreak chain is checked against.
    """
    guards.organiser_require(by, tournament)
    details = {k: v for k, v in changes.items() if k not in FORMAT_FIELDS}
    shape = {k: v for k, v in changes.items() if k in FORMAT_FIELDS}
    with transaction.atomic():
        if shape:
            # Checked before any detail is written: once drawn, the answer is 409.
            guards.draft_locked(tournament, _("Changing the format"))
        if details:
            tournament = tournament_update(tournament=tournament, by=by, **details)
        if shape:
            tournament = tournament_format_set(tournament=tournament, by=by, **shape)
    return tournament
