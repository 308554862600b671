"""A team stage's rounds in the calendar: the day each round's team matches are played (a
league night: every home club plays that evening) and the deadline for the captains'
line-ups, set by the organisers round by round.

``team_round_schedule``: both set on every team match of the round (a team match whose
boards are made keeps its deadline: it has passed its use). **Decision:** the deadline
may not fall after the day's end (a line-up given after the night would be given for a
match already played); either may be cleared (None). Organisers only, whatever the
tournament's status (a league's dates are often fixed after its draw).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ValidationError
from core.permissions import User
from teams.models import TeamMatch
from tournaments.guards import organiser_require
from tournaments.models import Round
from tournaments.page_versions import tournament_touch

__all__ = ["team_round_schedule"]


def team_round_schedule(
    *,
    round: Round,
    date: datetime.date | None,
    deadline: datetime.datetime | None,
    by: User,
) -> list[TeamMatch]:
    """Set the day and the line-up deadline of ``round``'s team matches (module
    docstring); the team matches come back in their order, with their teams and clubs."""
    organiser_require(by, round.tournament)
    if date is not None and deadline is not None:
        day_end = timezone.make_aware(
            datetime.datetime.combine(date, datetime.time.max), timezone.get_current_timezone()
        )
        if deadline > day_end:
            raise ValidationError(
                _("The line-ups' deadline must come before the end of the day played."),
                code="deadline_after_day",
            )
    with transaction.atomic():
        # the teams and their clubs read with the matches, as the API shows them; only the
        # team matches are locked (``away`` may be null: no lock on an outer join's side)
        matches = list(
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("home__club", "away__club")
            .filter(round=round)
            .order_by("number")
        )
        for tm in matches:
            tm.date = date
            if not tm.boards_made:
                tm.line_up_deadline = deadline
        TeamMatch.objects.bulk_update(matches, ["date", "line_up_deadline"])
        tournament_touch(tournament_id=round.tournament_id)
    return matches
