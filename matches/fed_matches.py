"""The matches a match feeds, as a correction or reset upstream sees them: whether one has
started (its players can then no longer change) and the refusal that names it. Used by the
knockout's slots (``matches.progression``) and by the links of a consolation or double
elimination (``matches.elimination_progression``) alike."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ConflictError
from matches.models import FINISHED_STATES, Match

__all__ = ["downstream_started", "match_started"]


def match_started(match: Match) -> bool:
    """Whether ``match`` is finished or has a game entered (a correction upstream must
    not change who plays it then)."""
    if match.state in FINISHED_STATES:
        return True
    return match.games.filter(voided_at__isnull=True).exists()


def downstream_started(what: str, target: Match) -> ConflictError:
    """The refusal of ``what`` because ``target``, a match this one feeds, has started."""
    return ConflictError(
        _(
            # Translators: %(what)s is "Correcting game 3" or "Resetting this match";
            # %(round)s the round's name, %(third)s " third place" or nothing.
            "%(what)s is refused: the match it feeds (#%(id)s, %(round)s%(third)s) has "
            "started. An organiser must reset match #%(id)s first."
        )
        % {
            "what": what,
            "id": target.pk,
            "round": target.round.name,
            "third": _(" third place") if target.is_third_place else "",
        },
        code="downstream_started",
        blocking_match=target.pk,
    )
