"""How the notifications app hears of what happens: the two ports of
``matches.match_changes`` (``NotificationsConfig.ready`` registers here), as the webhooks
app does (``webhooks.events``).

- ``match_changing_watch`` on every change to a match (inside its transaction): notes the
  newest audit row (``MatchEvent``) and enqueues, on commit, the task that reads the
  tournament's audit rows written since (``notifications_collect``): a report made (the
  opponent is asked), a report disputed (the reporter and the referees), and, after any
  change, the matches that became ready (a winner placed in the next match).
- ``news_watch`` on what has no audit row: a record rejected, a Swiss round published,
  a draw made (its matches ready).

Tasks are enqueued after the commit (``later``): a rolled-back change tells nobody, and
a broker that is down (Redis unreachable) loses the notification, logged, never the change
nor the request that made it — a notification is a courtesy, the home's queues (reports
to confirm, disputes) still show what waits.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from matches.match_changes import (
    NEWS_MATCHES_DRAWN,
    NEWS_RECORD_REJECTED,
    NEWS_ROUND_PUBLISHED,
)
from matches.models import EventKind, Match, MatchEvent
from notifications import services
from notifications.enqueue import later
from notifications.models import Notification
from notifications.task_names import COLLECT, READY, RECORD


def match_changing_watch(*, match_id: int) -> None:
    tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True)
    tid = tournament_id.first()
    if tid is None:
        return
    mark = MatchEvent.objects.aggregate(newest=Max("id"))["newest"] or 0
    later(COLLECT, tid, mark)


def news_watch(*, kind: str, tournament_id: int, data: dict[str, Any]) -> None:
    if kind == NEWS_RECORD_REJECTED:
        later(RECORD, data["submission"])
    elif kind in (NEWS_ROUND_PUBLISHED, NEWS_MATCHES_DRAWN):
        later(READY, tournament_id)


def audit_notifications(*, tournament_id: int, after: int) -> list[Notification]:
    """The notifications the audit rows of the tournament newer than ``after`` ask for,
    and those of the matches now ready."""
    made: list[Notification] = []
    rows = MatchEvent.objects.filter(
        match__tournament_id=tournament_id,
        id__gt=after,
        kind__in=(EventKind.REPORT_SUBMITTED, EventKind.REPORT_DISPUTED),
    ).order_by("id")
    for row in rows:
        report_id = (row.data or {}).get("report")
        if report_id is None:
            continue
        if row.kind == EventKind.REPORT_SUBMITTED:
            made += services.notifications_for_report(report_id=report_id)
        else:
            made += services.notifications_for_dispute(report_id=report_id)
    made += services.notifications_for_ready_matches(tournament_id=tournament_id)
    return made
