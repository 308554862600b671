"""Pages of the clubs app: rating lists and histories, seasons, exports and the
tournament archive.

Who sees what follows ``tournaments.permissions``: ratings come from public tournaments
only (``clubs.rating_selectors``); a player's history page is a 404 where the player is;
a season counts and lists only what the reader may see (``clubs.season_selectors``);
exports of a tournament are for those who may see it, and the archive (it holds the raw
game records) for its referees and organisers (``clubs.exports``).
"""

from __future__ import annotations

from collections.abc import Callable
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

from clubs import export_files, link_slips, score_sheets
from clubs import season_selectors as season_sel
from clubs.charts import history_chart
from clubs.models import RatedGame
from clubs.rating_formulas import formula_choices, formula_view
from clubs.rating_selectors import club_formula, kept_formulas, player_history, rating_list
from clubs.rating_services import (
    can_choose_club_formula,
    club_rating_formula_set,
    entries_seed_by_rating,
)
from clubs.results_import import ResultsImportError, season_results_import
from clubs.season_services import can_keep_seasons
from core.bounds import DbIntegerFormField, parse_db_id
from core.errors import DomainError
from core.http import found, lang
from core.permissions import is_organiser
from core.site_address import site_url
from games.registry import family_for
from matches.models import Match
from ratings.formulas import DEFAULT_FORMULA
from tournaments import selectors as tournaments_sel
from tournaments.models import Club, Tournament

PAGE_SIZE = 100
IMPORT_MAX_BYTES = 2_000_000


class SeedByRatingForm(forms.Form):
    count = DbIntegerFormField(
        label=gettext_lazy("How many seeds (empty: everyone)"), required=False, min_value=0
    )
    # Which kept rating list to seed by; the service refuses one that is not kept.
    formula = forms.CharField(required=False, max_length=16)


