"""REST API of a Swiss tournament (issue 14, item 5): its rounds with their pairings and
reasons (``GET /api/tournaments/N/swiss/``), and the organiser's steps: check a player in or
out (``POST /api/entries/N/presence/``), pair the next round (``…/swiss/pair/``), swap two
players of a round (``…/swiss/rounds/K/swap/``) and publish it (``…/swiss/rounds/K/
publish/``). The standings are ``/api/tournaments/N/standings/``, as for a round robin.

Unpublished pairings are shown to the tournament's organisers and referees only; the
steps are the organisers' (the services check it: 403 for anyone else).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIdField
from core.errors import NotFoundError, ValidationError
from formats import Stage, format_for
from matches import swiss_progression, swiss_text
from matches.standing_rows import standing_row
from matches.swiss_standings import SwissStandings, swiss_standings
from matches.visibility import sees_unpublished
from tournaments import selectors
from tournaments.api_base import ApiView
from tournaments.models import Entry, Player, Round, Tournament
from tournaments.permissions import visible_tournaments

__all__ = [
    "EntryPresenceApi",
    "SwissPairApi",
    "SwissPublishApi",
    "SwissRoundsApi",
    "SwissSwapApi",
    "swiss_rounds_data",
]


def _swiss(request: Request, pk: int) -> Tournament:
    tournament = selectors.tournament_get(pk=pk, by=request.user)
    if format_for(tournament.format).stage != Stage.PAIRED:
        raise ValidationError(_("This tournament is not a Swiss."), code="not_swiss")
    return tournament


def _round(tournament: Tournament, number: int) -> Round:
    """Round ``number`` (its kind and the caller's rights are the services' to check)."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise NotFoundError(_("No round %(n)s in this Swiss.") % {"n": number})
    return rnd


