"""What every match service uses: the match's row lock, the audit trail, the active games,
the match's state as JSON for conflicts, the referee check, and the settling of the
players' open reports.

Concurrency: every change to a match first locks its row (``lock_match``) and re-reads
its games, so of two referees entering the same game one succeeds and the other gets a
``ConflictError`` with the current state. ``lock_match`` first bumps the tournament's
version (``tournament_touch``, what the live pages' ETag comes from) and stamps the match
with it (``match_mark``), so no change to a match can leave the pages that show it
answering "not modified", while the live parts of the tournament's other matches keep
theirs (``web.live``). A service that changes another match as well (the winner placed in
the next round, a bye, a walkover) stamps that one too before saving it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import PermissionDeniedError
from core.names import person_name
from core.permissions import User, is_match_referee, is_referee, signed_in
from matches.match_changes import match_changing
from matches.models import (
    OPEN_REPORT_STATES,
    EventKind,
    Game,
    GameReport,
    Match,
    MatchEvent,
    ReportState,
)
from matches.result_values import result_wire
from tournaments.models import Tournament
from tournaments.page_versions import (
    match_stamped,
    matches_stamped,
    tournament_touch,
    tournaments_touch,
)

__all__ = [
    "active_games",
    "event_add",
    "game_to_dict",
    "lock_match",
    "match_mark",
    "match_snapshot",
    "matches_touch",
    "referee_require",
    "reports_settle",
    "setting",
    "user_label",
]


def setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def user_label(user: Any, *, full: bool) -> str:
    """``user`` named in a message (``core.names``): the user name when ``full`` (the reader
    is the tournament's staff), else the display name; "someone" for nobody."""
    if user is None:
        return _("someone")
    return person_name(user, full=full) or _("someone")


def lock_match(match: Match) -> Match:
    """The match row, locked for the rest of the transaction, freshly read and stamped
    (``match_mark``); the tournament's version is bumped first (its row locked before the
    match's, the one lock order of every writer: ``tournaments_touch``). Only the match is
    stamped: what else the change touches is stamped where it is changed."""
    tournament_touch(tournament_id=match.tournament_id, whole=False)
    # the ratings follow the match (clubs registers its watcher: match_changes)
    match_changing(match_id=match.pk)
    locked = Match.objects.select_for_update().get(pk=match.pk)
    match_mark(locked)
    return locked


def match_mark(match: Match) -> None:
    """Stamp ``match`` with its tournament's current version (``Match.live_version``):
    its live parts and its round's change their ETag (``web.live``). Inside the change's
    transaction, after the tournament's version was bumped (``tournament_touch``). Both
    the row and the instance are stamped, so a later ``save()`` of the instance keeps it."""
    version = Tournament.objects.values_list("version", flat=True).get(pk=match.tournament_id)
    match.live_version = version
    Match.objects.filter(pk=match.pk).update(live_version=version)
    match_stamped(match_id=match.pk, tournament_id=match.tournament_id, version=version)


def matches_touch(*, match_ids: Sequence[int]) -> None:
    """Bump the versions of these matches' tournaments and stamp the matches alone: what
    changed shows on these matches' parts only (e.g. their rating changes)."""
    ids = sorted(set(match_ids))
    if not ids:
        return
    tournaments_touch(tournaments=Tournament.objects.filter(matches__pk__in=ids), whole=False)
    version = Tournament.objects.filter(pk=OuterRef("tournament_id")).values("version")[:1]
    Match.objects.filter(pk__in=ids).update(live_version=Subquery(version))
    matches_stamped(match_ids=ids)


def active_games(match: Match) -> list[Game]:
    return list(match.games.filter(voided_at__isnull=True).order_by("number"))


def event_add(match: Match, kind: str, by: Any, **data: Any) -> MatchEvent:
    user = signed_in(by)
    return MatchEvent.objects.create(match=match, kind=kind, by=user, data=data)


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "starter": game.starter or None,
        **result_wire(game.result_value()),
        "verified": game.verified,
    }


def match_snapshot(match: Match, games: Sequence[Game] | None = None) -> dict[str, Any]:
    """The match's current state as JSON, sent with conflicts so clients can show it."""
    games = active_games(match) if games is None else games
    return {
        "id": match.pk,
        "state": match.state,
        "player1": match.player1_id,
        "player2": match.player2_id,
        "winner": match.winner_id,
        "points": [match.points1, match.points2],
        "tiebreak": [match.tiebreak1, match.tiebreak2],
        "decided_after_game": match.decided_after_game,
        "crawford_game": match.crawford_game,
        "games": [game_to_dict(g) for g in games],
    }


def reports_settle(match: Match, by: User, *, number: int | None = None) -> None:
    """The players' open reports of a locked match (of game ``number``, or all of them)
    are settled by what was just done without them (a game entered by a referee or from
    a record, a correction that decided the match, a walkover, a reset): closed as
    overridden, each audited (``matches.reports``)."""
    reports = GameReport.objects.filter(match=match, state__in=OPEN_REPORT_STATES)
    if number is not None:
        reports = reports.filter(number=number)
    user = signed_in(by)
    for report in reports:
        report.state = ReportState.OVERRIDDEN
        report.closed_by = user
        report.closed_at = timezone.now()
        report.save(update_fields=["state", "closed_by", "closed_at"])
        event_add(match, EventKind.REPORT_OVERRIDDEN, by, report=report.pk, game=report.number)


def referee_require(by: User, match: Match) -> None:
    if not is_referee(by, match.tournament):
        raise PermissionDeniedError(
            _("Only the referees and organisers of this tournament may enter results.")
        )
    if not is_match_referee(by, match):
        # A referee scoped to a venue (``tournaments.venues``), asked about another's match.
        raise PermissionDeniedError(
            _("You referee at another venue: this match's results are its venue's referees'."),
            code="other_venue",
        )
