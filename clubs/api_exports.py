"""The site's files through the API: the same exports (CSV, JSON), archive (ZIP), score
sheets and wall sheet (PDF) as the pages' links, made by ``clubs.export_files`` with the
same rights — so a client with a token gets them without a browser session.

The answer is the file itself (with ``Content-Disposition``), whatever ``Accept`` says
(a client asking for ``text/csv`` or ``application/pdf`` gets it; the error answers stay
JSON): the views ignore content negotiation, as the files are not rendered from data.
A CSV's header and its yes/no are in the API's language (English unless the client asks
for Swedish with ``Accept-Language: sv``, as for every API answer: ``web.middleware``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.request import Request

from clubs import export_files
from clubs.api import GAME_PARAM, rated_game
from core.bounds import parse_db_id
from core.errors import NotFoundError, ValidationError
from core.http import lang
from tournaments.api_base import ApiView
from tournaments.models import Club


class FirstRenderer(BaseContentNegotiation):
    """Always the view's first renderer (JSON, for the error answers): a file is sent as
    it is, so the client's ``Accept`` cannot make it unacceptable (no 406)."""

    def select_parser(self, request: Any, parsers: Any) -> Any:
        return parsers[0]

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return (renderers[0], renderers[0].media_type)


class FileView(ApiView):
    content_negotiation_class = FirstRenderer


def _signed_in(request: Request) -> None:
    """The staff's files: anonymous is 401 (with ``WWW-Authenticate``), not 403."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()


FMT_PARAM = OpenApiParameter(
    "fmt",
    str,
    location=OpenApiParameter.PATH,
    enum=list(export_files.FORMATS),
    description="csv (UTF-8 with BOM, ';' between cells) or json ({…meta, \"rows\": […]})",
)


def _table(description: str) -> dict[Any, Any]:
    return {
        (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description=description),
        (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description=description),
    }


def _file(media_type: str, description: str) -> dict[Any, Any]:
    return {(200, media_type): OpenApiResponse(OpenApiTypes.BINARY, description=description)}


class RatingsExportApi(FileView):
    @extend_schema(
        parameters=[
            FMT_PARAM,
            GAME_PARAM,
            OpenApiParameter("club", int, description="only the players of this club"),
        ],
        responses=_table("the rating list: rank, player, club, rating, experience, matches"),
    )
    def get(self, request: Request, fmt: str) -> HttpResponse:
        """Download a game's rating list.

        Every player of ``game`` (and ``club``), highest first, as the file
        ``ratings-<game>.csv`` or ``.json`` (`/ratings/export.csv` on the site). Anyone may
        read.
        """
        game = rated_game(request.query_params.get("game"))
        club_id = request.query_params.get("club")
        club = None
        if club_id is not None:
            pk = parse_db_id(club_id)
            club = None if pk is None else Club.objects.filter(pk=pk).first()
            if club is None:
                raise ValidationError(_("club: give a club's id."), code="invalid")
        return export_files.ratings_file(
            fmt=fmt, game=game, club=club, by=request.user, lang=lang(request)
        )


class ResultsExportApi(FileView):
    @extend_schema(
        parameters=[FMT_PARAM],
        responses=_table("a match per row: round, players, score, winner, games, walkover"),
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        """Download a tournament's results.

        Every match the caller may see, a row each (``tournament-N-results.csv`` or
        ``.json``; `/tournaments/N/results.csv` on the site).
        """
        return export_files.results_file(pk=pk, fmt=fmt, by=request.user, lang=lang(request))


class PlacingsExportApi(FileView):
    @extend_schema(parameters=[FMT_PARAM], responses=_table("the placings, first place first"))
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        """Download a tournament's placings.

        Place, player and how far each came (``tournament-N-placings.csv`` or ``.json``).
        """
        return export_files.placings_file(pk=pk, fmt=fmt, by=request.user, lang=lang(request))


class ArchiveExportApi(FileView):
    @extend_schema(
        responses=_file("application/zip", "the game records as submitted, results, README")
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """Download a tournament's archive.

        A ZIP file: every game record as submitted (a backgammon tournament's as ``.mat``),
        the results and a README. Only the tournament's referees and organisers (403).
        """
        _signed_in(request)
        return export_files.archive_file(pk=pk, by=request.user, lang=lang(request))


class ScoreSheetsApi(FileView):
    @extend_schema(responses=_file("application/pdf", "one A4 page per match to play"))
    def get(self, request: Request, pk: int, number: int) -> HttpResponse:
        """Download a round's score sheets.

        A PDF, one A4 page per match to play, in table order. Only the tournament's
        referees and organisers (403).
        """
        _signed_in(request)
        return export_files.score_sheets_file(pk=pk, number=number, by=request.user)


class WallSheetApi(FileView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "venue",
                int,
                description="a tournament played at several venues: that venue's sheet, its "
                "matches only (an id from the tournament's venues; another is a 400, as any "
                "filter's value that names nothing)",
            )
        ],
        responses=_file("application/pdf", "the pairings by table and by name"),
    )
    def get(self, request: Request, pk: int, number: int) -> HttpResponse:
        """Download a round's wall sheet.

        A PDF to pin up: the round's pairings by table, and alphabetically by player with
        their table; of one ``venue``'s matches if given. Whoever may see the round
        (before it is published: its staff).
        """
        venue = request.query_params.get("venue")
        if venue is not None and parse_db_id(venue) is None:
            raise ValidationError(_("venue: give a venue's id."), code="invalid")
        try:
            return export_files.wall_sheet_file(pk=pk, number=number, by=request.user, venue=venue)
        except NotFoundError as missing:
            if missing.code != "unknown_venue":
                raise
            raise ValidationError(missing.message, code="invalid") from missing


class SeasonStandingsExportApi(FileView):
    @extend_schema(parameters=[FMT_PARAM], responses=_table("the season's points table"))
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        """Download a season's standings.

        The points table as ``season-N-standings.csv`` or ``.json``. Anyone may read.
        """
        return export_files.season_standings_file(pk=pk, fmt=fmt, lang=lang(request))
