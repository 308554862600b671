"""How the webhooks app hears of what happens, and the JSON each event carries.

Two ports, both in ``matches.match_changes`` (``WebhooksConfig.ready`` registers here):

- ``match_changing_watch`` on every change to a match (``lock_match``, inside the
  change's transaction, the tournament's row already locked): if the tournament has
  hooks it notes the newest audit row (``MatchEvent``) and, when the transaction
  commits, publishes the audit rows written since in that tournament whose kind is an
  event: a game entered or corrected, a match decided (also by a walkover). The audit
  row's id is the event's key, so a change that locks matches twice (or two changes
  that see each other's rows) still makes one event per row; a rolled-back change
  wrote no rows and its callback never runs.
- ``news_watch`` on what has no audit row of its own: a record's verdict, a Swiss round
  published, a tournament finished, a team match decided (its score given whole with the
  news); published when the transaction commits.

Events are made after the commit (``transaction.on_commit``), so a receiver never hears
of a change that was rolled back.
"""

from __future__ import annotations

import uuid
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Max

from matches.match_changes import (
    NEWS_RECORD_REJECTED,
    NEWS_RECORD_VERIFIED,
    NEWS_ROUND_PUBLISHED,
    NEWS_TEAM_MATCH_DECIDED,
    NEWS_TOURNAMENT_FINISHED,
)
from matches.models import EventKind as AuditKind
from matches.models import GameRecordSubmission, Match, MatchEvent
from tournaments.models import Player, Round
from webhooks.models import EventKind, Webhook
from webhooks.services import event_publish

# Audit rows that are events, and which.
AUDIT_EVENTS: dict[str, str] = {
    AuditKind.RESULT_ENTERED: EventKind.GAME_ENTERED,
    AuditKind.RESULT_CORRECTED: EventKind.GAME_CORRECTED,
    AuditKind.MATCH_DECIDED: EventKind.MATCH_DECIDED,
    AuditKind.WALKOVER: EventKind.MATCH_DECIDED,
}

NEWS_EVENTS: dict[str, str] = {
    NEWS_RECORD_VERIFIED: EventKind.RECORD_VERIFIED,
    NEWS_RECORD_REJECTED: EventKind.RECORD_REJECTED,
    NEWS_ROUND_PUBLISHED: EventKind.ROUND_PUBLISHED,
    NEWS_TOURNAMENT_FINISHED: EventKind.TOURNAMENT_FINISHED,
    NEWS_TEAM_MATCH_DECIDED: EventKind.TEAM_MATCH_DECIDED,
}


def _hooked(tournament_id: int | None) -> bool:
    return (
        tournament_id is not None and Webhook.objects.filter(tournament_id=tournament_id).exists()
    )


# --- the watchers ----------------------------------------------------------------------


def match_changing_watch(*, match_id: int) -> None:
    # One query on every change to a match: the tournament, if it has a hook at all.
    tournament_id = (
        Webhook.objects.filter(tournament__matches__id=match_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return
    mark = MatchEvent.objects.aggregate(newest=Max("id"))["newest"] or 0
    transaction.on_commit(partial(audit_events_publish, tournament_id=tournament_id, after=mark))


def news_watch(*, kind: str, tournament_id: int, data: dict[str, Any]) -> None:
    event_kind = NEWS_EVENTS.get(kind)
    if event_kind is None or not _hooked(tournament_id):
        return
    if kind == NEWS_ROUND_PUBLISHED:
        key = f"round-{data['round']}-published"
    elif kind == NEWS_TEAM_MATCH_DECIDED:
        # each decision once: decided again after a correction undid it is a new one
        team_match = data["team_match"]
        key = f"team-match-{team_match['id']}-decided-{team_match['decided_at']}"
    elif kind == NEWS_TOURNAMENT_FINISHED:
        # A correction may reopen a finished tournament, and it may finish again: each
        # finish is told once (``finish_when_played``), each its own event.
        key = f"tournament-{tournament_id}-finished-{uuid.uuid4().hex}"
    else:
        key = f"record-{data['submission']}-{data['state']}"
    transaction.on_commit(
        partial(news_publish, kind=event_kind, tournament_id=tournament_id, key=key, data=data)
    )


# --- publishing after the commit --------------------------------------------------------


def audit_events_publish(*, tournament_id: int, after: int) -> None:
    rows = (
        MatchEvent.objects.filter(
            match__tournament_id=tournament_id, id__gt=after, kind__in=list(AUDIT_EVENTS)
        )
        .select_related("match__player1", "match__player2", "match__round")
        .order_by("id")
    )
    for row in rows:
        event_publish(
            tournament_id=tournament_id,
            kind=AUDIT_EVENTS[row.kind],
            key=f"match-event-{row.pk}",
            data=_audit_data(row),
        )


def news_publish(*, kind: str, tournament_id: int, key: str, data: dict[str, Any]) -> None:
    event_publish(tournament_id=tournament_id, kind=kind, key=key, data=_news_data(kind, data))


# --- the events' data -------------------------------------------------------------------


def _player(player: Player | None) -> dict[str, Any] | None:
    return None if player is None else {"id": player.pk, "name": player.name}


def match_brief(match: Match) -> dict[str, Any]:
    """A match as the events give it (its state when the event was made)."""
    return {
        "id": match.pk,
        "round": match.round.number,
        "player1": _player(match.player1),
        "player2": _player(match.player2),
        "state": match.state,
        "points": [match.points1, match.points2],
        "winner": match.winner_id,
    }


def _audit_data(row: MatchEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"match": match_brief(row.match), "at": row.at.isoformat()}
    stored = row.data or {}
    if row.kind in (AuditKind.RESULT_ENTERED, AuditKind.RESULT_CORRECTED):
        data.update(
            game=stored.get("game"), result=stored.get("result"), source=stored.get("source")
        )
    else:
        data.update(
            winner=stored.get("winner"),
            after_game=stored.get("after_game"),
            walkover=row.kind == AuditKind.WALKOVER,
        )
    return data


def _news_data(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind in (EventKind.RECORD_VERIFIED, EventKind.RECORD_REJECTED):
        sub = GameRecordSubmission.objects.select_related(
            "match__player1", "match__player2", "match__round"
        ).get(pk=data["submission"])
        return {
            "record": {"id": sub.pk, "state": sub.state, "message": sub.message},
            "match": match_brief(sub.match),
        }
    if kind == EventKind.ROUND_PUBLISHED:
        rnd = Round.objects.get(pk=data["round"])
        matches = (
            Match.objects.filter(round=rnd)
            .select_related("player1", "player2", "round")
            .order_by("slot")
        )
        return {
            "round": {"id": rnd.pk, "number": rnd.number},
            "matches": [match_brief(m) for m in matches],
        }
    if kind == EventKind.TEAM_MATCH_DECIDED:
        # told whole by the teams app (the webhooks read no team models)
        return {"team_match": data["team_match"]}
    return {"status": "finished"}
