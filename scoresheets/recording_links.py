"""Recording through a player's private link (``tournaments.private_links``): which link,
opened earlier in this browser (``/p/<token>/`` keeps it in the session), lets the page
and the API record a match.

The link counts only for its own player's matches in its tournament, in published
rounds (as the ``/p/`` pages), and only while it is live: every request reads it again,
so a revoked link stops at once. A signed-in user who may record the match records as
themselves; the link is for the browser of a player without an account.
"""

from __future__ import annotations

from django.http import HttpRequest

from core.permissions import User, can_read_records
from matches.models import Match
from tournaments.models import PrivateLink
from tournaments.private_links import SESSION_KEY, private_link_of

__all__ = ["recording_link"]


def recording_link(request: HttpRequest, *, pk: int, by: User) -> tuple[Match, PrivateLink] | None:
    """Match ``pk`` and the live private link this browser opened for one of its players,
    or None (no such link, another player's match, or ``by`` records as themselves).
    A browser that opened no link costs no query."""
    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_KEY):
        return None
    match = (
        Match.objects.select_related("tournament", "round", "player1", "player2")
        .filter(pk=pk, round__published=True)
        .first()
    )
    if match is None:
        return None
    link = private_link_of(request, match.tournament)
    if link is None or match.side_of(link.player) is None:
        return None
    if getattr(by, "is_authenticated", False) and can_read_records(by, match):
        return None
    return match, link
