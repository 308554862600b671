"""Reads for a signed-in person's home (``web.views.home``): what waits for them as a
player, a referee and an organiser. A person may be all three at once; each part is read
on its own, in a fixed number of queries however many tournaments and matches there are
(``tests/web/test_home_pages.py`` counts them).

Decisions (where the brief was silent):

- **Whose tournaments.** A referee's and an organiser's parts read the tournaments the
  user is named in (``referees`` / ``organisers``), running ones only; a superuser is not
  shown every tournament of the site (they would drown in other clubs' evenings).
- **Playable.** A match waits for a result when it is ready or being played in a
  published round: an unpublished Swiss round is the organiser's to check and publish
  (it appears as "publish round N" in the organiser's part), not yet to be played.
- **A player's reads** go through ``matches.visibility.visible_matches``: a player never
  sees their pairing in an unpublished Swiss round here either.
- **Rejected records.** A game record the engine refused (invalid, or verification
  failed) is listed while it is its match's latest submission: a later upload supersedes
  it. A match's ``flag`` (a verified record that disagrees) is listed until a referee
  clears it.
- **Late matches.** The site keeps no clock for rounds, so "late" is relative to the
  room: an unfinished match is late when at least three quarters of its round's matches
  are finished (it is holding the round up). A round of fewer than four matches has no
  late matches.
- **Disputes of a player** are listed while open and, once a referee settled them, the
  five most recent, so a player learns how theirs ended.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from core.permissions import User, authenticated, player_of
from formats import format_for
from matches.models import (
    FINISHED_STATES,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchState,
    RecordState,
    ReportState,
)
from matches.stage_handlers import handler_for, paired_format_keys
from matches.visibility import visible_matches
from tournaments.models import (
    Entry,
    Player,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.round_kinds import round_kind

__all__ = [
    "LATE_SHARE",
    "OrganiserHome",
    "PlayerHome",
    "RefereeHome",
    "RoundProgress",
    "TournamentProgress",
    "next_waiting_match",
    "organiser_home",
    "player_home",
    "referee_home",
]

PLAYABLE = (MatchState.READY, MatchState.PLAYING)
REJECTED_RECORDS = (RecordState.INVALID, RecordState.FAILED)
# A round's unfinished matches are late once this share of it is finished.
LATE_SHARE = (3, 4)
LATE_MIN_MATCHES = 4
LAST_RESULTS = 5
SETTLED_DISPUTES = 5


def _related(qs: QuerySet[Match]) -> QuerySet[Match]:
    return qs.select_related("tournament", "round", "player1", "player2", "winner")


# --- a player -------------------------------------------------------------------------


@dataclass
class PlayerHome:
    player: Player
    # Unfinished matches with the player in them: the next one first in each tournament.
    to_play: list[Match]
    # The opponent's reports waiting for this player's answer.
    to_confirm: list[GameReport]
    # Disputes this player is in: the open ones, then the latest settled ones.
    disputes: list[GameReport]
    # The latest finished matches (decided or walkover), newest first.
    results: list[Match]


def _attach_decisions(reports: list[GameReport]) -> None:
    """Give each settled dispute its ``decision``: the game's result as it stands (the
    referee's, or a later correction), None if the game has none; one query."""
    if not reports:
        return
    results = GameResult.objects.filter(
        game__match_id__in={r.match_id for r in reports}, confirmed=True
    ).select_related("game")
    latest: dict[tuple[int, int], GameResult] = {}
    for result in results.order_by("version", "id"):
        latest[(result.game.match_id, result.game.number)] = result
    for report in reports:
        report.decision = latest.get((report.match_id, report.number))  # type: ignore[attr-defined]


def player_home(*, by: User) -> PlayerHome | None:
    """The player part of ``by``'s home, or None if ``by`` is not linked to a player.
    Five queries, six with a settled dispute (its decision)."""
    player = player_of(by)
    if player is None:
        return None
    mine = visible_matches(by=by).filter(Q(player1=player) | Q(player2=player))
    to_play = list(
        _related(mine.exclude(state__in=FINISHED_STATES)).order_by(
            "tournament__start_date", "tournament_id", "round__number", "slot"
        )
    )
    reports = GameReport.objects.filter(match__in=mine.values("pk")).select_related(
        "match",
        "match__tournament",
        "match__round",
        "match__player1",
        "match__player2",
        "reporter",
        "answerer",
    )
    to_confirm = list(
        reports.filter(state=ReportState.PENDING)
        .exclude(reporter=player)
        .order_by("reported_at", "id")
    )
    involved = reports.filter(Q(reporter=player) | Q(answerer=player))
    disputes = list(involved.filter(state=ReportState.DISPUTED).order_by("answered_at", "id"))
    settled = list(
        involved.filter(state=ReportState.OVERRIDDEN, answerer__isnull=False).order_by(
            "-closed_at", "-id"
        )[:SETTLED_DISPUTES]
    )
    _attach_decisions(settled)
    disputes += settled
    results = list(
        _related(mine.filter(state__in=(MatchState.DECIDED, MatchState.WALKOVER))).order_by(
            "-updated_at", "-id"
        )[:LAST_RESULTS]
    )
    return PlayerHome(player, to_play, to_confirm, disputes, results)


