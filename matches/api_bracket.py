"""REST API of a tournament's bracket: the draw, the bracket, the placings, and a player's
matches. The URLs are the tournaments' (``/api/tournaments/N/bracket/``); the views live
here because they read and make matches (tournaments import nothing from matches).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches import brackets
from matches.serializers import BracketOut, MatchOut
from tournaments import selectors, services
from tournaments.api_base import ApiView, paginate
from tournaments.models import Player, Tournament
from tournaments.serializers import MatchLengthField, PlacingOut


def _tournament(request: Request, pk: int) -> Tournament:
    return selectors.tournament_get(pk=pk, by=request.user)


def _player(request: Request, pk: int) -> Player:
    return selectors.player_get(pk=pk, by=request.user)


class PlayerMatchesApi(ApiView):
    @extend_schema(responses=MatchOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List one player's matches.

        Only matches of tournaments you may see; paginated.
        """
        matches = brackets.player_matches(player=_player(request, pk), by=request.user)
        return paginate(self, matches, MatchOut)


class TournamentDrawApi(ApiView):
    class TournamentDrawInput(serializers.Serializer[Any]):
        lengths = serializers.ListField(child=MatchLengthField(), required=False, allow_null=True)
        draw_seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)

    @extend_schema(request=TournamentDrawInput, responses={201: BracketOut})
    def post(self, request: Request, pk: int) -> Response:
        """Draw the bracket.

        Organisers only, once, from a draft with at least 2 active entries: seeded players
        placed by seed, the rest drawn, byes to the top seeds. ``lengths`` gives one odd
        match length (best of 1–25) per round, first round first; ``draw_seed`` repeats an
        earlier draw.
        """
        tournament = _tournament(request, pk)
        data = self.TournamentDrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_bracket_generate(
            tournament=tournament,
            by=request.user,
            lengths=data.validated_data.get("lengths"),
            draw_seed=data.validated_data.get("draw_seed"),
        )
        bracket = brackets.tournament_bracket(tournament=tournament)
        return Response(BracketOut(bracket).data, status=status.HTTP_201_CREATED)


class TournamentBracketApi(ApiView):
    @extend_schema(responses=BracketOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show the bracket: rounds and their matches with scores, byes and walkovers."""
        bracket = brackets.tournament_bracket(tournament=_tournament(request, pk))
        return Response(BracketOut(bracket).data)


class TournamentPlacingsApi(ApiView):
    @extend_schema(responses=PlacingOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List the placings: who finished where, as far as decided."""
        placings = brackets.tournament_placings(tournament=_tournament(request, pk))
        return Response(PlacingOut(placings, many=True).data)
