"""The team stage's pages and buttons: the organisers' team rules, teams entered and
removed, a team Swiss's next round paired (all answered back on the tournament page,
whose team part is ``teams.stage_pages``'s), and the team match page: both teams, the
boards (each its match's page), the score, the line-ups as ``teams.line_ups`` lets the
reader see them, the captains' (and organisers') line-up form and the organisers' button
that closes the line-ups.

Thin: every rule is the services' (``teams.competitions``, ``teams.line_ups``,
``teams.team_swiss_rounds``); a refusal is shown on the page it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import NotFoundError
from core.http import action_answered, form_answered, found
from core.permissions import is_organiser
from teams import competitions, line_ups, schedule, selectors, stage_selectors, team_swiss_rounds
from teams.forms import LineUpForm, RoundScheduleForm, TeamEntryForm, TeamRulesForm
from teams.models import Team, TeamEntry, TeamMatch
from teams.permissions import is_captain
from teams.stage_pages import enterable_teams, team_stage_context
from teams.team_handler import is_team_stage
from teams.team_words import chain_choices, team_match_state
from tournaments import selectors as tournaments_sel
from tournaments.models import Player, Round, Tournament


def _tournament_url(tournament: Tournament) -> str:
    return reverse("web:tournament_detail", args=[tournament.pk]) + "#teams-h"


def _back(tournament: Tournament) -> Callable[[], HttpResponse]:
    return lambda: redirect(_tournament_url(tournament))


def _organised(request: HttpRequest, pk: int) -> Tournament:
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organisers may do that."))
    if not is_team_stage(tournament):
        raise PermissionDenied(_("This tournament is not played by teams."))
    return tournament


def _stage_page(request: HttpRequest, tournament: Tournament, **forms: Any) -> HttpResponse:
    """The tournament page again, a posted form with its errors in the team part."""
    context = {
        "tournament": tournament,
        "team_stage": team_stage_context(tournament=tournament, by=request.user, **forms),
        "is_organiser": True,
    }
    return render(request, "teams/team_stage_form.html", context)


@login_required
@require_POST
def team_rules(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organised(request, pk)
    form = TeamRulesForm(request.POST, choices=chain_choices())

    def done(data: dict[str, Any]) -> str:
        competitions.competition_rules_set(
            tournament=tournament,
            by=request.user,
            boards=data["boards"],
            win_points=data["win_points"],
            draw_points=data["draw_points"],
            loss_points=data["loss_points"],
            chain=form.chain(),
        )
        return _("The team rules are saved.")

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect(_tournament_url(tournament)),
        again=lambda: _stage_page(request, tournament, rules_form=form),
    )


@login_required
@require_POST
def team_entry_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organised(request, pk)
    form = TeamEntryForm(request.POST, teams=enterable_teams(tournament))

    def done(data: dict[str, Any]) -> str:
        team = data["team"]
        competitions.team_entry_add(tournament=tournament, team=team, by=request.user)
        return _("%(team)s is entered.") % {"team": team.name}

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect(_tournament_url(tournament)),
        again=lambda: _stage_page(request, tournament, entry_form=form),
    )


@login_required
@require_POST
def team_entry_remove(request: HttpRequest, pk: int, team: int) -> HttpResponse:
    tournament = _organised(request, pk)
    entry = TeamEntry.objects.filter(tournament=tournament, team_id=team).first()
    if entry is None:
        raise PermissionDenied(_("This team is not entered."))
    entry.tournament = tournament
    name = entry.team.name

    def do() -> str:
        competitions.team_entry_remove(entry=entry, by=request.user)
        return _("%(team)s is no longer entered.") % {"team": name}

    return action_answered(request, do, success=_back(tournament), refused=_back(tournament))


@login_required
@require_POST
def team_round_pair(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _organised(request, pk)
    rnd = found(_round_get, tournament=tournament, number=number)

    def do() -> str:
        made = team_swiss_rounds.team_round_pair(round=rnd, by=request.user)
        return _("Round %(number)d is paired: %(count)d team matches.") % {
            "number": rnd.number,
            "count": len(made),
        }

    return action_answered(request, do, success=_back(tournament), refused=_back(tournament))


@login_required
@require_POST
def team_round_schedule(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Set a round's day and its line-ups' deadline (organisers)."""
    tournament = _organised(request, pk)
    rnd = found(_round_get, tournament=tournament, number=number)
    form = RoundScheduleForm(request.POST)

    def done(data: dict[str, Any]) -> str:
        schedule.team_round_schedule(
            round=rnd, date=data["date"], deadline=data["deadline"], by=request.user
        )
        return _("Round %(number)d's day and deadline are saved.") % {"number": rnd.number}

    return form_answered(request, form, done, success=_back(tournament), again=_back(tournament))


