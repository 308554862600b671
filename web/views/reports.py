"""Pages of the players' reports, for tournaments whose players
report their own results (``Tournament.results_by``): made for a phone at the table.

- ``match_report``: a player of the match reports the next game with the referee's
  buttons (winner, then the outcome, which sends at once; for game 1 who started it,
  the tek). The report counts for nothing until the opponent confirms it.
- The open reports show on the match page (its live part, so the opponent sees a new
  one within seconds) to the match's players, referees and organisers: the opponent
  confirms with one tap or disputes (with a note, on the report's page); the reporter
  may withdraw it; referees and organisers decide a disputed one on the entry page.
- ``report_detail``: one report, where it stands, and what the reader may do with it.

Who may do what is the services' (``matches.reports``); these views only show the
buttons a reader may use, and show a refusal as a message, never as an error page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import ConflictError, DomainError, PermissionDeniedError
from core.http import found
from core.permissions import User, is_referee, player_of
from games.seats import other, seat_of
from matches import reports as report_services
from matches import selectors as matches_sel
from matches.models import GameReport, Match, MatchState, ReportState
from tournaments.models import Player, ResultsBy
from web.forms.referee import PATTERN_CHOICES, PLAIN_CHOICES, NoteForm, ResultForm, choice_value
from web.games import entry_choices, outcome_codes
from web.templatetags.brade import outcome_word

OPEN_MATCH = (MatchState.READY, MatchState.PLAYING)


def viewer_seat(user: User, match: Match) -> int | None:
    """The seat ``user`` plays in ``match`` (their linked player's), or None."""
    player = player_of(user)
    return None if player is None else match.seat_of(player)


@dataclass
class ReportRow:
    """An open report as a reader sees it, with what they may do."""

    report: GameReport
    can_answer: bool  # the opponent, while it is pending
    can_withdraw: bool  # its reporter, or staff
    can_decide: bool  # a referee or organiser
    own: bool

    @property
    def opponent(self) -> Player | None:
        """The reporter's opponent: who confirms or disputes."""
        return self.report.match.player_for(other(seat_of(self.report.reporter_side)))

    @property
    def accept_value(self) -> str:
        """The referee's outcome button that enters the game as reported."""
        return choice_value(self.report)


def report_rows(user: User, match: Match, reports: list[GameReport]) -> list[ReportRow]:
    """The open reports of ``match`` among ``reports``, for ``user``."""
    seat = viewer_seat(user, match)
    staff = is_referee(user, match.tournament)
    rows = []
    for report in reports:
        if not report.is_open:
            continue
        own = report.reported_by_id is not None and report.reported_by_id == getattr(
            user, "pk", None
        )
        rows.append(
            ReportRow(
                report=report,
                can_answer=seat is not None
                and seat != seat_of(report.reporter_side)
                and not own
                and report.state == ReportState.PENDING,
                can_withdraw=own or staff,
                can_decide=staff,
                own=own,
            )
        )
    return rows


def can_report(user: User, match: Match, next_number: int, rows: list[ReportRow]) -> bool:
    """``user`` plays in ``match``, its tournament's players report, and the next game
    has no open report yet."""
    return (
        match.tournament.results_by == ResultsBy.PLAYERS
        and match.state in OPEN_MATCH
        and viewer_seat(user, match) is not None
        and not any(row.report.number == next_number for row in rows)
    )


def _match_url(match: Match) -> str:
    return reverse("web:match_detail", args=[match.pk])


def _forbidden(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    return render(
        request,
        "web/records/forbidden.html",
        {"match": match, "tournament": match.tournament, "message": message},
        status=403,
    )


def report_said(match: Match, report: GameReport) -> str:
    """ "Game 2: Anna wins by jan", in the reader's language."""
    return _("Game %(n)s: %(winner)s wins by %(how)s.") % {
        "n": report.number,
        "winner": match.player_for(report.winner),
        "how": outcome_word(report),
    }


# --- reporting a game ----------------------------------------------------------------


def report_context(match: Match, form: ResultForm | None = None) -> dict[str, Any]:
    games = list(matches_sel.game_list(match=match))
    entry = entry_choices(match.tournament.game)
    next_number = len(games) + 1
    # The next game already reported (by either player) and waiting for an answer: the
    # page says so and links to it instead of offering a second report of that game.
    waiting = next(
        (r for r in matches_sel.report_open_list(match=match) if r.number == next_number), None
    )
    return {
        "match": match,
        "tournament": match.tournament,
        "games": games,
        "next_number": next_number,
        "waiting": waiting,
        "entry": entry,
        # game 1's starter (R2); later ones follow from the games (S5), where the game
        # records who starts
        "tek": not games and entry.tek,
        "open": match.state in OPEN_MATCH,
        "plain_choices": PLAIN_CHOICES,
        "pattern_choices": PATTERN_CHOICES,
        "form": form,
    }


@require_http_methods(["GET", "POST"])
def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of the match reports the next game (for the opponent to confirm)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    if match.tournament.results_by != ResultsBy.PLAYERS:
        return _forbidden(
            request,
            match,
            _("In this tournament the referees enter the results; players do not report them."),
        )
    if viewer_seat(request.user, match) is None:
        return _forbidden(request, match, _("Only the players of this match may report its games."))
    if request.method != "POST":
        return render(request, "web/reports/report.html", report_context(match))
    form = ResultForm(request.POST, codes=outcome_codes(match))
    if not form.is_valid():
        return render(request, "web/reports/report.html", report_context(match, form), status=400)
    try:
        report = report_services.game_report_submit(
            match=match,
            number=form.cleaned_data["number"],
            result=form.result_value(),
            starter=form.cleaned_data["starter"],
            note=form.cleaned_data["note"],
            by=request.user,
        )
    except DomainError as err:
        context = report_context(match, form)
        context["error"] = err.message
        context["conflict"] = isinstance(err, ConflictError)
        status = 409 if isinstance(err, ConflictError) else 400
        return render(request, "web/reports/report.html", context, status=status)
    opponent = match.player_for(other(seat_of(report.reporter_side)))
    messages.success(
        request,
        _("Reported. %(said)s It counts once %(opponent)s confirms it.")
        % {"said": report_said(match, report), "opponent": opponent},
    )
    return redirect(_match_url(match))


# --- one report, and the answers ---------------------------------------------------


def _report(request: HttpRequest, pk: int) -> GameReport:
    report: GameReport = found(matches_sel.report_get, pk=pk, by=request.user)
    return report


@login_required
@require_GET
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    match = report.match
    rows = report_rows(request.user, match, [report])
    return render(
        request,
        "web/reports/detail.html",
        {
            "report": report,
            "match": match,
            "tournament": match.tournament,
            "row": rows[0] if rows else None,
            # A confirmed report's result version (``GameResult.report``).
            "result": getattr(report, "result", None),
            "form": NoteForm(),
        },
    )


def _refused(request: HttpRequest, report: GameReport, err: DomainError) -> HttpResponse:
    messages.error(request, err.message)
    if isinstance(err, PermissionDeniedError):
        return redirect("web:report_detail", pk=report.pk)
    return redirect(_match_url(report.match))


@login_required
@require_POST
def report_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    match = report.match
    try:
        report_services.game_report_confirm(report=report, by=request.user)
    except DomainError as err:
        return _refused(request, report, err)
    messages.success(request, _("Confirmed. %(said)s") % {"said": report_said(match, report)})
    return redirect(_match_url(match))


@login_required
@require_POST
def report_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = NoteForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        report_services.game_report_dispute(report=report, by=request.user, note=note)
    except DomainError as err:
        return _refused(request, report, err)
    messages.success(
        request,
        _("Disputed. The referees decide game %(n)s; it counts for nothing until then.")
        % {"n": report.number},
    )
    return redirect(_match_url(report.match))


@login_required
@require_POST
def report_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = NoteForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        report = report_services.game_report_withdraw(report=report, by=request.user, note=note)
    except DomainError as err:
        return _refused(request, report, err)
    if report.state == ReportState.WITHDRAWN:
        text = _("The report of game %(n)s is withdrawn; report the game again when it is right.")
    else:
        text = _("The report of game %(n)s is closed without a result.")
    messages.success(request, text % {"n": report.number})
    return redirect(_match_url(report.match))
