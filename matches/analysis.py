"""A backgammon match's analysis (``backgammon.analysis``): asked for, run by a worker, read.

- ``match_analysis_request`` keeps one :class:`MatchAnalysis` per match, queued again when
  asked again, and sends the task once the transaction commits;
- ``match_analysis_run`` (the task's whole work) reads the match's latest verified record,
  analyses it game by game, writing the progress, and stores the result — or says the
  analysis is not installed (``gnubg-nn`` is an optional extra: requirements-analysis.txt);
- ``match_analysis_of`` and ``player_analyses`` are the reads of the pages and the API.

Decisions where the issue was silent: the record analysed is the match's latest one
verified (uploaded or recorded live); anyone who may see the match may ask for its
analysis once it has such a record (it costs a worker seconds, not a person's time); a
record that is not a backgammon match record has no analysis.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backgammon.analysis import AnalysisUnavailable, analyse_record
from backgammon.errors import BackgammonError
from backgammon.mat import MatRecord
from backgammon.replay import read_record, replay_record
from core.registered_tasks import registered_task
from matches.models import (
    AnalysisState,
    GameRecordSubmission,
    Match,
    MatchAnalysis,
    RecordState,
)
from matches.task_names import ANALYSE_MATCH
from tournaments.models import Player

__all__ = [
    "AnalysisRefused",
    "analysable_record",
    "match_analysis_of",
    "match_analysis_request",
    "match_analysis_run",
    "player_analyses",
]

ANALYSABLE_STATES = (RecordState.VERIFIED, RecordState.ENTERED, RecordState.MISMATCH)
ACTIVE = (AnalysisState.QUEUED, AnalysisState.RUNNING)


class AnalysisRefused(ValueError):
    """The match has no backgammon record to analyse."""


def analysable_record(*, match: Match) -> tuple[GameRecordSubmission, MatRecord] | None:
    """The match's latest verified record when it is a valid backgammon match record."""
    subs = GameRecordSubmission.objects.filter(match=match, state__in=ANALYSABLE_STATES)
    sub = subs.order_by("-submitted_at", "-id").first()
    if sub is None:
        return None
    try:
        record = read_record(sub.text)
    except BackgammonError:
        return None
    if record.length <= 0 or not replay_record(record).valid:
        return None
    return sub, record


def match_analysis_of(*, match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match).first()


def match_analysis_request(*, match: Match) -> MatchAnalysis:
    """Queue the match's analysis (again); a running one is left to finish."""
    found = analysable_record(match=match)
    if found is None:
        raise AnalysisRefused(match.pk)
    sub, _record = found
    with transaction.atomic():
        analysis, _created = MatchAnalysis.objects.select_for_update().get_or_create(match=match)
        if analysis.state in ACTIVE and not _created:
            return analysis
        analysis.source = sub
        analysis.state = AnalysisState.QUEUED
        analysis.progress = 0
        analysis.total = len(_record.games)
        analysis.message = ""
        analysis.save()
        pk = analysis.pk
        transaction.on_commit(lambda: _send(pk))
    return analysis


def _send(pk: int) -> None:
    registered_task(ANALYSE_MATCH).delay(pk)


def match_analysis_run(*, analysis_id: int) -> MatchAnalysis | None:
    """Run a queued analysis: progress after each game, then the result (or why not)."""
    analysis = MatchAnalysis.objects.filter(pk=analysis_id).select_related("match").first()
    if analysis is None or analysis.state not in ACTIVE:
        return analysis
    found = analysable_record(match=analysis.match)
    if found is None:
        return _finish(analysis, AnalysisState.FAILED, message="no record to analyse")
    sub, record = found
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        state=AnalysisState.RUNNING, source=sub, progress=0, total=len(record.games)
    )

    def progress(done: int, total: int) -> None:
        MatchAnalysis.objects.filter(pk=analysis.pk).update(progress=done, total=total)

    try:
        result = analyse_record(record, progress=progress)
    except AnalysisUnavailable as exc:
        return _finish(analysis, AnalysisState.UNAVAILABLE, message=str(exc))
    data: dict[str, Any] = result.to_dict()
    first, second = result.players
    return _finish(
        analysis,
        AnalysisState.DONE,
        result=data,
        pr_first=first.pr,
        pr_second=second.pr,
        progress=len(record.games),
    )


def _finish(analysis: MatchAnalysis, state: str, **fields: Any) -> MatchAnalysis:
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        state=state, finished_at=timezone.now(), **fields
    )
    analysis.refresh_from_db()
    return analysis


def player_analyses(*, player: Player, match_ids: list[int]) -> dict[int, float]:
    """The player's PR in each of these matches that has a finished analysis, by match id.
    The record's first player is the match's ``player1`` when the names agree, else the
    one whose name is the player's."""
    out: dict[int, float] = {}
    rows = MatchAnalysis.objects.filter(
        Q(match__player1=player) | Q(match__player2=player),
        match_id__in=match_ids,
        state=AnalysisState.DONE,
    ).select_related("match")
    for row in rows:
        names = [p.get("name") for p in (row.result or {}).get("players", [])]
        if player.name in names:
            index = names.index(player.name)
        else:
            index = 0 if row.match.player1_id == player.pk else 1
        pr = row.pr_first if index == 0 else row.pr_second
        if pr is not None:
            out[row.match_id] = pr
    return out
