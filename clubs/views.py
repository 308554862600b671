"""Pages of the clubs app: rating lists and histories, seasons, exports and the
tournament archive.

Who sees what follows ``tournaments.permissions``: ratings come from public tournaments
only (``clubs.rating_selectors``); a player's history page is a 404 where the player is;
a season counts and lists only what the reader may see (``clubs.season_selectors``);
exports of a tournament are for those who may see it, and the archive (it holds the raw
game records) for its referees and organisers (``clubs.exports``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import archive, exports, score_sheets, wall_sheets
from clubs import season_selectors as season_sel
from clubs.charts import history_chart
from clubs.models import RatedGame
from clubs.rating_selectors import player_history, rating_list
from clubs.rating_services import entries_seed_by_rating
from clubs.results_import import ResultsImportError, season_results_import
from clubs.season_services import can_keep_seasons
from core.bounds import DbIntegerFormField
from core.errors import DomainError
from core.permissions import is_referee
from games.registry import family_for
from matches.visibility import sees_unpublished
from tournaments import selectors as tournaments_sel
from tournaments.models import Club, Round, Tournament
from web.views.common import found, lang

PAGE_SIZE = 100
IMPORT_MAX_BYTES = 2_000_000


class SeedByRatingForm(forms.Form):
    count = DbIntegerFormField(
        label=gettext_lazy("How many seeds (empty: everyone)"), required=False, min_value=0
    )


class ResultsImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Results file (CSV)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(n)s MB.") % {"n": IMPORT_MAX_BYTES // 1_000_000}
            )
        return upload


def _game(value: str | None) -> str:
    if not value:
        return RatedGame.BRADE
    if value not in RatedGame.values:
        raise Http404("no such rated game")
    return value


def _club(value: str | None) -> Club | None:
    if not value:
        return None
    if not value.isdigit():
        raise Http404("no such club")
    club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        raise Http404("no such club")
    return club


def ratings(request: HttpRequest) -> HttpResponse:
    """The rating list of one game (``?game=``), optionally of one club (``?club=``),
    100 players a page: the same few queries at 100 players and at 10,000."""
    game = _game(request.GET.get("game"))
    club = _club(request.GET.get("club"))
    rows = rating_list(game=game, club=club.pk if club else None, by=request.user)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    clubs = Club.objects.filter(players__ratings__game=game).distinct().order_by("name")
    context: dict[str, Any] = {
        "game": game,
        "game_name": RatedGame(game).label,
        "games": RatedGame.choices,
        "club": club,
        "clubs": clubs,
        "page": page,
        "first_rank": page.start_index(),
    }
    return render(request, "clubs/ratings.html", context)


def rating_history(request: HttpRequest, pk: int, game: str) -> HttpResponse:
    """A player's rating history in one game: the chart and every rated match."""
    game = _game(game)
    player = found(tournaments_sel.player_get, pk=pk, by=request.user)
    entries = list(player_history(player=player, game=game))
    game_name = RatedGame(game).label
    context = {
        "player": player,
        "game": game,
        "game_name": game_name,
        # what a match length counts (``games.family.GameFamily.length_unit``)
        "unit": family_for(game).length_unit,
        "entries": list(reversed(entries)),  # newest first in the table
        "current": entries[-1] if entries else None,
        "chart": history_chart(game_name=game_name, entries=entries),
    }
    return render(request, "clubs/rating_history.html", context)


# --- exports ---------------------------------------------------------------------------


def _fmt(fmt: str) -> str:
    if fmt not in ("csv", "json"):
        raise Http404("no such format")
    return fmt


def ratings_export(request: HttpRequest, fmt: str) -> HttpResponse:
    """The rating list (``?game=``, ``?club=``) as CSV or JSON: every player, not a page."""
    game = _game(request.GET.get("game"))
    club = _club(request.GET.get("club"))
    rows = exports.ratings_rows(
        rating_list(game=game, club=club.pk if club else None, by=request.user)
    )
    stem = f"ratings-{game}" + (f"-club-{club.pk}" if club else "")
    meta = {"game": game, "club": club.name if club else None}
    return exports.export_response(
        _fmt(fmt), stem, exports.RATING_COLUMNS, rows, meta=meta, lang=lang(request)
    )


def _tournament_meta(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament.name,
        "tournament_id": tournament.pk,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "status": tournament.status,
    }