def _round_get(*, tournament: Tournament, number: int) -> Round:
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise NotFoundError(_("No round %(number)d.") % {"number": number})
    return rnd


# --- the team match page -----------------------------------------------------------------


def _teams_of(team_match: TeamMatch) -> list[Team]:
    return [t for t in (team_match.home, team_match.away) if t is not None]


def _line_up_teams(request: HttpRequest, team_match: TeamMatch) -> list[Team]:
    """The teams whose line-up the reader may give: an organiser both, a captain theirs;
    none once the boards are made."""
    if team_match.boards_made or team_match.away_id is None:
        return []
    if is_organiser(request.user, team_match.tournament):
        return _teams_of(team_match)
    return [t for t in _teams_of(team_match) if is_captain(request.user, t)]


def _line_up_form(team_match: TeamMatch, team: Team, data: Any = None) -> LineUpForm:
    boards = competitions.competition_of(team_match.tournament).boards
    roster = selectors.team_roster(team=team)
    given = line_ups.line_up_of(team_match, team)
    chosen: list[Player | None] = (
        given if given is not None else [ln.player for ln in roster if not ln.reserve]
    )
    return LineUpForm(data, boards=boards, roster=roster, chosen=chosen, prefix=f"team{team.pk}")


def _match_page(
    request: HttpRequest, team_match: TeamMatch, forms: dict[int, LineUpForm] | None = None
) -> HttpResponse:
    view = stage_selectors.team_match_view(team_match=team_match, by=request.user)
    editable = _line_up_teams(request, team_match)
    shown_forms = [(t, (forms or {}).get(t.pk) or _line_up_form(team_match, t)) for t in editable]
    context = {
        "tournament": team_match.tournament,
        "team_match": team_match,
        "view": view,
        "state": team_match_state(team_match),
        "line_up_forms": shown_forms,
        "can_close": not team_match.boards_made
        and team_match.away_id is not None
        and is_organiser(request.user, team_match.tournament),
    }
    return render(request, "teams/team_match.html", context)


@require_GET
def team_match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team_match = found(stage_selectors.team_match_get, pk=pk, by=request.user)
    return _match_page(request, team_match)


@login_required
@require_POST
def line_up_give(request: HttpRequest, pk: int, team: int) -> HttpResponse:
    team_match = found(stage_selectors.team_match_get, pk=pk, by=request.user)
    chosen = next((t for t in _line_up_teams(request, team_match) if t.pk == team), None)
    if chosen is None:
        raise PermissionDenied(
            _("Only the team's captains and the organisers may give its line-up.")
        )
    form = _line_up_form(team_match, chosen, request.POST)

    def done(data: dict[str, Any]) -> str:
        line_ups.line_up_give(
            team_match=team_match, team=chosen, players=form.line_up(), by=request.user
        )
        return _("The line-up of %(team)s is in.") % {"team": chosen.name}

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect("teams:team_match", pk=team_match.pk),
        again=lambda: _match_page(request, team_match, {chosen.pk: form}),
    )


@login_required
@require_POST
def line_ups_close(request: HttpRequest, pk: int) -> HttpResponse:
    team_match = found(stage_selectors.team_match_get, pk=pk, by=request.user)

    def do() -> str:
        line_ups.line_ups_close(team_match=team_match, by=request.user)
        return _("The line-ups are closed and the boards made.")

    def back() -> HttpResponse:
        return redirect("teams:team_match", pk=team_match.pk)

    return action_answered(request, do, success=back, refused=back)
