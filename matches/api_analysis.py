"""REST API of a backgammon match's analysis (``matches.analysis``): read it, ask for it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ConflictError
from matches import analysis, selectors
from matches.models import MatchAnalysis
from tournaments.api_base import ApiView

__all__ = ["MatchAnalysisApi"]


class MatchAnalysisOut(serializers.Serializer[Any]):
    state = serializers.CharField(help_text="none, queued, running, done, failed, unavailable")
    progress = serializers.IntegerField(help_text="games analysed so far")
    total = serializers.IntegerField(help_text="games in the record analysed")
    finished_at = serializers.DateTimeField(allow_null=True)
    result = serializers.JSONField(
        allow_null=True,
        help_text=(
            "once done: engine, length, players (name, pr, level, decisions, errors, "
            "error_total, checker_error, cube_error, luck; the record's first player first), "
            "worst (per player, the largest errors with the better play) and decisions "
            "(every analysed decision: game, turn, player, kind, dice, played, best, error "
            "in EMG, mark, counted, position_id)"
        ),
    )


def _out(row: MatchAnalysis | None) -> dict[str, Any]:
    if row is None:
        return {"state": "none", "progress": 0, "total": 0, "finished_at": None, "result": None}
    return {
        "state": row.state,
        "progress": row.progress,
        "total": row.total,
        "finished_at": row.finished_at,
        "result": row.result,
    }


class MatchAnalysisApi(ApiView):
    @extend_schema(responses=MatchAnalysisOut)
    def get(self, request: Request, pk: int) -> Response:
        """A backgammon match's analysis: its state while a worker runs it (``progress`` of
        ``total`` games), then each player's PR (mean error per unforced decision × 500,
        gnubg's 0-ply analysis), BMAB level and luck, the worst mistakes and every
        decision. ``state`` is ``none`` before anyone asked for it."""
        match = selectors.match_get(pk=pk, by=request.user)
        return Response(MatchAnalysisOut(_out(analysis.match_analysis_of(match=match))).data)

    @extend_schema(request=None, responses={202: MatchAnalysisOut})
    def post(self, request: Request, pk: int) -> Response:
        """Ask for the match's analysis (again). Anyone signed in who may see the match;
        409 when the match has no verified backgammon match record to analyse."""
        match = selectors.match_get(pk=pk, by=request.user)
        try:
            row = analysis.match_analysis_request(match=match)
        except analysis.AnalysisRefused:
            raise ConflictError(
                _("This match has no verified backgammon record to analyse."),
                code="no_record",
            ) from None
        row.refresh_from_db()
        return Response(MatchAnalysisOut(_out(row)).data, status=status.HTTP_202_ACCEPTED)
