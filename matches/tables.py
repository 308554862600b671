"""Table (board) numbers: where each match of a round is played at the venue.

Decisions where the docs are silent:
- Numbered once, when a round's matches are created (the knockout and elimination draws,
  a round robin's draw, a Swiss pairing): in pairing order (the match order of the round:
  bracket position, the third-place match after the final), 1, 2, 3 …, per round. A
  match whose players are not known yet (a later knockout round) gets its table at the
  draw too, so match 1 of the quarterfinals is table 1 before anyone knows who plays it;
  it is the same number it would get in pairing order when it becomes playable.
- A bye gets no table. A walkover or a double elimination's reset not needed keeps its
  stored number but shows none (``Match.board``) and holds no table for the conflict
  check; a reset that makes the match playable again shows it again.
- Each round counts from 1: the rounds of a consolation or a double elimination bracket
  that are played at the same time can share numbers; the organiser moves them apart by
  hand (the check is per round, as the issue asks).
- A Swiss swap exchanges players, not tables: the table belongs to the pairing's place
  and the players move to it. There is no un-publishing and no re-pairing of a round.
- An organiser sets or clears a table (``match_table_set``); two matches of a round that
  are still to be played at the board (not a bye, a walkover nor a reset not needed)
  cannot share one. Decided matches keep their table, so the sheet of a finished round
  still reads right; they count in the check too.
- A tournament played at several venues (``tournaments.venues``) numbers each venue's
  tables from 1: the round's matches are shared out among the venues in pairing order
  (``venue_shares``), each venue's numbered 1, 2, 3 …; two matches of a round share a
  table only at different venues. With no venues, nothing changes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_organiser
from matches.common import event_add
from matches.models import EventKind, Match, MatchState
from tournaments.models import Venue
from tournaments.page_versions import tournament_touch
from tournaments.venues import tournament_venues, venue_shares

__all__ = ["MAX_TABLE", "NO_TABLE_STATES", "match_table_set", "tables_number"]

#: The largest table number an organiser may give (a PositiveSmallIntegerField holds more;
#: no club hall has a thousand tables).
MAX_TABLE = 999

#: States not played at a table.
NO_TABLE_STATES = (MatchState.BYE, MatchState.WALKOVER, MatchState.NOT_NEEDED)


def tables_number(matches: Iterable[Match]) -> None:
    """Give each unsaved match of ``matches`` its table, per round in pairing order
    (third-place match last, then slot), skipping byes; called by every service that
    creates a round's matches, before ``bulk_create``. In a tournament with venues, each
    match its venue too, and the tables numbered per venue (see the module text)."""
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.round_id].append(m)
    venues_of: dict[int, list[Venue]] = {}
    for rows in by_round.values():
        tournament_id = rows[0].tournament_id
        if tournament_id not in venues_of:
            venues_of[tournament_id] = tournament_venues(tournament_id)
        venues = venues_of[tournament_id]
        played: list[Match] = []
        for m in sorted(rows, key=lambda m: (m.is_third_place, m.slot)):
            if m.state == MatchState.BYE:
                m.table = None
                m.venue = None
                continue
            played.append(m)
        if not venues:
            for number, m in enumerate(played, start=1):
                m.table = number
            continue
        at = iter(played)
        shares = venue_shares(len(played), [v.tables for v in venues])
        for venue, share in zip(venues, shares, strict=True):
            for number in range(1, share + 1):
                m = next(at)
                m.venue = venue
                m.table = number


def match_table_set(*, match: Match, table: int | None, by: User) -> Match:
    """Set (or, with ``None``, clear) the table of ``match``: an organiser of its
    tournament only; refused for a bye or walkover, and when another match of the round
    still played at the board has that table (``ConflictError`` ``table_taken``)."""
    tournament = match.tournament
    if not is_organiser(by, tournament):
        raise PermissionDeniedError(
            _("Only an organiser of “%(tournament)s” may do this; ask one of them.")
            % {"tournament": tournament.name}
        )
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise ValidationError(
            _("A table number is from 1 to %(max)s.") % {"max": MAX_TABLE}, code="table_range"
        )
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        match = Match.objects.select_for_update().select_related("round").get(pk=match.pk)
        if match.state in NO_TABLE_STATES:
            raise ValidationError(
                _("A bye or a walkover is not played at a table."), code="no_table"
            )
        if table is not None:
            same_place = Match.objects.filter(round_id=match.round_id, table=table)
            if match.venue_id is None:
                same_place = same_place.filter(venue_id__isnull=True)
            else:
                same_place = same_place.filter(venue_id=match.venue_id)
            other = (
                same_place.exclude(pk=match.pk)
                .exclude(state__in=NO_TABLE_STATES)
                .select_related("player1", "player2")
                .first()
            )
            if other is not None:
                raise ConflictError(
                    _("Table %(table)s is taken by %(match)s in this round.")
                    % {"table": table, "match": str(other)},
                    code="table_taken",
                )
        before = match.table
        match.table = table
        match.save(update_fields=["table", "updated_at"])
        event_add(match, EventKind.TABLE_SET, by, before=before, after=table)
    return match
