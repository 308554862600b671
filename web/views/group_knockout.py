"""The organiser's step between a round robin's groups and the knockout they feed
(``tournaments.group_stage``): what the manage page shows, and the draw itself."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from matches.group_standings import open_table_matches
from matches.swiss_standings import unplayed_swiss_rounds
from tournaments import bracket, group_stage
from tournaments.models import Tournament, TournamentStatus
from web.formats import format_view
from web.forms.organiser import KnockoutLengthsForm, lengths_text
from web.games import unit_of

__all__ = ["group_knockout_context", "group_knockout_draw"]


def _form(tournament: Tournament, data: Any = None) -> KnockoutLengthsForm:
    players = tournament.groups * tournament.group_advance
    rounds = bracket.round_count(players)
    return KnockoutLengthsForm(
        data,
        rounds=rounds,
        players=players,
        unit=unit_of(tournament),
        initial={"lengths": lengths_text(bracket.default_lengths(rounds))},
    )


def group_knockout_context(
    tournament: Tournament, form: KnockoutLengthsForm | None = None
) -> dict[str, Any] | None:
    """For the manage page: ``None`` when the groups feed no knockout; else whether it is
    drawn, how many group matches are left, and the lengths form."""
    if not group_stage.feeds_knockout(tournament) or tournament.status == TournamentStatus.DRAFT:
        return None
    drawn = group_stage.knockout_drawn(tournament.pk)
    shown = format_view(tournament.format)
    swiss = shown.paired  # one table, the standings of its paired rounds
    return {
        "drawn": drawn,
        "swiss": swiss,
        "title": shown.knockout_after,
        "rounds_left": unplayed_swiss_rounds(tournament=tournament) if swiss and not drawn else 0,
        "open": 0 if drawn else open_table_matches(tournament=tournament),
        "players": tournament.groups * tournament.group_advance,
        "form": None if drawn else form or _form(tournament),
    }


@login_required
@require_POST
def group_knockout_draw(request: HttpRequest, pk: int) -> HttpResponse:
    from web.views import organiser  # the manage page; it imports this module's context

    tournament = organiser.managed_tournament(request, pk)
    form = _form(tournament, request.POST)
    if form.is_valid():
        try:
            group_stage.group_knockout_draw(
                tournament=tournament, by=request.user, lengths=form.cleaned_data["lengths"]
            )
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, _("The knockout is drawn from the groups' tables."))
            return redirect(organiser.manage_url(tournament, "group-knockout"))
    return organiser.manage_page(request, tournament, knockout_form=form)
