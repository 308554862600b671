"""Links to a tournament's printable score sheets (``clubs.score_sheets``), one per round,
for its referees and organisers; one line on the pages that show them::

    {% load club_sheets %}{% score_sheet_links tournament %}
        (templates/web/organiser/manage.html, clubs/_tournament_exports.html)
"""

from __future__ import annotations

from typing import Any

from django import template

from core.permissions import is_referee
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
