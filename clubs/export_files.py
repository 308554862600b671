"""The site's files — exports (CSV, JSON), the tournament archive (ZIP), a round's score
sheets and wall sheet (PDF) — as one response each, for the pages and the API alike.

Each function checks who may have the file (a tournament visible to the reader, the
archive and score sheets for the tournament's referees and organisers, a round's wall
sheet for whoever may see the round) and raises Django's ``Http404`` /
``PermissionDenied``, which the pages show as their 404/403 pages and the API as its
JSON error. The files themselves are made by ``clubs.exports``, ``clubs.archive``,
``clubs.score_sheets`` and ``clubs.wall_sheets``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from clubs import archive, exports, score_sheets, wall_sheets
from clubs import season_selectors as season_sel
from clubs.rating_selectors import rating_list
from core.errors import NotFoundError
from core.permissions import is_referee
from matches.models import Match
from matches.visibility import sees_unpublished
from ratings.formulas import DEFAULT_FORMULA
from tournaments import selectors as tournaments_sel
from tournaments import venues
from tournaments.models import Club, Round, Tournament

FORMATS = ("csv", "json")

# More pages drawn after a round's sheets: ``after(sheet, matches)`` (``clubs.link_slips``)
After = Callable[[score_sheets.ScoreSheetPdf, list[Match]], None]


def _fmt(fmt: str) -> str:
    if fmt not in FORMATS:
        raise Http404(_("No such format: csv or json."))
    return fmt


def _tournament(pk: int, by: Any) -> Tournament:
    try:
        return tournaments_sel.tournament_get(pk=pk, by=by)
    except NotFoundError as err:  # private ones look absent
        raise Http404(str(err)) from None


def _tournament_meta(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament.name,
        "tournament_id": tournament.pk,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "status": tournament.status,
    }


def ratings_file(
    *,
    fmt: str,
    game: str,
    club: Club | None,
    by: Any,
    lang: str,
    formula: str = DEFAULT_FORMULA,
) -> HttpResponse:
    """The rating list of ``game`` by ``formula`` (and ``club``): every player, not a
    page. The columns are the same for every formula, so the FIBS list's CSV is as it was
    before there was a choice, name and all; another formula's file says its formula in
    its name (``ratings-brade-danish.csv``), and every JSON in its ``formula``."""
    rows = exports.ratings_rows(
        rating_list(game=game, club=club.pk if club else None, by=by, formula=formula)
    )
    stem = f"ratings-{game}" + (f"-{formula}" if formula != DEFAULT_FORMULA else "")
    stem += f"-club-{club.pk}" if club else ""
    meta = {"game": game, "formula": formula, "club": club.name if club else None}
    return exports.export_response(
        _fmt(fmt), stem, exports.RATING_COLUMNS, rows, meta=meta, lang=lang
    )


def results_file(*, pk: int, fmt: str, by: Any, lang: str) -> HttpResponse:
    """A tournament's results, a match per row (the matches the reader may see)."""
    tournament = _tournament(pk, by)
    return exports.export_response(
        _fmt(fmt),
        f"tournament-{tournament.pk}-results",
        exports.RESULT_COLUMNS,
        exports.results_rows(tournament, by=by),
        meta=_tournament_meta(tournament),
        lang=lang,
    )


def placings_file(*, pk: int, fmt: str, by: Any, lang: str) -> HttpResponse:
    """A tournament's placings, first place first."""
    tournament = _tournament(pk, by)
    return exports.export_response(
        _fmt(fmt),
        f"tournament-{tournament.pk}-placings",
        exports.PLACING_COLUMNS,
        exports.placings_rows(tournament),
        meta=_tournament_meta(tournament),
        lang=lang,
    )


def archive_file(*, pk: int, by: Any, lang: str) -> HttpResponse:
    """The ZIP archive (``clubs.archive``): the tournament's referees and organisers."""
    tournament = _tournament(pk, by)
    if not is_referee(by, tournament):
        raise PermissionDenied(
            _(
                "The archive holds the game records: only the tournament's referees and "
                "organisers may download it."
            )
        )
    name, data = archive.tournament_archive(tournament=tournament, by=by, lang=lang)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _round(tournament: Tournament, number: int) -> Round:
    round = Round.objects.filter(tournament=tournament, number=number).first()
    if round is None:
        raise Http404(_("The tournament has no such round."))
    return round


def score_sheets_file(*, pk: int, number: int, by: Any, after: After | None = None) -> HttpResponse:
    """A round's printable score sheets (``clubs.score_sheets``): the tournament's referees
    and organisers. ``after`` draws more pages at the end (the private links' slips)."""
    tournament = _tournament(pk, by)
    if not is_referee(by, tournament):
        raise PermissionDenied(
            _("Score sheets are printed by the tournament's referees and organisers.")
        )
    name, data, _pages = score_sheets.round_score_sheets(
        round=_round(tournament, number), by=by, after=after
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def wall_sheet_file(
    *, pk: int, number: int, by: Any, after: After | None = None, venue: str | None = None
) -> HttpResponse:
    """A round's wall sheet (``clubs.wall_sheets``): by table and alphabetically, for
    whoever may see the round (``matches.visibility``: the staff before it is published,
    everyone after); a round the reader may not see is a 404 as on the round page.
    ``venue``: the id of one of the tournament's venues, for that venue's sheet (another:
    ``NotFoundError`` ``unknown_venue``, a page's 404, the API's 400 as any filter naming
    nothing)."""
    tournament = _tournament(pk, by)
    round = _round(tournament, number)
    if not (round.published or sees_unpublished(by, tournament)):
        raise Http404(_("The tournament has no such round."))
    at = venues.venue_get(tournament=tournament, pk=venue)  # NotFoundError: the caller's
    name, data = wall_sheets.wall_sheet(round=round, by=by, after=after, venue=at)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def season_standings_file(*, pk: int, fmt: str, lang: str) -> HttpResponse:
    """A season's standings (``clubs.season_selectors``)."""
    try:
        season = season_sel.season_get(pk=pk)
    except NotFoundError as err:
        raise Http404(str(err)) from None
    standings = season_sel.season_standings(season=season)
    meta = {
        "season": season.name,
        "season_id": season.pk,
        "club": season.club.name,
        "start_date": season.start_date,
        "end_date": season.end_date,
    }
    return exports.export_response(
        _fmt(fmt),
        f"season-{season.pk}-standings",
        exports.STANDING_COLUMNS,
        exports.standings_rows(standings),
        meta=meta,
        lang=lang,
    )
