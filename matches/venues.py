"""Matches at venues (``tournaments.venues``): the organiser moves a match to another
venue, or shares a round out among the venues again; the tables follow, numbered per
venue (``matches.tables``).

Decisions where the docs are silent:
- A match moved to a venue takes the lowest table free at that venue in its round (a
  table held by a match still to be played at the board, or decided: ``match_table_set``'s
  rule); moved to no venue, the lowest free among the round's matches at no venue. The
  organiser changes the number afterwards if they want another.
- A bye, a walkover and a reset not needed are at no venue (they are not played); a
  decided match stays where it was played.
- Sharing a round out again (``round_venues_split``) renumbers all its matches as at
  their creation, so it is refused once any of them has begun (being played or
  decided by play): players would be sent elsewhere mid-match.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User
from matches.common import event_add
from matches.models import EventKind, Match, MatchState
from matches.tables import NO_TABLE_STATES, tables_number
from tournaments.guards import organiser_require
from tournaments.models import Round, Venue
from tournaments.page_versions import tournament_touch

__all__ = ["match_venue_set", "round_venues_split"]


def _free_table(match: Match, venue: Venue | None) -> int:
    taken = set(
        Match.objects.filter(round_id=match.round_id, venue=venue)
        .exclude(pk=match.pk)
        .exclude(state__in=NO_TABLE_STATES)
        .exclude(table=None)
        .values_list("table", flat=True)
    )
    number = 1
    while number in taken:
        number += 1
    return number


def match_venue_set(*, match: Match, venue: Venue | None, by: User) -> Match:
    """Move ``match`` to ``venue`` (None: no venue), at its first free table there (see
    the module text): an organiser of its tournament only."""
    tournament = match.tournament
    organiser_require(by, tournament)
    if venue is not None and venue.tournament_id != tournament.pk:
        raise ValidationError(_("The tournament has no such venue."), code="unknown_venue")
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        match = Match.objects.select_for_update().select_related("round").get(pk=match.pk)
        if match.state in NO_TABLE_STATES:
            raise ValidationError(
                _("A bye or a walkover is not played at a table."), code="no_table"
            )
        if match.state == MatchState.DECIDED:
            raise ConflictError(
                _("A decided match stays at the venue where it was played."), code="match_over"
            )
        if match.venue_id == (venue.pk if venue is not None else None):
            return match
        before = (match.venue_id, match.table)
        match.venue = venue
        match.table = _free_table(match, venue)
        match.save(update_fields=["venue", "table", "updated_at"])
        event_add(
            match,
            EventKind.VENUE_SET,
            by,
            before=before[0],
            after=match.venue_id,
            table_before=before[1],
            table=match.table,
        )
    return match


def round_venues_split(*, round: Round, by: User) -> list[Match]:
    """Share ``round``'s matches out among the tournament's venues again, in pairing
    order, and number their tables per venue, as when they were created (with no venues:
    1, 2, 3 … over the round). Refused once a match of the round has begun."""
    tournament = round.tournament
    organiser_require(by, tournament)
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        matches = list(Match.objects.select_for_update().filter(round=round).order_by("pk"))
        if any(m.state in (MatchState.PLAYING, MatchState.DECIDED) for m in matches):
            raise ConflictError(
                _("A match of this round has begun: move single matches to another venue instead."),
                code="round_begun",
            )
        before = {m.pk: (m.venue_id, m.table) for m in matches}
        for m in matches:
            m.venue = None
        tables_number(matches)
        changed = [m for m in matches if before[m.pk] != (m.venue_id, m.table)]
        Match.objects.bulk_update(changed, ["venue", "table"])
        for m in changed:
            event_add(
                m,
                EventKind.VENUE_SET,
                by,
                before=before[m.pk][0],
                after=m.venue_id,
                table_before=before[m.pk][1],
                table=m.table,
            )
    return matches