# --- a referee ------------------------------------------------------------------------


@dataclass
class RefereeHome:
    # Matches waiting for a result, by tournament and round (in that order).
    waiting: list[Match]
    disputes: list[GameReport]
    flagged: list[Match]
    rejected: list[GameRecordSubmission]

    @property
    def empty(self) -> bool:
        return not (self.waiting or self.disputes or self.flagged or self.rejected)


def _staffed(by: User, *, organiser_only: bool = False) -> QuerySet[Tournament]:
    """The running tournaments ``by`` is named in (see the module text)."""
    named = Q(organisers=by) if organiser_only else Q(organisers=by) | Q(referees=by)
    ids = Tournament.objects.filter(named).values("id")
    return Tournament.objects.filter(id__in=ids, status=TournamentStatus.RUNNING)


def referee_home(*, by: User) -> RefereeHome | None:
    """The referee part of ``by``'s home (also an organiser's: they may do everything a
    referee may), or None if ``by`` staffs no running tournament. Five queries."""
    if not authenticated(by):
        return None
    staffed = list(_staffed(by).values_list("id", flat=True))
    if not staffed:
        return None
    matches = Match.objects.filter(tournament_id__in=staffed)
    waiting = list(
        _related(matches.filter(state__in=PLAYABLE, round__published=True)).order_by(
            "tournament__start_date", "tournament_id", "round__number", "is_third_place", "slot"
        )
    )
    disputes = list(
        GameReport.objects.filter(state=ReportState.DISPUTED, match__tournament_id__in=staffed)
        .select_related(
            "match",
            "match__tournament",
            "match__round",
            "match__player1",
            "match__player2",
            "reporter",
            "answerer",
        )
        .order_by("answered_at", "id")
    )
    flagged = list(_related(matches.exclude(flag="")).order_by("tournament_id", "round__number"))
    later = GameRecordSubmission.objects.filter(
        match=OuterRef("match"), submitted_at__gt=OuterRef("submitted_at")
    )
    rejected = list(
        GameRecordSubmission.objects.filter(
            match__tournament_id__in=staffed, state__in=REJECTED_RECORDS
        )
        .exclude(Exists(later))
        .select_related(
            "match", "match__tournament", "match__round", "match__player1", "match__player2"
        )
        .order_by("-submitted_at", "-id")
    )
    return RefereeHome(waiting, disputes, flagged, rejected)


def next_waiting_match(*, match: Match) -> Match | None:
    """After ``match`` is decided, the referee's next: the first match of the same
    tournament still waiting for a result in a published round (earliest round first,
    then by position), other than ``match``. One query."""
    return (
        _related(
            Match.objects.filter(
                tournament_id=match.tournament_id, state__in=PLAYABLE, round__published=True
            ).exclude(pk=match.pk)
        )
        .order_by("round__number", "is_third_place", "slot")
        .first()
    )


# --- an organiser ---------------------------------------------------------------------


@dataclass
class RoundProgress:
    round: Round
    total: int
    decided: int
    walkovers: int
    byes: int
    to_play: int

    @property
    def finished(self) -> int:
        return self.total - self.to_play

    @property
    def late_possible(self) -> bool:
        """Whether this round's unfinished matches count as late (the module text)."""
        if self.total < LATE_MIN_MATCHES or not self.to_play:
            return False
        share, of = LATE_SHARE
        return self.finished * of >= self.total * share


@dataclass
class TournamentProgress:
    tournament: Tournament
    rounds: list[RoundProgress] = field(default_factory=list)
    disputes: int = 0
    flagged: int = 0
    rejected: int = 0
    # A Swiss's players checked out (not paired in the next round), to look at before pairing.
    checked_out: int = 0
    # The Swiss round to pair next (its previous round finished and published), or None.
    pair_round: int | None = None
    # An unpublished Swiss round with its pairings (to check and publish), or None.
    publish_round: int | None = None
    # The groups (or Swiss) are played out and their knockout is not drawn yet.
    draw_knockout: bool = False
    late: list[Match] = field(default_factory=list)

    @property
    def current(self) -> RoundProgress | None:
        """The round being played: the first with matches to play, else the last paired."""
        paired = [r for r in self.rounds if r.total]
        for r in paired:
            if r.to_play:
                return r
        return paired[-1] if paired else None


