"""Reads for matches: the detail page/endpoint and lists filtered by visibility."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from engine.types import Side
from matches.errors import NotFoundError
from matches.models import Game, GameRecordSubmission, Match, MatchEvent, MatchState
from tournaments.permissions import User, can_read_records, visible_tournaments


@dataclass
class MatchDetail:
    match: Match
    games: list[Game]
    explanation: list[str]
    submissions: list[GameRecordSubmission] = field(default_factory=list)
    events: list[MatchEvent] = field(default_factory=list)


def _base() -> QuerySet[Match]:
    return Match.objects.select_related(
        "tournament", "round", "player1__club", "player2__club", "winner"
    )


def match_list(*, by: User = None) -> QuerySet[Match]:
    """Matches of every tournament ``by`` may see."""
    return (
        _base()
        .filter(tournament__in=visible_tournaments(by))
        .order_by("tournament_id", "round__number", "is_third_place", "slot")
    )


def match_get(*, pk: int, by: User = None) -> Match:
    """A match ``by`` may see, or ``NotFoundError`` (private tournaments look absent)."""
    match = match_list(by=by).filter(pk=pk).first()
    if match is None:
        raise NotFoundError(_("No match #%(id)s that you can see.") % {"id": pk})
    return match


def match_explanation(*, match: Match, games: list[Game], lang: str = "sv") -> list[str]:
    """Sentences from ``scoring.explain`` on the standing, or why there is nothing to play."""
    if match.state == MatchState.BYE:
        return (
            [f"{match.player1} går vidare utan match (frirond)."]
            if lang == "sv"
            else [f"{match.player1} advances with a bye."]
        )
    if match.state == MatchState.WALKOVER:
        return (
            [f"{match.winner} vinner på walkover."]
            if lang == "sv"
            else [f"{match.winner} wins by walkover."]
        )
    if match.state == MatchState.WAITING:
        return (
            ["Spelarna är inte klara än."] if lang == "sv" else ["The players are not known yet."]
        )
    from scoring.explain import explain
    from scoring.match import match_state

    state = match_state(
        length=match.length,
        scale=match.tournament.scale,
        policy=match.tournament.resignation_policy,
        outcomes=[g.outcome_value() for g in games],
    )
    names = {
        Side.WHITE: match.player1.name if match.player1 else "?",
        Side.BLACK: match.player2.name if match.player2 else "?",
    }
    return list(explain(state, lang=lang, names=names))


def match_detail(*, match: Match, by: User = None, lang: str = "sv") -> MatchDetail:
    """The match with its games (in order), the scoring explanation, and — for its
    players, referees and organisers — the game records submitted and the audit trail."""
    games = list(match.games.filter(voided_at__isnull=True).order_by("number"))
    detail = MatchDetail(
        match=match, games=games, explanation=match_explanation(match=match, games=games, lang=lang)
    )
    if can_read_records(by, match):
        detail.submissions = list(
            match.submissions.select_related("submitted_by").order_by("-submitted_at", "-id")
        )
        detail.events = list(match.events.select_related("by").order_by("at", "id"))
    return detail


def game_list(*, match: Match) -> QuerySet[Game]:
    return (
        match.games.filter(voided_at__isnull=True)
        .prefetch_related(Prefetch("results"))
        .order_by("number")
    )


def submission_list(*, match: Match) -> QuerySet[GameRecordSubmission]:
    return match.submissions.select_related("submitted_by").order_by("-submitted_at", "-id")


def submission_get(*, pk: int, by: User = None) -> GameRecordSubmission:
    """A game record ``by`` may read (the match's players, referees, organisers)."""
    sub = (
        GameRecordSubmission.objects.select_related("match__tournament", "submitted_by")
        .filter(pk=pk)
        .first()
    )
    if sub is None or not can_read_records(by, sub.match):
        raise NotFoundError(_("No game record #%(id)s that you can see.") % {"id": pk})
    return sub
