"""REST API of a Swiss tournament: its rounds with their pairings and
reasons (``GET /api/tournaments/N/swiss/``), and the organiser's steps: check a player in or
out (``POST /api/entries/N/presence/``), pair the next round (``…/swiss/pair/``), swap two
players of a round (``…/swiss/rounds/K/swap/``), take its pairing back or pair it again
before it is published (``…/swiss/rounds/K/unpair/``, ``…/repair/``) and publish it
(``…/swiss/rounds/K/publish/``); the half-point byes (the rules ``…/swiss/half-byes/
rules/``, a bye asked for ``…/swiss/half-byes/``, cancelled ``…/swiss/half-byes/B/``).
The standings are ``/api/tournaments/N/standings/``, as for a round robin.

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
from matches import api_swiss_examples, swiss_byes, swiss_progression, swiss_text, swiss_unpair
from matches.models import HalfPointBye
from matches.stage_handlers import handler_for
from matches.swiss_standings import SwissStandings, swiss_standings
from matches.visibility import sees_unpublished
from tournaments import selectors
from tournaments.api_base import ApiView
from tournaments.models import Entry, Player, Round, Tournament
from tournaments.permissions import visible_tournaments

__all__ = [
    "EntryPresenceApi",
    "HalfByeApi",
    "HalfByeDetailApi",
    "HalfByeRulesApi",
    "SwissPairApi",
    "SwissPublishApi",
    "SwissRepairApi",
    "SwissRoundsApi",
    "SwissSwapApi",
    "SwissUnpairApi",
    "half_bye_data",
    "swiss_rounds_data",
]


def _swiss(request: Request, pk: int) -> Tournament:
    tournament = selectors.tournament_get(pk=pk, by=request.user)
    if not handler_for(tournament).pairs_rounds:
        raise ValidationError(
            _("“%(tournament)s” is not played in paired rounds.") % {"tournament": tournament.name},
            code="not_swiss",
        )
    return tournament


def _round(tournament: Tournament, number: int) -> Round:
    """Round ``number`` (its kind and the caller's rights are the services' to check)."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise NotFoundError(_("No round %(n)s in this tournament.") % {"n": number})
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


class HalfByeInRoundOut(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="the player's id")
    name = serializers.CharField()
    score = serializers.CharField(help_text="match points before the round")


class SwissRoundOut(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    id = serializers.IntegerField()
    published = serializers.BooleanField()
    paired = serializers.BooleanField()
    finished = serializers.BooleanField()
    match_length = serializers.IntegerField()
    length_unit = serializers.CharField()
    pairings = PairingOut(many=True)
    half_byes = HalfByeInRoundOut(
        many=True, help_text="the players sitting this round out for half a point, as asked"
    )


class HalfByeOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="the entry's id")
    player = serializers.DictField(help_text="id and name")
    round = serializers.IntegerField(help_text="the round's number")


class HalfByeRulesOut(serializers.Serializer[Any]):
    allowed = serializers.IntegerField(
        help_text="how many half-point byes each player may ask for (0: none)"
    )
    until = serializers.IntegerField(
        allow_null=True, help_text="the last round one may be asked for (null: any round)"
    )
    asked = HalfByeOut(many=True, help_text="every half-point bye asked for, by round")


class SwissOut(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(help_text="the Swiss's number of rounds")
    published_rounds = serializers.IntegerField()
    finished_rounds = serializers.IntegerField()
    can_pair = serializers.BooleanField(help_text="whether the next round may be paired now")
    round_list = SwissRoundOut(many=True)
    absent = serializers.ListField(
        child=serializers.IntegerField(), help_text="entry ids checked out"
    )
    half_point_byes = HalfByeRulesOut()


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
                "half_byes": [
                    {"id": h.player.pk, "name": h.player.name, "score": str(h.score)}
                    for h in view.half_byes
                ],
            }
        )
    return {
        "rounds": table.rounds,
        "published_rounds": table.published_rounds,
        "finished_rounds": table.finished_rounds,
        "can_pair": table.can_pair,
        "round_list": rounds,
        "absent": [e.pk for e in table.entries if e.absent and e.withdrawn_at is None],
        "half_point_byes": half_bye_rules_data(table.tournament),
    }


def half_bye_data(bye: HalfPointBye) -> dict[str, Any]:
    return {
        "id": bye.pk,
        "entry": bye.entry_id,
        "player": {"id": bye.entry.player_id, "name": bye.entry.player.name},
        "round": bye.round_number,
    }


