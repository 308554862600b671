"""A match length as this site accepts it, with the messages people see (scoring.md S1).

S1: a match is played over an odd number n of completed games. The sources name no
longest match; Bräde Arena accepts 1 to ``scoring.match.MAX_MATCH_LENGTH`` (25), the one
constant every edge takes its bound from: the services (``tournament_bracket_generate``,
``round_length_set``, ``bracket_matches_create``), the draw form, the API's input
serializers, and the models' length fields (so the admin's forms), which also carry a
database constraint. Past the bound a request would otherwise make every view of the
match do work that grows with its length.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.match import MAX_MATCH_LENGTH

__all__ = [
    "MAX_MATCH_LENGTH",
    "match_length_problem",
    "too_long_message",
    "validate_match_length",
]


def too_long_message(length: int) -> str:
    """The message for a length over ``MAX_MATCH_LENGTH``, in the reader's language."""
    return _("A match is played over at most %(max)d games, not %(length)d (scoring.md S1).") % {
        "max": MAX_MATCH_LENGTH,
        "length": length,
    }


def match_length_problem(length: int) -> str | None:
    """What is wrong with ``length`` as a match length (S1), or None if nothing is."""
    if length < 1 or length % 2 == 0:
        return _(
            "A match is played over an odd number of games (1, 3, 5, 7, …), not %(length)s "
            "(scoring.md S1)."
        ) % {"length": length}
    if length > MAX_MATCH_LENGTH:
        return too_long_message(length)
    return None


def validate_match_length(value: int) -> None:
    """Django validator of the models' length fields; a ``ValidationError`` names the
    problem (the admin shows it next to the field)."""
    problem = match_length_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="match_length")
