"""A tournament's status as its matches move it: finished when the matches that end it are
all played, running again when a correction takes a result back (``matches.progression``,
for the knockout's slots and for the links of a consolation or double elimination)."""

from __future__ import annotations

from django.db.models import QuerySet

from matches.match_changes import NEWS_TOURNAMENT_FINISHED, news_tell
from matches.models import FINISHED_STATES, Match
from tournaments.models import Tournament, TournamentStatus
from tournaments.page_versions import tournament_touch

__all__ = ["finish_when_played", "status_set"]


def status_set(tournament_id: int, status: str, *, was: str | None = None) -> bool:
    """The tournament's status (if it was ``was``, when given), if it changes: a change of
    the whole page (it stops or starts updating itself), so every part's version moves
    (``tournament_touch``). True when it changed."""
    rows = Tournament.objects.filter(pk=tournament_id).exclude(status=status)
    if was is not None:
        rows = rows.filter(status=was)
    if rows.update(status=status):
        tournament_touch(tournament_id=tournament_id)
        return True
    return False


def finish_when_played(tournament_id: int, matches: QuerySet[Match]) -> None:
    """Mark the tournament finished when ``matches`` (those that end it) all are: decided,
    walked over, a bye or a replay not needed."""
    # Told only when it turns finished: once per finish (webhooks).
    if (
        matches.exists()
        and not matches.exclude(state__in=FINISHED_STATES).exists()
        and status_set(tournament_id, TournamentStatus.FINISHED)
    ):
        news_tell(kind=NEWS_TOURNAMENT_FINISHED, tournament_id=tournament_id)