class ClubFormulaForm(forms.Form):
    # A callable: the names are translated when the form is made, in the reader's language.
    formula = forms.ChoiceField(
        label=gettext_lazy("Rating formula of the club's list"), choices=formula_choices
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
        raise Http404(_("No such rated game."))
    return value


def _club(value: str | None) -> Club | None:
    if not value:
        return None
    pk = parse_db_id(value)
    club = None if pk is None else Club.objects.filter(pk=pk).first()
    if club is None:
        raise Http404(_("No such club."))
    return club


def _formula(value: str | None, *, default: str = DEFAULT_FORMULA) -> str:
    """The formula a page reads (``?formula=``; ``default`` when not given): a 404 for one
    whose ratings are not kept (``rating_selectors.kept_formulas``)."""
    formula = value or default
    if formula not in kept_formulas():
        raise Http404(_("No such rating list."))
    return formula


def ratings(request: HttpRequest) -> HttpResponse:
    """The rating list of one game (``?game=``) by one formula (``?formula=``; the club's
    list's formula with ``?club=``, else FIBS), optionally of one club, 100 players a
    page: the same few queries at 100 players and at 10,000. Each kept formula's list is
    a link away; a club's secretary chooses the formula of the club's list here."""
    game = _game(request.GET.get("game"))
    club = _club(request.GET.get("club"))
    own = club_formula(club.pk if club else None)  # the list's formula, unless asked
    formula = _formula(request.GET.get("formula"), default=own)
    kept = kept_formulas()
    rows = rating_list(game=game, club=club.pk if club else None, by=request.user, formula=formula)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    clubs = (
        Club.objects.filter(players__ratings__game=game, players__ratings__formula=formula)
        .distinct()
        .order_by("name")
    )
    can_choose = club is not None and can_choose_club_formula(by=request.user)
    context: dict[str, Any] = {
        "game": game,
        "game_name": RatedGame(game).label,
        "games": RatedGame.choices,
        "club": club,
        "clubs": clubs,
        "page": page,
        "first_rank": page.start_index(),
        "formula": formula_view(formula),
        # ?formula= on the page's links while reading another list than the default one
        "formula_asked": formula != own,
        "history_formula": formula != DEFAULT_FORMULA,
        "formulas": [formula_view(key) for key in kept] if len(kept) > 1 else [],
        "club_formula": formula_view(own) if club else None,
        "formula_form": ClubFormulaForm(initial={"formula": own}) if can_choose else None,
    }
    return render(request, "clubs/ratings.html", context)


@login_required
@require_POST
def club_rating_formula(request: HttpRequest, pk: int) -> HttpResponse:
    """The rating list page's "Use this formula" form (``club_rating_formula_set``)."""
    club = _club(str(pk))
    assert club is not None
    form = ClubFormulaForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the rating formulas."))
    else:
        try:
            choice = club_rating_formula_set(
                club=club, formula=form.cleaned_data["formula"], by=request.user
            )
        except DomainError as err:
            messages.error(request, err.message)
        else:
            messages.success(
                request,
                _("The rating list of %(club)s now uses %(formula)s.")
                % {"club": club.name, "formula": formula_view(choice.formula).name},
            )
    return redirect(reverse("clubs:ratings") + f"?club={club.pk}")


def rating_history(request: HttpRequest, pk: int, game: str) -> HttpResponse:
    """A player's rating history in one game by one formula (``?formula=``, FIBS unless
    told): the chart and every rated match."""
    game = _game(game)
    formula = _formula(request.GET.get("formula"))
    player = found(tournaments_sel.player_get, pk=pk, by=request.user)
    entries = list(player_history(player=player, game=game, formula=formula))
    game_name = RatedGame(game).label
    context = {
        "player": player,
        "game": game,
        "formula": formula_view(formula),
        "formula_asked": formula != DEFAULT_FORMULA,
        "game_name": game_name,
        # what a match length counts (``games.family.GameFamily.length_unit``)
        "unit": family_for(game).length_unit,
        "entries": list(reversed(entries)),  # newest first in the table
        "current": entries[-1] if entries else None,
        "chart": history_chart(game_name=game_name, entries=entries),
    }
    return render(request, "clubs/rating_history.html", context)


# --- exports ---------------------------------------------------------------------------


def ratings_export(request: HttpRequest, fmt: str) -> HttpResponse:
    """The rating list (``?game=``, ``?club=``, ``?formula=`` as the page takes them) as
    CSV or JSON: every player, not a page."""
    club = _club(request.GET.get("club"))
    own = club_formula(club.pk if club else None)
    return export_files.ratings_file(
        fmt=fmt,
        game=_game(request.GET.get("game")),
        club=club,
        by=request.user,
        lang=lang(request),
        formula=_formula(request.GET.get("formula"), default=own),
    )


def tournament_results_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    return export_files.results_file(pk=pk, fmt=fmt, by=request.user, lang=lang(request))


def tournament_placings_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    return export_files.placings_file(pk=pk, fmt=fmt, by=request.user, lang=lang(request))


def tournament_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """The ZIP archive (``clubs.archive``): the tournament's referees and organisers."""
    return export_files.archive_file(pk=pk, by=request.user, lang=lang(request))


def round_score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's printable score sheets: the tournament's referees and organisers; with
    ``?links=1``, for an organiser, the players' private-link slips after them."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    return export_files.score_sheets_file(
        pk=pk, number=number, by=request.user, after=_slips_after(request, tournament)
    )


def round_wall_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's wall sheet, for whoever may see the round (with ``?links=1``, as the
    score sheets)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    return found(
        export_files.wall_sheet_file,
        pk=pk,
        number=number,
        by=request.user,
        after=_slips_after(request, tournament),
        venue=request.GET.get("venue"),
    )


def _link_url() -> Callable[[str], str]:
    return lambda token: site_url(reverse("web:private_home", args=[token]))


def _slips_after(
    request: HttpRequest, tournament: Tournament
) -> Callable[[score_sheets.ScoreSheetPdf, list[Match]], None] | None:
    """With ``?links=1``, for an organiser: the players' private-link slips after the
    sheets (``clubs.link_slips``), each with the player's table in the round."""
    if request.GET.get("links") != "1" or not is_organiser(request.user, tournament):
        return None

    def draw(sheet: score_sheets.ScoreSheetPdf, matches: list[Match]) -> None:
        tables = {
            player_id: m.board
            for m in matches
            if m.board is not None
            for player_id in (m.player1_id, m.player2_id)
            if player_id is not None
        }
        slips = link_slips.link_slips(tournament, _link_url(), tables)
        if slips:
            link_slips.link_slips_draw(sheet, slips)

    return draw


@login_required
def tournament_link_slips(request: HttpRequest, pk: int) -> HttpResponse:
    """Every live private link of the tournament as slips to cut out (an organiser's)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Private links are printed by the tournament's organisers."))
    name, data, _count = link_slips.link_slips_pdf(tournament, _link_url())
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "no-store"
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
                tournament=tournament,
                by=request.user,
                count=form.cleaned_data["count"],
                formula=form.cleaned_data["formula"] or DEFAULT_FORMULA,
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
    return export_files.season_standings_file(pk=pk, fmt=fmt, lang=lang(request))


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
