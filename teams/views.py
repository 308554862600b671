"""The teams pages: a season's teams (and creating one), a team's page (its roster in
board order with ratings, its captains), the captain's roster editor (a numbered order
with reserves, one board up or down, add, remove, sort by rating; every button a plain
form, no script needed) and the keepers' page of a team (rename, captains, delete).

Thin: the checks and the writes are ``teams.team_services``'s and ``teams.rosters``'s;
a refusal is shown on the page it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import season_selectors
from core.http import action_answered, form_answered, found
from core.names import person_name
from teams import rosters, selectors, stage_selectors, team_services
from teams.forms import CaptainsForm, OrderForm, PlayerAddForm, TeamCreateForm, TeamRenameForm
from teams.models import Team
from teams.permissions import can_edit_roster, can_keep_teams, is_captain
from teams.rosters import ROSTER_MAX


def _team_context(request: HttpRequest, team: Team) -> dict[str, object]:
    lines = selectors.team_roster(team=team)
    visible = selectors.visible_player_ids(players=[ln.player for ln in lines], by=request.user)
    full = can_keep_teams(request.user) or is_captain(request.user, team)
    return {
        "team": team,
        "lines": lines,
        "regular": [ln for ln in lines if not ln.reserve],
        "reserves": [ln for ln in lines if ln.reserve],
        "visible": visible,
        # Captains by display name; by user name (a login identifier) only to the season
        # keepers and the team's captains, as the API shows them.
        "captains": [
            person_name(user, full=full) or _("(a captain with no public name)")
            for user in selectors.team_captains(team=team)
        ],
        "can_keep": can_keep_teams(request.user),
        "can_edit": can_edit_roster(request.user, team),
    }


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The team's page: its roster, captains and its team matches in the competitions it
    is entered in (those the reader may see)."""
    team = found(selectors.team_get, pk=pk)
    context = _team_context(request, team)
    context["fixtures"] = stage_selectors.team_fixtures(team=team, by=request.user)
    return render(request, "teams/team_detail.html", context)


@require_http_methods(["GET", "POST"])
def season_teams(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's teams; a season keeper creates one here (POST)."""
    season = found(season_selectors.season_get, pk=pk)
    can_keep = can_keep_teams(request.user)
    form = None
    if can_keep:
        form = TeamCreateForm(request.POST or None, initial={"club": season.club_id})
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(_("Only the clubs' season keepers may create teams."))
        made: list[Team] = []

        def done(data: dict[str, Any]) -> str:
            team = team_services.team_create(
                season=season,
                name=data["name"],
                club=data["club"],
                game=data["game"],
                by=request.user,
            )
            made.append(team)
            return _("The team “%(name)s” is created; name its captains.") % {"name": team.name}

        return form_answered(
            request,
            form,
            done,
            success=lambda: redirect("teams:team_edit", pk=made[0].pk),
            again=lambda: _season_page(request, season, form),
        )
    return _season_page(request, season, form)


def _season_page(request: HttpRequest, season: Any, form: Any) -> HttpResponse:
    context = {"season": season, "teams": selectors.season_teams(season=season), "form": form}
    return render(request, "teams/season_teams.html", context)


# --- the roster editor -------------------------------------------------------------------


def _editable(request: HttpRequest, pk: int) -> Team:
    team = found(selectors.team_get, pk=pk)
    if not can_edit_roster(request.user, team):
        raise PermissionDenied(
            _("Only the team's captains and the season keepers may change its roster.")
        )
    return team


def _roster_page(
    request: HttpRequest,
    team: Team,
    order_form: OrderForm | None = None,
    add_form: PlayerAddForm | None = None,
) -> HttpResponse:
    context = _team_context(request, team)
    lines = context["lines"]
    assert isinstance(lines, list)
    players = selectors.addable_players(team=team, by=request.user)
    context |= {
        "order_form": order_form or OrderForm(lines=lines),
        "add_form": add_form or PlayerAddForm(players=players),
        "full": len(lines) >= ROSTER_MAX,
    }
    return render(request, "teams/roster_edit.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def roster_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The roster editor; POST saves the numbered order and the reserves."""
    team = _editable(request, pk)
    if request.method == "GET":
        return _roster_page(request, team)
    form = OrderForm(request.POST, lines=selectors.team_roster(team=team))

    def done(data: dict[str, Any]) -> str:
        rosters.roster_order_set(
            team=team, order=form.order(), reserves=form.reserves(), by=request.user
        )
        return _("The boards are saved in your order.")

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect("teams:roster_edit", pk=team.pk),
        again=lambda: _roster_page(request, team, order_form=form),
    )


@login_required
@require_POST
def roster_add(request: HttpRequest, pk: int) -> HttpResponse:
    team = _editable(request, pk)
    form = PlayerAddForm(
        request.POST, players=selectors.addable_players(team=team, by=request.user)
    )

    def done(data: dict[str, Any]) -> str:
        player = data["player"]
        rosters.roster_player_add(
            team=team, player=player, reserve=data["reserve"], by=request.user
        )
        return _("%(player)s is on the roster.") % {"player": player.name}

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect("teams:roster_edit", pk=team.pk),
        again=lambda: _roster_page(request, team, add_form=form),
    )


