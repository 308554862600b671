"""Reads for matches: the detail page/endpoint and lists filtered by visibility, and the
players' reports of games (``matches.reports``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max, Prefetch, Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User, can_read_records
from matches.explain_text import explanation
from matches.models import (
    OPEN_REPORT_STATES,
    EventKind,
    Game,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchEvent,
    MatchState,
    RecordState,
    ReportState,
)
from matches.visibility import seen_by_everyone, visible_matches
from tournaments.models import Tournament
from tournaments.selectors import LiveStamp, part_version


@dataclass
class MatchDetail:
    match: Match
    games: list[Game]
    explanation: list[str]
    submissions: list[GameRecordSubmission] = field(default_factory=list)
    events: list[MatchEvent] = field(default_factory=list)
    reports: list[GameReport] = field(default_factory=list)
    # The record whose verdict flagged the match, for everyone who sees the flag: the
    # flag is stored in English and pages show that record's verdict in their language.
    flag_source: GameRecordSubmission | None = None
    # For those who may not read the records: the verified ones, to step through.
    watchable: list[GameRecordSubmission] = field(default_factory=list)


# What a match is read with: its tournament, round, players (with their clubs) and winner.
MATCH_RELATED = ("tournament", "round", "player1__club", "player2__club", "winner")


def match_list(*, by: User = None) -> QuerySet[Match]:
    """The matches ``by`` may see (``matches.visibility``: of tournaments ``by`` may see,
    an unpublished Swiss round's only for the staff)."""
    return (
        visible_matches(by=by)
        .select_related(*MATCH_RELATED)
        .order_by("tournament_id", "round__number", "is_third_place", "slot")
    )


def match_get(*, pk: int, by: User = None, related: tuple[str, ...] = MATCH_RELATED) -> Match:
    """A match ``by`` may see, or ``NotFoundError`` (private tournaments look absent).

    Read by its key with the ``related`` rows joined (default: all that a match's page
    shows; its tournament and round always). A match everyone may see
    (``matches.visibility.seen_by_everyone``: a public tournament's published round) is
    ``by``'s to see with no more asked; any other is asked of ``visible_matches`` in a
    second query. Not ``match_list``'s one query: PostgreSQL spends longer planning the
    visibility rule's subqueries joined with the related rows than the two queries take,
    and the ORM longer compiling them (a scoresheet's turn reads its match this way,
    naming fewer related rows: ``bench/live_board_bench.py``)."""
    missing = NotFoundError(_("No match #%(id)s that you can see.") % {"id": pk})
    match = Match.objects.select_related("tournament", "round", *related).filter(pk=pk).first()
    if match is None:
        raise missing
    everyone = seen_by_everyone(
        tournament_public=match.tournament.is_public,
        round_published=match.round is not None and match.round.published,
    )
    if not everyone and not visible_matches(by=by).filter(pk=pk).exists():
        raise missing
    return match


def match_explanation(*, match: Match, games: list[Game], lang: str = "sv") -> list[str]:
    """Sentences on the standing from the match's game family (bräde: ``scoring.explain``),
    or why there is nothing to play (in ``lang``)."""
    with translation.override(lang):
        if match.state == MatchState.BYE:
            return [_("%(name)s advances with a bye.") % {"name": match.player1}]
        if match.state == MatchState.WALKOVER:
            return [_("%(name)s wins by walkover.") % {"name": match.winner}]
        if match.state == MatchState.WAITING:
            return [_("The players of this match are not known yet.")]
    from matches.standing import family_of, match_settings

    names = (
        match.player1.name if match.player1 else "?",
        match.player2.name if match.player2 else "?",
    )
    family = family_of(match.tournament)
    results = [g.result_value() for g in games]
    return explanation(family.explain(match_settings(match), results, names=names), lang=lang)


def match_detail(*, match: Match, by: User = None, lang: str = "sv") -> MatchDetail:
    """The match with its games (in order), the scoring explanation, and — for its
    players, referees and organisers — the game records submitted, the players' reports
    of games and the audit trail."""
    games = list(with_version(match.games.filter(voided_at__isnull=True)).order_by("number"))
    detail = MatchDetail(
        match=match, games=games, explanation=match_explanation(match=match, games=games, lang=lang)
    )
    if can_read_records(by, match):
        detail.submissions = list(submission_list(match=match))
        detail.events = list(match.events.select_related("by__player").order_by("at", "id"))
        detail.reports = list(report_list(match=match))
    else:
        detail.watchable = list(
            match.submissions.filter(state__in=WATCHABLE_STATES).order_by("-submitted_at", "-id")
        )
    if match.flag:
        detail.flag_source = next(
            (s for s in detail.submissions if s.state == "mismatch" and s.message == match.flag),
            None,
        ) or (
            match.submissions.filter(state="mismatch", message=match.flag)
            .order_by("-submitted_at", "-id")
            .first()
        )
    return detail


def with_version(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games annotated with ``current_version``, their confirmed result's version number."""
    return games.annotate(
        current_version=Max("results__version", filter=Q(results__confirmed=True))
    )


def game_version(*, game: Game) -> int:
    """The version number of the game's confirmed result (1 until it is corrected).

    A correction names it (``results.game_result_correct(expected_version=…)``) and the
    API's ``ETag`` of a game is made from it. Read fresh (not the annotation), so a
    caller holding the match's row lock sees every correction committed before."""
    version = (
        GameResult.objects.filter(game_id=game.pk, confirmed=True)
        .values_list("version", flat=True)
        .first()
    )
    return int(version or 0)


def game_list(*, match: Match) -> QuerySet[Game]:
    return with_version(
        match.games.filter(voided_at__isnull=True)
        .prefetch_related(Prefetch("results"))
        .order_by("number")
    )


def game_get(*, match: Match, number: int) -> Game:
    """The active game ``number`` of ``match`` (with ``current_version``), or ``NotFoundError``."""
    game = with_version(match.games.filter(number=number, voided_at__isnull=True)).first()
    if game is None:
        raise NotFoundError(_("Game %(n)s of this match has not been entered.") % {"n": number})
    return game


def submission_list(*, match: Match) -> QuerySet[GameRecordSubmission]:
    return match.submissions.select_related("submitted_by__player").order_by("-submitted_at", "-id")


# A record whose games anyone who sees the tournament may step through: it agrees with
# the results, which are public with the bracket.
WATCHABLE_STATES = (RecordState.VERIFIED, RecordState.ENTERED)


def submission_watch_get(*, pk: int, by: User = None) -> GameRecordSubmission:
    """A record whose games ``by`` may step through in the viewer: any record ``by`` may
    read, and a verified one of a tournament ``by`` may see (a public tournament's for
    everyone, signed in or not: its brackets and results are public, and so are the
    games that verified them). The record's text and its page stay with the match's
    players, referees and organisers (``submission_get``)."""
    sub = (
        GameRecordSubmission.objects.select_related("match__tournament", "submitted_by")
        .filter(pk=pk)
        .first()
    )
    if sub is not None and (
        can_read_records(by, sub.match)
        or (
            sub.state in WATCHABLE_STATES
            and visible_matches(by=by).filter(pk=sub.match_id).exists()
        )
    ):
        return sub
    raise NotFoundError(_("No game record #%(id)s that you can see.") % {"id": pk})


def submission_get(*, pk: int, by: User = None) -> GameRecordSubmission:
    """A game record ``by`` may read (the match's players, referees, organisers)."""
    sub = (
        GameRecordSubmission.objects.select_related("match__tournament", "submitted_by__player")
        .filter(pk=pk)
        .first()
    )
    if sub is None or not can_read_records(by, sub.match):
        raise NotFoundError(_("No game record #%(id)s that you can see.") % {"id": pk})
    return sub


def _reports() -> QuerySet[GameReport]:
    return GameReport.objects.select_related(
        "match__tournament",
        "match__player1",
        "match__player2",
        "reporter",
        "answerer",
        "reported_by__player",
        "answered_by__player",
        "closed_by__player",
    )


def report_list(*, match: Match) -> QuerySet[GameReport]:
    """Every report of a match's games, in the order they were made."""
    return _reports().filter(match=match).order_by("number", "id")


def report_open_list(*, match: Match) -> QuerySet[GameReport]:
    """The open (pending or disputed) reports of a match: at most one per game."""
    return report_list(match=match).filter(state__in=OPEN_REPORT_STATES)


def report_get(*, pk: int, by: User = None) -> GameReport:
    """A report ``by`` may read (the match's players, referees and organisers), else
    ``NotFoundError``: a report counts for nothing until it is confirmed, so nobody else
    sees it (a confirmed one is the game's result, shown with the match)."""
    report = _reports().filter(pk=pk).first()
    if report is None or not can_read_records(by, report.match):
        raise NotFoundError(_("No report #%(id)s that you can see.") % {"id": pk})
    return report


def tournament_open_reports(*, tournament: Tournament) -> list[GameReport]:
    """The tournament's open reports for its referees and organisers: the disputed ones
    (theirs to decide) first, then those waiting for the opponent."""
    reports = _reports().filter(match__tournament=tournament, state__in=OPEN_REPORT_STATES)
    return sorted(
        reports.order_by("reported_at", "id"),
        key=lambda r: r.state != ReportState.DISPUTED,
    )


def match_walkover_reason(*, match: Match) -> dict[str, Any] | None:
    """The audit data of the walkover that decided ``match`` (its ``reason_code`` or the
    organiser's ``reason``: ``matches.site_words.reason_text`` words it), None where the
    match does not stand as a walkover."""
    if match.state != MatchState.WALKOVER:
        return None
    last = match.events.filter(kind=EventKind.WALKOVER).order_by("-pk").first()
    return None if last is None else dict(last.data or {})


def match_stamp(*, pk: int) -> LiveStamp | None:
    """The ``LiveStamp`` of the match in one query (a join), or None: its version is the
    match's own (``Match.live_version``, or the whole tournament's last change if later),
    so a change of another match of the tournament leaves it as it was."""
    row = (
        Match.objects.filter(pk=pk)
        .values_list(
            "tournament_id",
            "tournament__is_public",
            "live_version",
            "tournament__whole_version",
            "tournament__changed_at",
            "tournament__created_at",
        )
        .first()
    )
    if row is None:
        return None
    tournament_id, is_public, own, whole, changed_at, created_at = row
    return LiveStamp(tournament_id, is_public, part_version(own, whole), changed_at, created_at)