def tournament_results_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    return exports.export_response(
        _fmt(fmt),
        f"tournament-{tournament.pk}-results",
        exports.RESULT_COLUMNS,
        exports.results_rows(tournament, by=request.user),
        meta=_tournament_meta(tournament),
        lang=lang(request),
    )


def tournament_placings_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    return exports.export_response(
        _fmt(fmt),
        f"tournament-{tournament.pk}-placings",
        exports.PLACING_COLUMNS,
        exports.placings_rows(tournament),
        meta=_tournament_meta(tournament),
        lang=lang(request),
    )


def tournament_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """The ZIP archive (``clubs.archive``): the tournament's referees and organisers."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    if not is_referee(request.user, tournament):
        raise PermissionDenied(
            _(
                "The archive holds the game records: only the tournament's referees and "
                "organisers may download it."
            )
        )
    name, data = archive.tournament_archive(
        tournament=tournament, by=request.user, lang=lang(request)
    )
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def round_score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's printable score sheets (``clubs.score_sheets``): the tournament's referees
    and organisers."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    if not is_referee(request.user, tournament):
        raise PermissionDenied(
            _("Score sheets are printed by the tournament's referees and organisers.")
        )
    round = Round.objects.filter(tournament=tournament, number=number).first()
    if round is None:
        raise Http404(_("The tournament has no such round."))
    name, data, _pages = score_sheets.round_score_sheets(round=round, by=request.user)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def round_wall_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's wall sheet (``clubs.wall_sheets``): by table and alphabetically, for
    whoever may see the round (``matches.visibility``: the staff before it is published,
    everyone after); a round the reader may not see is a 404 as on the round page."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    round = Round.objects.filter(tournament=tournament, number=number).first()
    if round is None or not (round.published or sees_unpublished(request.user, tournament)):
        raise Http404(_("The tournament has no such round."))
    name, data = wall_sheets.wall_sheet(round=round, by=request.user)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


# --- seeding by rating -----------------------------------------------------------------


@login_required
@require_POST
def tournament_seed_by_rating(request: HttpRequest, pk: int) -> HttpResponse:
    """The manage page's "Seed by rating" button (``entries_seed_by_rating``)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    form = SeedByRatingForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The number of seeds is a whole number, 0 or more."))
    else:
        try:
            entries = entries_seed_by_rating(
                tournament=tournament, by=request.user, count=form.cleaned_data["count"]
            )
        except DomainError as err:
            messages.error(request, err.message)
        else:
            seeded = sum(1 for e in entries if e.seed is not None)
            messages.success(
                request,
                ngettext(
                    "%(n)d player is seeded by rating.",
                    "%(n)d players are seeded by rating.",
                    seeded,
                )
                % {"n": seeded},
            )
    return redirect(reverse("web:tournament_manage", args=[tournament.pk]) + "#entries")


# --- seasons ---------------------------------------------------------------------------


def season_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "clubs/season_list.html",
        {"seasons": season_sel.season_list(), "can_keep": can_keep_seasons(request.user)},
    )


def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    season = found(season_sel.season_get, pk=pk)
    standings = season_sel.season_standings(season=season)
    rules = standings.rules
    context = {
        "season": season,
        "standings": standings,
        "events": season_sel.season_events(season=season, by=request.user),
        "schemes": [
            (_("Tournaments"), rules.tournament),
            (_("Club nights"), rules.club_night),
        ],
        "can_keep": can_keep_seasons(request.user),
    }
    return render(request, "clubs/season_detail.html", context)


def season_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    season = found(season_sel.season_get, pk=pk)
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
        lang=lang(request),
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Import a previous season's results from CSV (``clubs.results_import``)."""
    season = found(season_sel.season_get, pk=pk)
    if not can_keep_seasons(request.user):
        raise PermissionDenied(_("Only the season keepers of the clubs may import results."))
    form = ResultsImportForm(request.POST or None, request.FILES or None)
    problems: list[Any] = []
    if request.method == "POST" and form.is_valid():
        try:
            summary = season_results_import(
                season=season, data=form.cleaned_data["file"].read(), by=request.user
            )
        except ResultsImportError as err:
            problems = err.problems
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            messages.success(
                request,
                _("Imported %(events)s events with %(matches)s matches (%(players)s new players).")
                % {
                    "events": summary.events,
                    "matches": summary.matches,
                    "players": summary.players_created,
                },
            )
            return redirect("clubs:season_detail", pk=season.pk)
    return render(
        request,
        "clubs/season_import.html",
        {"season": season, "form": form, "problems": problems},
    )
