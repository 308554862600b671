"""A match length as this site accepts it, with the messages people see (scoring.md S1).

S1: a match is played over an odd number n of completed games (bräde; Kungabräde too, as the
best of n); a backgammon match is played to a number of points, odd or even. The sources name no
longest match; Bräde Arena accepts 1 to ``scoring.match.MAX_MATCH_LENGTH`` (25), the one
constant every edge takes its bound from: the services (``tournament_draw``,
``round_length_set``, ``matches_create``), the draw form, the API's input
serializers, and the models' length fields (so the admin's forms), which also carry a
database constraint. Past the bound a request would otherwise make every view of the
match do work that grows with its length.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.match import MAX_MATCH_LENGTH

__all__ = [
    "GAMES",
    "MAX_MATCH_LENGTH",
    "POINTS",
    "match_length_problem",
    "too_long_message",
    "validate_length_bounds",
    "validate_match_length",
]

# What a match length counts (``games.family.GameFamily.length_unit``): games (bräde,
# Kungabräde: the best of an odd number) or points (backgammon: any length). Both are 1 to
# ``MAX_MATCH_LENGTH``: backgammon's own bound (``backgammon.match.MAX_MATCH_POINTS``) is the
# same 25.
GAMES = "games"
POINTS = "points"


def too_long_message(length: int) -> str:
    """The message for a length over ``MAX_MATCH_LENGTH``, in the reader's language."""
    return _("A match is played over at most %(max)d games, not %(length)d (scoring.md S1).") % {
        "max": MAX_MATCH_LENGTH,
        "length": length,
    }


def match_length_problem(length: int, unit: str = GAMES) -> str | None:
    """What is wrong with ``length`` as a match length in ``unit`` (S1 for games), or None
    if nothing is."""
    if unit == POINTS:
        if not 1 <= length <= MAX_MATCH_LENGTH:
            return _("A match is played to 1 to %(max)d points, not %(length)d.") % {
                "max": MAX_MATCH_LENGTH,
                "length": length,
            }
        return None
    if length < 1 or length % 2 == 0:
        return _(
            "A match is played over an odd number of games (1, 3, 5, 7, …), not %(length)s "
            "(scoring.md S1)."
        ) % {"length": length}
    if length > MAX_MATCH_LENGTH:
        return too_long_message(length)
    return None


def lengths_count_problem(*, given: int, rounds: int, players: int) -> str | None:
    """What is wrong with ``given`` match lengths for a draw of ``rounds`` rounds (one
    length per round), or None if nothing is."""
    if given == rounds:
        return None
    return ngettext(
        "%(players)d players make %(rounds)d round: give %(rounds)d length, not %(given)d.",
        "%(players)d players make %(rounds)d rounds: give %(rounds)d lengths, not %(given)d.",
        rounds,
    ) % {"players": players, "rounds": rounds, "given": given}


def validate_match_length(value: int) -> None:
    """Django validator of the models' length fields; a ``ValidationError`` names the
    problem (the admin shows it next to the field)."""
    problem = match_length_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="match_length")


def validate_length_bounds(value: int) -> None:
    """Django validator of the models' length fields: 1 to ``MAX_MATCH_LENGTH``, whatever
    the unit (that a length in games is odd is checked by the services and by the tables'
    constraints, which know the unit)."""
    if value < 1:
        problem = match_length_problem(value)
        assert problem is not None
        raise ValidationError(problem, code="match_length")
    if value > MAX_MATCH_LENGTH:
        raise ValidationError(too_long_message(value), code="match_length")
