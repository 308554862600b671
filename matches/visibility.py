"""Which matches a reader may see: the one rule every read of matches goes through.

A match is visible to ``by`` when both hold:

1. its tournament is visible to ``by`` (``tournaments.permissions.visible_tournaments``:
   public, or ``by`` organises, referees or plays in it, or is a superuser);
2. its round is published, or ``by`` is the tournament's staff (an organiser or referee
   of it, or a superuser). A Swiss round is paired unpublished so the organiser can check
   and swap the pairings; until it is published its pairings (players and matches) are
   the staff's alone — its players included do not see them, as the round page and the
   match page do not show them.

Every read path asks this module: the match list and detail (API and pages), the bracket
(API, page and its live part), a round's page, a player's matches, the Swiss rounds and
standings, the results and placings exports, the archive, the score sheets, the season
standings and the ratings (``by=None``: what the public sees, as they are public).
Services that change matches (pairing, progression, walkovers) read their own rows: they
decide, they do not show.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from core.permissions import User, authenticated, is_referee
from matches.models import Match
from tournaments.models import Tournament
from tournaments.permissions import visible_tournaments

__all__ = ["published_q", "seen_by_everyone", "sees_unpublished", "visible_matches"]


def published_q(by: User) -> Q:
    """Matches ``by`` may see as far as publishing goes: a published round's, or any of a
    tournament ``by`` organises or referees (every match, for a superuser)."""
    if not authenticated(by):
        return Q(round__published=True)
    if by.is_superuser:
        return Q()
    staffed = Tournament.objects.filter(Q(organisers=by) | Q(referees=by)).values("pk")
    return Q(round__published=True) | Q(tournament__in=staffed)


def seen_by_everyone(*, tournament_public: bool, round_published: bool) -> bool:
    """Whether a match is visible to everyone, signed in or not (both conditions above
    for the public; whoever else signs in sees at least as much): its tournament is
    public and its round published. For a read that has these two facts at hand (a
    stamp) and need not ask ``visible_matches`` who the reader is."""
    return tournament_public and round_published


def sees_unpublished(by: User, tournament: Tournament) -> bool:
    """Whether ``by`` sees ``tournament``'s unpublished rounds: its organisers and
    referees, and superusers (the same people ``published_q`` lets through)."""
    return is_referee(by, tournament)


def visible_matches(*, by: User, tournament: Tournament | None = None) -> QuerySet[Match]:
    """The matches ``by`` may see (see the module text), of ``tournament`` if given.

    ``by=None`` is the public: public tournaments' published rounds."""
    qs = Match.objects.all()
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    if not (authenticated(by) and by.is_superuser):
        qs = qs.filter(tournament__in=visible_tournaments(by).values("pk"))
    return qs.filter(published_q(by))
