"""REST API of a tournament's rounds, whatever its format: the draw that makes them, the
rounds with their matches (the bracket), the placings and standings, and a player's
matches. The URLs are the tournaments' (``/api/tournaments/N/bracket/``); the views live
here because they read and make matches (tournaments import nothing from matches).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIntegerField
from core.conditional import Stamp, api_conditional, cached
from core.errors import ValidationError
from matches import round_selectors
from matches.elimination_serializers import EliminationBracketOut
from matches.serializers import MatchOut
from matches.stage_handlers import handler_for
from tournaments import selectors
from tournaments.api_base import ApiView, Pagination, paginate
from tournaments.api_examples import BRACKET_EXAMPLES
from tournaments.models import Player, Tournament
from tournaments.serializers import MatchLengthField, PlacingOut
from tournaments.stage_draws import tournament_draw


def _tournament(request: Request, pk: int) -> Tournament:
    return selectors.tournament_get(pk=pk, by=request.user)


def _player(request: Request, pk: int) -> Player:
    return selectors.player_get(pk=pk, by=request.user)


class PlayerMatchesApi(ApiView):
    pagination_class = Pagination

    @extend_schema(responses=MatchOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List one player's matches.

        Only matches of tournaments you may see; paginated.
        """
        matches = round_selectors.player_matches(player=_player(request, pk), by=request.user)
        return paginate(self, matches, MatchOut)


class TournamentDrawApi(ApiView):
    class TournamentDrawInput(serializers.Serializer[Any]):
        lengths = serializers.ListField(child=MatchLengthField(), required=False, allow_null=True)
        draw_seed = DbIntegerField(required=False, allow_null=True, min_value=0)

    @extend_schema(request=TournamentDrawInput, responses={201: EliminationBracketOut})
    def post(self, request: Request, pk: int) -> Response:
        """Draw the bracket.

        Organisers only, once, from a draft with at least 2 active entries: seeded players
        placed by seed, the rest drawn, byes to the top seeds. ``lengths`` gives one match
        length per round, first round first: bräde and Kungabräde are played over an odd
        number of games (best of 1–25; an even number is refused), backgammon to 1–25
        points (even or odd). ``draw_seed`` repeats an earlier draw. A consolation or
        double elimination takes one length per round of the main (winners') bracket, then
        of the consolation (losers') bracket, then the grand final and its reset.
        """
        tournament = _tournament(request, pk)
        data = self.TournamentDrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_draw(
            tournament=tournament,
            by=request.user,
            lengths=data.validated_data.get("lengths"),
            draw_seed=data.validated_data.get("draw_seed"),
        )
        bracket = round_selectors.tournament_bracket(tournament=tournament, by=request.user)
        return Response(EliminationBracketOut(bracket).data, status=status.HTTP_201_CREATED)


def shared(
    request: Request, stamp: Stamp | None, key: str, build: Callable[[], Any]
) -> Response | HttpResponse:
    """The response of ``build()``'s data. For an anonymous reader of a public tournament
    asking for JSON, the rendered body comes from the cache under the stamp
    (``core.conditional.cached``): the same for every such reader, so a crowd's first loads
    build and render it once per version. A signed-in reader's is built for them (staff
    may be shown more), and so is the browsable API's page."""
    renderer = getattr(request, "accepted_renderer", None)
    if (
        stamp is None
        or not stamp.is_public
        or request.user.is_authenticated
        or not isinstance(renderer, JSONRenderer)
    ):
        return Response(build())
    body = cached(key, stamp, lambda: renderer.render(build()))
    return HttpResponse(body, content_type=f"{renderer.media_type}; charset=utf-8")


class TournamentBracketApi(ApiView):
    @extend_schema(responses=EliminationBracketOut, examples=BRACKET_EXAMPLES)
    @api_conditional("api-bracket", selectors.tournament_stamp)
    def get(
        self, request: Request, pk: int, *, stamp: Stamp | None = None
    ) -> Response | HttpResponse:
        """Show the bracket: rounds and their matches with scores, byes and walkovers.

        A consolation or double elimination also gives its other brackets (``sections``:
        the consolation or losers' bracket and the final), and every match its code and
        where its winner and loser go. Answers ``If-None-Match`` with 304 while the
        tournament is unchanged (``ETag``).
        """
        tournament = _tournament(request, pk)
        return shared(
            request,
            stamp,
            "api-bracket",
            lambda: (
                EliminationBracketOut(
                    round_selectors.tournament_bracket(tournament=tournament, by=request.user)
                ).data
            ),
        )


class TournamentPlacingsApi(ApiView):
    @extend_schema(responses=PlacingOut(many=True))
    @api_conditional("api-placings", selectors.tournament_stamp)
    def get(
        self, request: Request, pk: int, *, stamp: Stamp | None = None
    ) -> Response | HttpResponse:
        """List the placings: who finished where, as far as decided.

        Answers ``If-None-Match`` with 304 while the tournament is unchanged (``ETag``)."""
        tournament = _tournament(request, pk)
        return shared(
            request,
            stamp,
            "api-placings",
            lambda: (
                PlacingOut(
                    round_selectors.tournament_placings(tournament=tournament), many=True
                ).data
            ),
        )


class StandingPlayerOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class StandingRowOut(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    player = StandingPlayerOut()
    withdrawn = serializers.BooleanField()
    played = serializers.IntegerField(help_text="matches finished at the board or by walkover")
    won = serializers.IntegerField()
    values = serializers.DictField(
        child=serializers.CharField(allow_null=True),
        help_text="each tiebreak of the chain → its value as a decimal string (null: the "
        "direct encounter of a player not tied)",
    )
    lot = serializers.IntegerField(allow_null=True, help_text="the lot drawn, if a tie survived")
    group = serializers.CharField(
        help_text='the player\'s group (A, B, …) in a round robin played in groups, else ""; '
        "place, why and the values are within the group"
    )
    why = serializers.DictField(
        allow_null=True,
        help_text="why this player is above the next one: code, params "
        "and the text in the request's language; null for the last",
    )


class StandingsOut(serializers.Serializer[Any]):
    chain = serializers.ListField(
        child=serializers.CharField(), help_text="match_points, then the tournament's tiebreaks"
    )
    rounds = serializers.IntegerField()
    finished_rounds = serializers.IntegerField()
    rows = StandingRowOut(many=True)


class TournamentStandingsApi(ApiView):
    @extend_schema(responses=StandingsOut)
    @api_conditional("api-standings", selectors.tournament_stamp)
    def get(
        self, request: Request, pk: int, *, stamp: Stamp | None = None
    ) -> Response | HttpResponse:
        """Show a round robin's standings.

        Every player in order by match points and the tournament's tiebreak chain (the lots
        last), each tiebreak's value, and why each player is above the next (a message code
        with its parameters, and its text in the request's language). A round robin in
        groups lists group A's rows first, then B's, …: each row names its group, and its
        place and reason are within the group. A knockout has no standings (400; see the
        placings). Answers ``If-None-Match`` with 304 while the tournament is unchanged
        (``ETag``).
        """
        tournament = _tournament(request, pk)
        standings = handler_for(tournament).standings
        if standings is None:
            raise ValidationError(
                _("A knockout has no standings; its placings are at /placings/."),
                code="not_round_robin",
            )
        if not handler_for(tournament).standings_shared:  # shown to this reader
            return Response(StandingsOut(standings(tournament)).data)
        return shared(
            request, stamp, "api-standings", lambda: StandingsOut(standings(tournament)).data
        )
