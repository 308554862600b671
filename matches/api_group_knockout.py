"""REST API of the knockout a round robin's groups feed (``tournaments.group_stage``).
The URL is the tournament's (``/api/tournaments/N/knockout/``); the view lives here
because it answers with the bracket (tournaments import nothing from matches)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches import round_selectors
from matches.elimination_serializers import EliminationBracketOut
from tournaments import group_stage, selectors
from tournaments.api_base import ApiView
from tournaments.serializers import MatchLengthField


class TournamentGroupKnockoutApi(ApiView):
    class GroupKnockoutInput(serializers.Serializer[Any]):
        lengths = serializers.ListField(child=MatchLengthField(), required=False, allow_null=True)

    @extend_schema(request=GroupKnockoutInput, responses={201: EliminationBracketOut})
    def post(self, request: Request, pk: int) -> Response:
        """Draw the knockout after the groups.

        Organisers only, once, when every group match of a round robin in groups with
        ``group_advance`` > 0 is finished: the top ``group_advance`` of each group (by its
        table; withdrawn players are passed over) placed crosswise, A1–B2, B1–A2 …
        ``lengths``: one match length per knockout round, first round first. The group
        results are final afterwards (409 ``knockout_drawn`` on a correction).
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        data = self.GroupKnockoutInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = group_stage.group_knockout_draw(
            tournament=tournament, by=request.user, lengths=data.validated_data.get("lengths")
        )
        bracket = round_selectors.tournament_bracket(tournament=tournament, by=request.user)
        return Response(EliminationBracketOut(bracket).data, status=status.HTTP_201_CREATED)
