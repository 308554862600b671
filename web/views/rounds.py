"""One round of a round robin on its own page (``/tournaments/N/rounds/R/``).

A large round robin (up to 16 groups of 32) would list thousands of match boxes
on its tournament page; above ``ROUNDS_ON_THE_PAGE`` matches the page shows only the
current round and links to each round's own page, so every page stays bounded whatever the
field. Small round robins keep every round on the tournament page, as before.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.http import found
from matches import round_selectors
from matches.models import FINISHED_STATES
from tournaments import selectors as tournaments_sel
from tournaments.round_kinds import round_kind

__all__ = ["ROUNDS_ON_THE_PAGE", "round_detail", "rounds_shown"]

# Above this many table matches the tournament page shows the current round only.
ROUNDS_ON_THE_PAGE = 64


def rounds_shown(rounds: list[round_selectors.BracketRound]) -> tuple[list[Any], list[Any]]:
    """The table rounds the tournament page draws, and the rounds it links to instead
    (empty when it draws them all). The current round is the first with a match not
    finished, or the last when all are."""
    if sum(len(br.matches) for br in rounds) <= ROUNDS_ON_THE_PAGE:
        return rounds, []
    current = next(
        (br for br in rounds if any(m.state not in FINISHED_STATES for m in br.matches)),
        rounds[-1],
    )
    return [current], [(br.round, br is current) for br in rounds]


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    # An unpublished round looks absent to all but the staff (``matches.visibility``).
    shown = round_selectors.round_matches(tournament=tournament, number=number, by=request.user)
    if shown is None or not round_kind(shown.round.kind).table:
        raise Http404(_("This tournament has no such round."))
    last = tournament.rounds.filter(kind=shown.round.kind).order_by("-number").first()
    return render(
        request,
        "web/round_detail.html",
        {
            "tournament": tournament,
            "br": shown,
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if last is not None and number < last.number else None,
        },
    )
