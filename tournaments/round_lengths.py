"""A draw's match lengths and changing a round's length.

Decisions where the docs are silent:
- A knockout's rounds default to 3 games, the semifinals to 5 and the final to 7
  (``stages.knockout.default_lengths``); ``round_length_set`` changes a round while
  none of its games is entered.
- A length is odd and at most ``MAX_MATCH_LENGTH`` (25) games, or 1 to 25 points
  (``tournaments.lengths``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import (
    ConflictError,
    ValidationError,
)
from core.permissions import (
    User,
)
from games.registry import family_for
from tournaments.guards import (
    organiser_require,
)
from tournaments.lengths import lengths_count_problem, match_length_problem
from tournaments.match_play_port import match_play
from tournaments.models import (
    Round,
    Tournament,
)
from tournaments.page_versions import tournament_touch


def round_length_set(*, round: Round, length: int, by: User) -> Round:
    """Change a round's match length while none of its games has been entered."""
    organiser_require(by, round.tournament)
    _check_length(length, round.length_unit)
    with transaction.atomic():
        if match_play().round_started(round=round):
            raise ConflictError(
                _("Games of the %(round)s have been entered; its length can no longer change.")
                % {"round": round.name.lower()}
            )
        tournament_touch(tournament_id=round.tournament_id)
        round.match_length = length
        round.save(update_fields=["match_length"])
        match_play().round_length_apply(round=round, length=length)
    return round


def round_lengths(
    *,
    tournament: Tournament,
    lengths: Sequence[int] | None,
    defaults: Sequence[int],
    players: int,
) -> tuple[list[int], str]:
    """A draw's match lengths, one per round (``defaults`` when ``lengths`` is ``None``),
    each checked (``_check_length``) in the unit of the tournament's game; and that unit."""
    chosen = list(lengths) if lengths is not None else list(defaults)
    problem = lengths_count_problem(given=len(chosen), rounds=len(defaults), players=players)
    if problem is not None:
        raise ValidationError(problem, code="match_length")
    unit = family_for(tournament.game).length_unit
    for length in chosen:
        _check_length(length, unit)
    return chosen, unit


def _check_length(length: int, unit: str) -> None:
    """S1: an odd number of games, at most ``MAX_MATCH_LENGTH``; or 1 to
    ``MAX_MATCH_LENGTH`` points (``tournaments.lengths``)."""
    problem = match_length_problem(length, unit)
    if problem is not None:
        raise ValidationError(problem, code="match_length")
