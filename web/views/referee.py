"""Referee pages: entering a game's result at the table, on a phone, and correcting one.

Entering takes at most three taps after opening the match: the winner, then the outcome
(for vackert spel: "vackert spel…", then the pattern). The outcome button submits at
once; a wrong tap is put right with "Correct" — every version is kept (audit trail).
The page says at once whether the match is now decided and who advances. Another
referee's entry of the same game meanwhile is a conflict: the page shows what they
entered instead of overwriting it. The same holds for corrections: the correction form
names the version it corrects (a hidden field), and a correction saved meanwhile by
someone else is shown as a conflict with the current result.

Game 1's starter (the tek, R2) is one optional tap with game 1; later games are started
by the loser of the game before (S5). In a tournament whose players report their results
the page lists the open reports: a referee decides one by entering the game (its buttons
below, or "Enter as reported"), which settles the report (``matches.reports``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.errors import ConflictError, DomainError
from core.http import found, lang
from core.permissions import is_match_referee, is_referee
from matches import home_selectors, results
from matches import selectors as matches_sel
from matches.models import Game, Match, MatchState
from matches.standing import family_of, match_settings
from tournaments.models import ResultsBy
from web.forms.referee import (
    PATTERN_CHOICES,
    PLAIN_CHOICES,
    CorrectionForm,
    ResultForm,
    chosen,
)
from web.games import entry_choices, outcome_codes
from web.templatetags.brade import outcome_word
from web.views.reports import report_rows
from web.views.scoresheet import flag_fall_reason


def _referee_match(request: HttpRequest, pk: int) -> Match | HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    if not is_referee(request.user, match.tournament):
        raise PermissionDenied(_("Only the referees of this tournament may enter results."))
    if not is_match_referee(request.user, match):
        raise PermissionDenied(
            _("You referee at another venue: this match's results are its venue's referees'.")
        )
    return match


def _next_match(match: Match) -> Match | None:
    """Where the winner of a decided match plays next (None after the final)."""
    if match.winner_id is None or match.is_third_place:
        return None
    return (
        Match.objects.filter(
            tournament_id=match.tournament_id, round__number__gt=match.round.number
        )
        .filter(Q(player1_id=match.winner_id) | Q(player2_id=match.winner_id))
        .filter(is_third_place=False)
        .select_related("round", "player1", "player2")
        .order_by("round__number")
        .first()
    )


def _context(request: HttpRequest, match: Match, form: ResultForm | None = None) -> dict[str, Any]:
    match.refresh_from_db()
    games = list(matches_sel.game_list(match=match))
    reports = list(matches_sel.report_open_list(match=match))
    entry = entry_choices(match.tournament.game)
    return {
        "match": match,
        "tournament": match.tournament,
        "games": games,
        "next_number": len(games) + 1,
        "entry": entry,
        # Game 1's starter, the tek (R2), is asked for with game 1 only (S5 after that),
        # in a game that records who starts.
        "tek": not games and entry.tek,
        "players_report": match.tournament.results_by == ResultsBy.PLAYERS,
        "report_rows": report_rows(request.user, match, reports),
        "open": match.state in (MatchState.READY, MatchState.PLAYING),
        "next_match": _next_match(match),
        "walkover_reason": flag_fall_reason(match),  # a walkover the clock gave
        # Once this match is over, the referee's next: the tournament's next match waiting
        # for a result (``matches.home_selectors.next_waiting_match``).
        "next_waiting": None
        if match.state in (MatchState.READY, MatchState.PLAYING, MatchState.WAITING)
        else home_selectors.next_waiting_match(match=match),
        "explanation": matches_sel.match_explanation(match=match, games=games, lang=lang(request)),
        "plain_choices": PLAIN_CHOICES,
        "pattern_choices": PATTERN_CHOICES,
        "form": form,
    }


def _said(match: Match, game: Game) -> str:
    winner = match.player_for(game.winner)
    return _("Game %(n)s saved: %(winner)s wins by %(how)s.") % {
        "n": game.number,
        "winner": winner,
        "how": outcome_word(game),
    }


def _cube_question(request: HttpRequest, match: Match, form: ResultForm) -> HttpResponse | None:
    """An entry whose cube is past what the match can use at its score (the family's
    ``cube_limit``; a game without a cube has none) is not saved at once: the page asks
    to confirm it, every choice kept."""
    cube = form.cleaned_data.get("cube")
    if not cube or form.cleaned_data.get("confirm_cube"):
        return None
    family = family_of(match.tournament)
    limit = family.cube_limit(match_settings(match), (match.points1, match.points2))
    if limit is None or cube <= limit:
        return None
    context = _context(request, match, form)
    context["game"] = chosen(request.POST)
    context["cube_question"] = _(
        "The cube at %(cube)s in a match to %(length)s points? At this score the match "
        "uses a cube of at most %(limit)s. Save it only if that is what was played."
    ) % {"cube": cube, "length": match.length, "limit": limit}
    context["posted"] = [
        (key, value)
        for key, value in request.POST.items()
        if key not in ("csrfmiddlewaretoken", "confirm_cube")
    ]
    return render(request, "web/referee/enter.html", context)


def match_enter(request: HttpRequest, pk: int) -> HttpResponse:
    got = _referee_match(request, pk)
    if isinstance(got, HttpResponse):
        return got
    match = got
    if request.method != "POST":
        return render(request, "web/referee/enter.html", _context(request, match))
    form = ResultForm(request.POST, codes=outcome_codes(match))
    if not form.is_valid():
        context = _context(request, match, form)
        context["game"] = chosen(request.POST)
        return render(request, "web/referee/enter.html", context, status=400)
    if asked := _cube_question(request, match, form):
        return asked
    try:
        game = results.game_result_enter(
            match=match,
            number=form.cleaned_data["number"],
            result=form.result_value(),
            starter=form.cleaned_data["starter"],
            note=form.cleaned_data["note"],
            by=request.user,
        )
    except ConflictError as err:
        context = _context(request, match)
        context["conflict"] = err.message
        # The heading says what happened: the match is over, or someone was first.
        context["conflict_code"] = err.code
        return render(request, "web/referee/enter.html", context, status=409)
    except DomainError as err:
        context = _context(request, match, form)
        context["error"] = err.message
        context["game"] = chosen(request.POST)
        return render(request, "web/referee/enter.html", context, status=400)
    match.refresh_from_db()
    messages.success(request, _said(match, game))
    return redirect("web:match_enter", pk=match.pk)


def _correct_context(request: HttpRequest, match: Match, game: Game) -> dict[str, Any]:
    """The correction page's context; ``version`` is the confirmed result's version,
    which the form sends back (hidden) to name what it corrects."""
    context = _context(request, match)
    game.refresh_from_db()
    context["game"] = game
    context["version"] = matches_sel.game_version(game=game)
    return context


def game_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a game. The form carries the version the page showed; if another referee
    corrected the game meanwhile, the page shows their result (409) instead of replacing
    it, and the form then names the new version, so a second press is a deliberate
    correction of what is now entered."""
    game = get_object_or_404(Game.objects.select_related("match"), pk=pk, voided_at__isnull=True)
    got = _referee_match(request, game.match_id)
    if isinstance(got, HttpResponse):
        return got
    match = got
    if request.method != "POST":
        return render(request, "web/referee/correct.html", _correct_context(request, match, game))
    form = CorrectionForm(request.POST, codes=outcome_codes(match))
    if not form.is_valid():
        context = _correct_context(request, match, game)
        context["form"] = form
        return render(request, "web/referee/correct.html", context, status=400)
    try:
        game = results.game_result_correct(
            game=game,
            result=form.result_value(),
            note=form.cleaned_data["note"],
            expected_version=form.cleaned_data["version"],
            by=request.user,
        )
    except DomainError as err:
        context = _correct_context(request, match, game)
        if err.code == "stale_version":
            # Shown like the entry page's conflict: the current result, nothing overwritten.
            context["conflict"] = err.message
        else:
            context["form"] = form
            context["error"] = err.message
        status = 409 if isinstance(err, ConflictError) else 400
        return render(request, "web/referee/correct.html", context, status=status)
    match.refresh_from_db()
    messages.success(request, _("Corrected. ") + _said(match, game))
    return redirect("web:match_enter", pk=match.pk)
