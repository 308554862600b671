"""REST API for the players' reports of games (``matches.reports``): a player reports a
game, the opponent confirms or disputes it, the reporter (or a referee) withdraws it.
Thin like ``matches.api``: selectors read (404 for what you cannot see), the services
write and check who may (403), and refuse what no longer fits (409)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIntegerField
from core.errors import PermissionDeniedError
from core.permissions import can_read_records
from matches import reports, selectors
from matches.api import ResultInput, result_input
from matches.models import SideChoice
from matches.serializers import GameOut, GameReportOut
from tournaments.api_base import ApiView
from tournaments.serializers import staff_context

CONFLICTS = OpenApiResponse(
    description="The report is no longer pending (code 'report_closed' or 'report_disputed', "
    "with the report), or the game can no longer be added (code 'game_exists' or "
    "'match_decided', with the match)."
)


class NoteInput(serializers.Serializer[Any]):
    note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


class MatchReportListApi(ApiView):
    class MatchReportInput(ResultInput):
        number = DbIntegerField(min_value=1, help_text="the game being reported")
        starter = serializers.ChoiceField(
            SideChoice.choices, required=False, allow_null=True, help_text="game 1 only (tek)"
        )

    @extend_schema(responses=GameReportOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List the players' reports of a match's games, oldest first.

        Every report with its state (``pending``, ``confirmed``, ``disputed``,
        ``withdrawn``, ``overridden``); shown to the match's players, referees and
        organisers (403 otherwise).
        """
        match = selectors.match_get(pk=pk, by=request.user)
        if not can_read_records(request.user, match):
            raise PermissionDeniedError(
                _("Reports are shown to the match's players, referees and organisers.")
            )
        people = staff_context(request.user, match.tournament)
        return Response(
            GameReportOut(selectors.report_list(match=match), many=True, context=people).data
        )

    @extend_schema(
        request=MatchReportInput,
        responses={
            201: GameReportOut,
            409: OpenApiResponse(
                description="The game exists (code 'game_exists'), the match is decided "
                "(code 'match_decided') or the game is reported already (code "
                "'report_open', with that report)."
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Report the result of the next game of a match, for the opponent to confirm.

        The match's players, in a tournament whose players report its results
        (``results_by`` = ``players``; 403 with code ``results_by_referees`` otherwise).
        The report counts for nothing until the opponent confirms it
        (``POST /api/reports/{id}/confirm/``). It is checked as a referee's entry is:
        games in order, ``starter`` (tek) only for game 1, the match rules.
        """
        match = selectors.match_get(pk=pk, by=request.user)
        data = self.MatchReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        report = reports.game_report_submit(
            match=match,
            number=v["number"],
            result=result_input(match, v),
            starter=v.get("starter"),
            by=request.user,
            note=v["note"],
        )
        report = selectors.report_get(pk=report.pk, by=request.user)
        people = staff_context(request.user, match.tournament)
        return Response(GameReportOut(report, context=people).data, status=status.HTTP_201_CREATED)


class ReportDetailApi(ApiView):
    @extend_schema(responses=GameReportOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a player's report of a game and where it stands.

        Shown to the match's players, referees and organisers (404 to everyone else).
        """
        return _report_out(request, selectors.report_get(pk=pk, by=request.user))


class ReportConfirmApi(ApiView):
    class ReportConfirmOutput(serializers.Serializer[Any]):
        report = GameReportOut()
        game = GameOut()

    @extend_schema(request=None, responses={200: ReportConfirmOutput, 409: CONFLICTS})
    def post(self, request: Request, pk: int) -> Response:
        """Confirm a pending report: it becomes the game's result.

        Only the opponent of the player who reported it (403 with code ``own_report`` for
        the reporter, ``not_the_opponent`` for anyone else: referees enter the game
        instead). The game is added as version 1 of its result (source ``players``), the
        match is scored and a decided match sends its winner on.
        """
        report = selectors.report_get(pk=pk, by=request.user)
        game = reports.game_report_confirm(report=report, by=request.user)
        report = selectors.report_get(pk=pk, by=request.user)
        match = report.match
        out = {
            "report": GameReportOut(
                report, context=staff_context(request.user, match.tournament)
            ).data,
            "game": GameOut(
                selectors.game_get(match=match, number=game.number), context={"match": match}
            ).data,
        }
        return Response(out)


class ReportDisputeApi(ApiView):
    @extend_schema(request=NoteInput, responses={200: GameReportOut, 409: CONFLICTS})
    def post(self, request: Request, pk: int) -> Response:
        """Dispute a pending report: the referees and organisers decide it.

        Only the opponent of the player who reported it; ``note`` says what is wrong.
        The referees decide by entering the game (the report is then ``overridden``) or
        by withdrawing the report.
        """
        report = selectors.report_get(pk=pk, by=request.user)
        data = NoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        reports.game_report_dispute(
            report=report, by=request.user, note=data.validated_data["note"]
        )
        return _report_out(request, selectors.report_get(pk=pk, by=request.user))


class ReportWithdrawApi(ApiView):
    @extend_schema(request=NoteInput, responses={200: GameReportOut, 409: CONFLICTS})
    def post(self, request: Request, pk: int) -> Response:
        """Withdraw an open report without a result.

        The player who reported it (state ``withdrawn``; the game may then be reported
        again), or a referee or organiser (state ``overridden``, e.g. for a disputed game
        that is played again); ``note`` is kept in the audit trail.
        """
        report = selectors.report_get(pk=pk, by=request.user)
        data = NoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        reports.game_report_withdraw(
            report=report, by=request.user, note=data.validated_data["note"]
        )
        return _report_out(request, selectors.report_get(pk=pk, by=request.user))


def _report_out(request: Request, report: Any) -> Response:
    """``report`` as ``GameReportOut``, its people named for the reader (``PersonField``)."""
    people = staff_context(request.user, report.match.tournament)
    return Response(GameReportOut(report, context=people).data)
