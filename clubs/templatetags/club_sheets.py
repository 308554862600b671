"""Links to a tournament's printable score sheets (``clubs.score_sheets``), one per round,
for its referees and organisers, and to its wall sheets (``clubs.wall_sheets``), one per
round with matches the reader may see; one line each on the pages that show them::

    {% load club_sheets %}{% score_sheet_links tournament %}{% wall_sheet_links tournament %}
        (templates/web/organiser/manage.html, clubs/_tournament_exports.html)
"""

from __future__ import annotations

from typing import Any

from django import template

from core.permissions import is_referee
from matches.visibility import sees_unpublished
from tournaments.models import Round

register = template.Library()


@register.inclusion_tag("clubs/_score_sheet_links.html", takes_context=True)
def score_sheet_links(context: dict[str, Any], tournament: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    rounds: list[Round] = []
    if user is not None and is_referee(user, tournament):
        rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    return {"tournament": tournament, "rounds": rounds}


@register.inclusion_tag("clubs/_wall_sheet_links.html", takes_context=True)
def wall_sheet_links(context: dict[str, Any], tournament: Any) -> dict[str, Any]:
    """The rounds with matches whose wall sheet the reader may print: published ones,
    and the unpublished too for the tournament's staff (``matches.visibility``)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    rounds = Round.objects.filter(tournament=tournament, matches__isnull=False).distinct()
    if not sees_unpublished(user, tournament):
        rounds = rounds.filter(published=True)
    return {"tournament": tournament, "rounds": list(rounds.order_by("number"))}