def _roster_action(request: HttpRequest, team: Team, do: Callable[[], str]) -> HttpResponse:
    """A roster button: the service's words or its refusal, back on the roster editor."""

    def back() -> HttpResponse:
        return redirect("teams:roster_edit", pk=team.pk)

    return action_answered(request, do, success=back, refused=back)


@login_required
@require_POST
def roster_move(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """One board up (``step=up``) or down (``step=down``)."""
    team = _editable(request, pk)
    found_player = found(selectors.roster_player_get, team=team, pk=player)
    step = {"up": -1, "down": 1}.get(request.POST.get("step", ""), 0)

    def do() -> str:
        rosters.roster_player_move(team=team, player=found_player, step=step, by=request.user)
        return _("%(player)s moved.") % {"player": found_player.name}

    return _roster_action(request, team, do)


@login_required
@require_POST
def roster_remove(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    team = _editable(request, pk)
    found_player = found(selectors.roster_player_get, team=team, pk=player)

    def do() -> str:
        rosters.roster_player_remove(team=team, player=found_player, by=request.user)
        return _("%(player)s is off the roster.") % {"player": found_player.name}

    return _roster_action(request, team, do)


@login_required
@require_POST
def roster_by_rating(request: HttpRequest, pk: int) -> HttpResponse:
    team = _editable(request, pk)

    def do() -> str:
        rosters.roster_sort_by_rating(team=team, by=request.user)
        return _("The boards are sorted by rating, and follow it now.")

    return _roster_action(request, team, do)


# --- the keepers' page of a team ---------------------------------------------------------


def _keepers_team(request: HttpRequest, pk: int) -> Team:
    team = found(selectors.team_get, pk=pk)
    if not can_keep_teams(request.user):
        raise PermissionDenied(_("Only the clubs' season keepers may change teams."))
    return team


def _edit_page(
    request: HttpRequest,
    team: Team,
    rename_form: TeamRenameForm | None = None,
    captains_form: CaptainsForm | None = None,
) -> HttpResponse:
    captains = selectors.team_captains(team=team)
    usernames = " ".join(user.get_username() for user in captains)
    context = {
        "team": team,
        "rename_form": rename_form or TeamRenameForm(initial={"name": team.name}),
        "captains_form": captains_form or CaptainsForm(initial={"usernames": usernames}),
    }
    return render(request, "teams/team_edit.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def team_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename the team (POST) and the other keepers' forms."""
    team = _keepers_team(request, pk)
    if request.method == "GET":
        return _edit_page(request, team)
    form = TeamRenameForm(request.POST)

    def done(data: dict[str, Any]) -> str:
        team_services.team_rename(team=team, name=data["name"], by=request.user)
        return _("The team's name is saved.")

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect("teams:team_edit", pk=team.pk),
        again=lambda: _edit_page(request, team, rename_form=form),
    )


@login_required
@require_POST
def team_captains(request: HttpRequest, pk: int) -> HttpResponse:
    team = _keepers_team(request, pk)
    form = CaptainsForm(request.POST)

    def done(data: dict[str, Any]) -> str:
        team_services.team_captains_set(team=team, captains=data["usernames"], by=request.user)
        return _("The team's captains are saved.")

    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect("teams:team_edit", pk=team.pk),
        again=lambda: _edit_page(request, team, captains_form=form),
    )


@login_required
@require_POST
def team_delete(request: HttpRequest, pk: int) -> HttpResponse:
    team = _keepers_team(request, pk)
    season, name = team.season_id, team.name

    def do() -> str:
        team_services.team_delete(team=team, by=request.user)
        return _("The team “%(name)s” is deleted.") % {"name": name}

    return action_answered(
        request,
        do,
        success=lambda: redirect("teams:season_teams", pk=season),
        refused=lambda: redirect("teams:team_edit", pk=team.pk),
    )
