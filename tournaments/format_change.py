"""Changing how a draft tournament is played: its format and its options (every option of
the registry, ``formats.options``), before the draw only.

``tournament_create`` sets these once; ``tournament_update`` changes a tournament's details,
not its format. This service is what the admin's change form calls for a draft
(``tournaments.admin.TournamentAdmin``, where the fields are read-only after the draw). It
checks and normalises the result as ``tournament_create`` does, with the same function
(``format_values``).

Decisions:
- Changing the format without giving a tiebreak chain gives the new format's default
  chain (a knockout's empty chain would otherwise stay behind); an empty chain is the
  usual one too, as at creation.
- The options the new format does not read go back to their defaults (``format_values``):
  a round robin keeps no match for third place that a knockout had asked for.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ValidationError
from formats.option import OptionKind
from formats.options import option_keys, option_specs
from tournaments import guards
from tournaments.format_options import format_values
from tournaments.models import Tournament
from tournaments.page_versions import tournament_touch
from tournaments.permissions import User
from tournaments.tournament_setup import tournament_update


def format_fields() -> tuple[str, ...]:
    """The fields this service changes: the format and every registered option."""
    return ("format", *option_keys())


def tournament_format_set(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change the draft's :func:`format_fields` named in ``changes`` (the rest are kept)."""
    guards.organiser_require(by, tournament)
    fields = format_fields()
    unknown = set(changes) - set(fields)
    if unknown:
        raise ValidationError(
            _("These fields cannot be changed: %(fields)s.")
            % {"fields": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        guards.draft_require(locked, _("Changing the format"))
        options = {
            spec.key: changes.get(spec.key, getattr(locked, spec.key)) for spec in option_specs()
        }
        for spec in option_specs():
            if spec.kind == OptionKind.TIEBREAKS:  # decisions: the usual chain
                usual = "format" in changes and spec.key not in changes
                options[spec.key] = None if usual else (options[spec.key] or None)
        values = format_values(
            locked.game, locked.scale, format=changes.get("format", locked.format), options=options
        )
        changed = sorted(name for name in fields if getattr(locked, name) != values[name])
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
    fields = format_fields()
    details = {k: v for k, v in changes.items() if k not in fields}
    shape = {k: v for k, v in changes.items() if k in fields}
    with transaction.atomic():
        if shape:
            # Checked before any detail is written: once drawn, the answer is 409.
            guards.draft_locked(tournament, _("Changing the format"))
        if details:
            tournament = tournament_update(tournament=tournament, by=by, **details)
        if shape:
            tournament = tournament_format_set(tournament=tournament, by=by, **shape)
    return tournament