@dataclass
class OrganiserHome:
    tournaments: list[TournamentProgress]


def _needs(t: TournamentProgress) -> None:
    """What the organiser is asked to do next: pair or publish a Swiss round, draw the
    knockout from finished groups."""
    tournament = t.tournament
    rounds = t.rounds
    if handler_for(tournament).pairs_rounds:
        swiss = [r for r in rounds if round_kind(r.round.kind).paired]
        unpublished = [r for r in swiss if r.total and not r.round.published]
        if unpublished:
            t.publish_round = unpublished[0].round.number
        unpaired = [r for r in swiss if not r.total]
        if unpaired and not unpublished:
            before = [r for r in swiss if r.round.number < unpaired[0].round.number]
            if all(not r.to_play for r in before):
                t.pair_round = unpaired[0].round.number
    feeds = format_for(tournament.format).feeds_knockout and tournament.group_advance > 0
    if feeds and not any(round_kind(r.round.kind).bracket for r in rounds):
        table = [r for r in rounds if round_kind(r.round.kind).table]
        t.draw_knockout = bool(table) and all(r.total and not r.to_play for r in table)


def organiser_home(*, by: User) -> OrganiserHome | None:
    """The organiser part of ``by``'s home, or None if ``by`` organises no running
    tournament. Eight queries."""
    if not authenticated(by):
        return None
    tournaments = list(_staffed(by, organiser_only=True).order_by("start_date", "id"))
    if not tournaments:
        return None
    ids = [t.pk for t in tournaments]
    progress = {t.pk: TournamentProgress(t) for t in tournaments}
    finished = Q(matches__state__in=FINISHED_STATES)
    rounds = (
        Round.objects.filter(tournament_id__in=ids)
        .annotate(
            n_total=Count("matches"),
            n_decided=Count("matches", filter=Q(matches__state=MatchState.DECIDED)),
            n_walkovers=Count("matches", filter=Q(matches__state=MatchState.WALKOVER)),
            n_byes=Count("matches", filter=Q(matches__state=MatchState.BYE)),
            n_open=Count("matches", filter=~finished),
        )
        .order_by("tournament_id", "number")
    )
    late_rounds: list[int] = []
    for r in rounds:
        row = RoundProgress(
            round=r,
            total=r.n_total,  # type: ignore[attr-defined]
            decided=r.n_decided,  # type: ignore[attr-defined]
            walkovers=r.n_walkovers,  # type: ignore[attr-defined]
            byes=r.n_byes,  # type: ignore[attr-defined]
            to_play=r.n_open,  # type: ignore[attr-defined]
        )
        progress[r.tournament_id].rounds.append(row)
        if row.late_possible and r.published:
            late_rounds.append(r.pk)
    for tournament_id, count in (
        GameReport.objects.filter(state=ReportState.DISPUTED, match__tournament_id__in=ids)
        .values_list("match__tournament_id")
        .annotate(n=Count("id"))
    ):
        progress[tournament_id].disputes = count
    for tournament_id, count in (
        Match.objects.filter(tournament_id__in=ids)
        .exclude(flag="")
        .values_list("tournament_id")
        .annotate(n=Count("id"))
    ):
        progress[tournament_id].flagged = count
    later = GameRecordSubmission.objects.filter(
        match=OuterRef("match"), submitted_at__gt=OuterRef("submitted_at")
    )
    for tournament_id, count in (
        GameRecordSubmission.objects.filter(
            match__tournament_id__in=ids, state__in=REJECTED_RECORDS
        )
        .exclude(Exists(later))
        .values_list("match__tournament_id")
        .annotate(n=Count("id"))
    ):
        progress[tournament_id].rejected = count
    for tournament_id, count in (
        Entry.objects.filter(
            tournament_id__in=ids,
            tournament__format__in=paired_format_keys(),
            absent=True,
            withdrawn_at__isnull=True,
        )
        .values_list("tournament_id")
        .annotate(n=Count("id"))
    ):
        progress[tournament_id].checked_out = count
    late: dict[int, list[Match]] = defaultdict(list)
    if late_rounds:
        for m in _related(
            # Only a playable match is late; one waiting for its players waits on another.
            Match.objects.filter(round_id__in=late_rounds, state__in=PLAYABLE)
        ).order_by("round__number", "slot"):
            late[m.tournament_id].append(m)
    for t in progress.values():
        t.late = late.get(t.tournament.pk, [])
        _needs(t)
    return OrganiserHome(list(progress.values()))