def half_bye_rules_data(tournament: Tournament) -> dict[str, Any]:
    return {
        "allowed": tournament.half_point_byes,
        "until": tournament.half_point_byes_until,
        "asked": [half_bye_data(b) for b in swiss_byes.half_point_byes_of(tournament=tournament)],
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
                    _("Player %(id)s is not entered in this tournament.")
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


# --- half-point byes, un-pairing and re-pairing -------------------------------------


class HalfByeApi(ApiView):
    class HalfByeInput(serializers.Serializer[Any]):
        entry = DbIdField(help_text="the entry's id (GET /api/tournaments/{id}/entries/)")
        round = serializers.IntegerField(
            min_value=1, max_value=99, help_text="the number of the round to sit out"
        )

    @extend_schema(
        request=HalfByeInput,
        responses={201: HalfByeOut},
        examples=api_swiss_examples.HALF_BYE_EXAMPLES,
    )
    def post(self, request: Request, pk: int) -> Response:
        """Ask for a half-point bye.

        The player sits the round out and scores ½ once it is over. Asked for by the
        player (their account is linked to the player) or an organiser, before the round
        is paired, within the number and the last round the organiser set (403 for
        anyone else; 409 when the round is paired or the byes are used up).
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)  # rights: the service's
        data = self.HalfByeInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = (
            Entry.objects.select_related("player", "tournament")
            .filter(pk=data.validated_data["entry"], tournament=tournament)
            .first()
        )
        if entry is None:
            raise ValidationError(
                _("Entry %(id)s is not in this tournament.") % {"id": data.validated_data["entry"]},
                code="not_entered",
            )
        bye = swiss_byes.half_point_bye_ask(
            entry=entry, round_number=data.validated_data["round"], by=request.user
        )
        bye = HalfPointBye.objects.select_related("entry__player").get(pk=bye.pk)
        return Response(HalfByeOut(half_bye_data(bye)).data, status=status.HTTP_201_CREATED)


class HalfByeDetailApi(ApiView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, bye: int) -> Response:
        """Cancel a half-point bye.

        By the player or an organiser, before its round is paired (409 after).
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)  # rights: the service's
        found = HalfPointBye.objects.filter(pk=bye, entry__tournament=tournament).first()
        if found is None:
            raise NotFoundError(_("No half-point bye #%(id)s in this tournament.") % {"id": bye})
        swiss_byes.half_point_bye_cancel(bye=found, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class HalfByeRulesApi(ApiView):
    class HalfByeRulesInput(serializers.Serializer[Any]):
        allowed = serializers.IntegerField(
            min_value=0,
            max_value=swiss_byes.MAX_HALF_BYES,
            help_text="how many half-point byes each player may ask for (0: none)",
        )
        until = serializers.IntegerField(
            min_value=1,
            max_value=99,
            allow_null=True,
            required=False,
            default=None,
            help_text="the last round one may be asked for (null or left out: any round)",
        )

    @extend_schema(
        request=HalfByeRulesInput,
        responses=HalfByeRulesOut,
        examples=api_swiss_examples.HALF_BYE_RULES_EXAMPLES,
    )
    def put(self, request: Request, pk: int) -> Response:
        """Set the half-point byes a Swiss grants.

        Organisers only: how many each player may ask for, and until which round. Byes
        asked for already stay.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)  # rights: the service's
        data = self.HalfByeRulesInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = swiss_byes.half_point_bye_rules_set(
            tournament=tournament,
            allowed=data.validated_data["allowed"],
            until=data.validated_data["until"],
            by=request.user,
        )
        return Response(HalfByeRulesOut(half_bye_rules_data(tournament)).data)


class SwissUnpairApi(ApiView):
    @extend_schema(request=None, responses=SwissOut)
    def post(self, request: Request, pk: int, number: int) -> Response:
        """Take back a round's pairing.

        Organisers only, before the round is published: the round is empty again, so
        players can be checked in or out and half-point byes asked for or cancelled
        before it is paired anew. The pairing taken back stays in the audit trail.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        swiss_unpair.swiss_round_unpair(round=_round(tournament, number), by=request.user)
        return Response(SwissOut(_data(request, tournament)).data)


class SwissRepairApi(ApiView):
    @extend_schema(request=None, responses=SwissOut)
    def post(self, request: Request, pk: int, number: int) -> Response:
        """Pair a round again.

        Organisers only, before the round is published: its pairing is taken back and
        made anew from who is checked in and who asked for a half-point bye now (the
        same pairing if nothing changed). Audited.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        swiss_unpair.swiss_round_repair(round=_round(tournament, number), by=request.user)
        return Response(SwissOut(_data(request, tournament)).data)