class PairingOut(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    table = serializers.IntegerField(help_text="1 the first table; the bye last")
    player1 = serializers.DictField(help_text="id, name, score before the round")
    player2 = serializers.DictField(allow_null=True, help_text="null: the bye")
    state = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.DictField(
        allow_null=True,
        help_text="why the pair is what it is: a code, its params and the text in "
        "the request's language",
    )


class SwissRoundOut(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    id = serializers.IntegerField()
    published = serializers.BooleanField()
    paired = serializers.BooleanField()
    finished = serializers.BooleanField()
    match_length = serializers.IntegerField()
    length_unit = serializers.CharField()
    pairings = PairingOut(many=True)


class SwissOut(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(help_text="the Swiss's number of rounds")
    published_rounds = serializers.IntegerField()
    finished_rounds = serializers.IntegerField()
    can_pair = serializers.BooleanField(help_text="whether the next round may be paired now")
    round_list = SwissRoundOut(many=True)
    absent = serializers.ListField(
        child=serializers.IntegerField(), help_text="entry ids checked out"
    )


def swiss_rounds_data(table: SwissStandings) -> dict[str, Any]:
    """The rounds and pairings as the API gives them (only those ``table`` shows)."""
    rounds = []
    for view in table.round_views:
        pairings = []
        for slot, p in enumerate(view.pairings, start=1):
            m = p.match
            reason = None
            if p.reason is not None:
                reason = {**p.reason.to_dict(), "text": swiss_text.render(p.reason)}
            pairings.append(
                {
                    "match": m.pk,
                    "table": slot,
                    "player1": {
                        "id": m.player1_id,
                        "name": m.player1.name if m.player1 else "",
                        "score": str(p.score1),
                    },
                    "player2": None
                    if m.player2 is None
                    else {"id": m.player2_id, "name": m.player2.name, "score": str(p.score2)},
                    "state": m.state,
                    "winner": m.winner_id,
                    "points": [m.points1, m.points2],
                    "reason": reason,
                }
            )
        rounds.append(
            {
                "number": view.round.number,
                "id": view.round.pk,
                "published": view.round.published,
                "paired": view.paired,
                "finished": view.finished,
                "match_length": view.round.match_length,
                "length_unit": view.round.length_unit,
                "pairings": pairings,
            }
        )
    return {
        "rounds": table.rounds,
        "published_rounds": table.published_rounds,
        "finished_rounds": table.finished_rounds,
        "can_pair": table.can_pair,
        "round_list": rounds,
        "absent": [e.pk for e in table.entries if e.absent and e.withdrawn_at is None],
    }


def _data(request: Request, tournament: Tournament) -> dict[str, Any]:
    staff = sees_unpublished(request.user, tournament)
    return swiss_rounds_data(swiss_standings(tournament=tournament, staff=staff))


class SwissRoundsApi(ApiView):
    @extend_schema(responses=SwissOut)
    def get(self, request: Request, pk: int) -> Response:
        """Show a Swiss's rounds and pairings.

        Each pair with both players' scores before the round, the result so far and why it
        was paired so (equal scores, a float, the bye, an organiser's swap). An unpublished
        round's pairings are shown to the organisers and referees only.
        """
        return Response(SwissOut(_data(request, _swiss(request, pk))).data)


class SwissPairApi(ApiView):
    @extend_schema(request=None, responses={201: SwissOut})
    def post(self, request: Request, pk: int) -> Response:
        """Pair the next round.

        Organisers only, once the round before is published and every match of it is
        finished. The players checked in and not withdrawn are paired by score, rank and
        the stored draw seed; the round is created unpublished. Two presses at once pair
        one round (the other gets 409).
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)  # rights: the service's
        swiss_progression.swiss_round_pair(tournament=tournament, by=request.user)
        return Response(SwissOut(_data(request, tournament)).data, status=status.HTTP_201_CREATED)


class SwissPublishApi(ApiView):
    @extend_schema(request=None, responses=SwissOut)
    def post(self, request: Request, pk: int, number: int) -> Response:
        """Publish a paired round: everyone sees it and its matches can be played."""
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        swiss_progression.swiss_round_publish(round=_round(tournament, number), by=request.user)
        return Response(SwissOut(_data(request, tournament)).data)


class SwissSwapApi(ApiView):
    class SwissSwapInput(serializers.Serializer[Any]):
        first = DbIdField(help_text="a player id")
        second = DbIdField(help_text="a player id")
        confirm = serializers.BooleanField(
            default=False, help_text="swap even if it makes a rematch or a second bye"
        )

    @extend_schema(request=SwissSwapInput, responses=SwissOut)
    def post(self, request: Request, pk: int, number: int) -> Response:
        """Swap two players between their pairings.

        Organisers only, before the round is published or while neither match has a game.
        A swap that makes a rematch or a second bye answers 409 ``swap_warnings`` with the
        ``warnings`` until it is sent again with ``confirm``. Audited.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        data = self.SwissSwapInput(data=request.data)
        data.is_valid(raise_exception=True)
        players = {
            p.pk: p
            for p in Player.objects.filter(
                pk__in=[data.validated_data["first"], data.validated_data["second"]],
                entries__tournament=tournament,
            )
        }
        for key in ("first", "second"):
            if data.validated_data[key] not in players:
                raise ValidationError(
                    _("Player %(id)s is not entered in this Swiss.")
                    % {"id": data.validated_data[key]},
                    code="not_entered",
                )
        swiss_progression.swiss_pairing_swap(
            round=_round(tournament, number),
            first=players[data.validated_data["first"]],
            second=players[data.validated_data["second"]],
            by=request.user,
            confirm=data.validated_data["confirm"],
        )
        return Response(SwissOut(_data(request, tournament)).data)


class EntryPresenceApi(ApiView):
    class EntryPresenceInput(serializers.Serializer[Any]):
        present = serializers.BooleanField(
            help_text="true: checked in (paired next round); false: checked out"
        )

    class EntryPresenceOut(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        present = serializers.BooleanField()

    @extend_schema(request=EntryPresenceInput, responses=EntryPresenceOut)
    def post(self, request: Request, pk: int) -> Response:
        """Check a Swiss player in or out before the next round is paired.

        Organisers only; audited. A checked-out player is not paired until checked in
        again; a withdrawn one never again.
        """
        entry = (
            Entry.objects.select_related("tournament", "player")
            .filter(pk=pk, tournament__in=visible_tournaments(request.user))
            .first()
        )
        if entry is None:
            raise NotFoundError(_("No entry #%(id)s that you can see.") % {"id": pk})
        data = self.EntryPresenceInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = swiss_progression.entry_presence_set(
            entry=entry, present=data.validated_data["present"], by=request.user
        )
        return Response({"id": entry.pk, "present": not entry.absent})


def swiss_standings_data(tournament: Tournament) -> dict[str, Any]:
    """The standings in ``api_bracket.StandingsOut``'s shape (``group`` empty; ``rounds``
    the Swiss's number of rounds, ``finished_rounds`` those published and finished)."""
    table = swiss_standings(tournament=tournament)
    rows = [standing_row(line, table.chain, swiss_text.render) for line in table.lines]
    return {
        "chain": list(table.chain),
        "rounds": table.rounds,
        "finished_rounds": table.finished_rounds,
        "rows": rows,
    }
