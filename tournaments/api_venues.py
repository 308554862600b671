"""API of a tournament's venues (``tournaments.venues``): list and create them, change
and delete one. Which venue a match is at is the match's ``venue`` (``MatchOut``), moved
with ``POST /api/matches/N/venue/``."""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.bounds import DbIntegerField
from core.errors import NotFoundError
from tournaments import selectors, venues
from tournaments.api_base import ApiView
from tournaments.models import Venue

__all__ = ["VenueDetailApi", "VenueListApi", "VenueOut"]

TABLES_HELP = (
    "how many tables the venue has: it takes that many of a round's matches, the top ones "
    "first, in venue order; null: an even share of what the venues with a number leave"
)


class VenueOut(serializers.ModelSerializer[Venue]):
    class Meta:
        model = Venue
        fields = ("id", "tournament", "name", "ordering", "tables")
        extra_kwargs: ClassVar[dict[str, dict[str, str]]] = {
            "ordering": {"help_text": "the venues' order: the first takes the top tables"},
            "tables": {"help_text": TABLES_HELP},
        }


def _venue(request: Request, pk: int) -> Venue:
    """The venue, if its tournament is one ``request``'s user may see (else a 404)."""
    venue = Venue.objects.filter(pk=pk).first()
    if venue is None:
        raise NotFoundError(_("The tournament has no such venue."))
    selectors.tournament_get(pk=venue.tournament_id, by=request.user)
    return venue


class VenueListApi(ApiView):
    class VenueInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=100)
        tables = DbIntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            max_value=venues.MAX_VENUE_TABLES,
            help_text=TABLES_HELP,
        )

    @extend_schema(responses=VenueOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """List a tournament's venues.

        A championship played at several places at once has a venue for each, in order;
        each venue's tables are numbered from 1. None: the tournament is played at one
        place. Whoever may see the tournament.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        return Response(VenueOut(venues.tournament_venues(tournament), many=True).data)

    @extend_schema(request=VenueInput, responses={201: VenueOut})
    def post(self, request: Request, pk: int) -> Response:
        """Add a venue to a tournament.

        Organisers only. The rounds drawn or paired from now on are shared out among the
        venues (``tables`` each, in order); a round drawn already stays where it is until
        its matches are moved. 409 ``venue_name_taken`` for a name the tournament has.
        """
        tournament = selectors.tournament_get(pk=pk, by=request.user)
        data = self.VenueInput(data=request.data)
        data.is_valid(raise_exception=True)
        venue = venues.venue_create(tournament=tournament, by=request.user, **data.validated_data)
        return Response(VenueOut(venue).data, status=status.HTTP_201_CREATED)


class VenueDetailApi(ApiView):
    class VenuePatchInput(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=100, required=False)
        tables = DbIntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=venues.MAX_VENUE_TABLES,
            help_text=TABLES_HELP,
        )
        ordering = DbIntegerField(required=False, min_value=0, max_value=32767)

    @extend_schema(responses=VenueOut)
    def get(self, request: Request, pk: int) -> Response:
        """Read one venue: its name, place in the order and number of tables."""
        return Response(VenueOut(_venue(request, pk)).data)

    @extend_schema(request=VenuePatchInput, responses=VenueOut)
    def patch(self, request: Request, pk: int) -> Response:
        """Change a venue's name, number of tables or place in the order.

        Organisers only; the matches at it stay there.
        """
        venue = _venue(request, pk)
        data = self.VenuePatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        venue = venues.venue_update(
            venue=venue,
            name=given.get("name", venue.name),
            tables=given.get("tables", venue.tables),
            ordering=given.get("ordering"),
            by=request.user,
        )
        return Response(VenueOut(venue).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        """Delete a venue no match is at.

        Organisers only; 409 ``venue_in_use`` while matches are at it (move them first).
        """
        venues.venue_delete(venue=_venue(request, pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
