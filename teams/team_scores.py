"""A team match's score kept from its boards (``stages.team_match``).

Each time one of its boards' matches changes (a game entered or corrected, a walkover, a
reset), ``teams.apps`` hears of it (``matches.match_changes``) and, once the change is
committed, ``team_match_refresh`` reads the boards again and stores the score on the team
match, so the table reads team-match rows only (a league of 200 teams has 160,000 boards).
The first time a team match is decided its ``decided_at`` is set, the tournament's
pages are told, and so are the news watchers (``matches.match_changes``: the webhooks'
``team_match.decided``). A correction that turns the result round keeps it decided (no
new decision); one that undoes the decision clears ``decided_at``, and the next decision
is told anew.

``team_scores_rebuild`` (``manage.py team_scores rebuild``) is the repair for a refresh
that never ran (a worker stopped between the commit and its callback): it reads every
team match's boards again through the same comparison and stores what differs, as the
missed refresh would have, telling a decision it finds as the refresh tells one; with
``check`` it only counts the stale ones. After correct refreshes nothing differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from matches.match_changes import NEWS_TEAM_MATCH_DECIDED, news_tell
from matches.models import Match, MatchState
from stages.team_match import Board, Side, team_match_score
from teams.models import Team, TeamBoard, TeamMatch, TeamResult
from tournaments.models import Round
from tournaments.page_versions import tournament_touch

__all__ = [
    "ScoresRebuilt",
    "board_of",
    "team_board_follow",
    "team_match_refresh",
    "team_scores_rebuild",
]


def board_of(board: TeamBoard, match: Match | None) -> Board:
    """One board's result as ``stages.team_match`` reads it: a bye (the other team had no
    player) and a walkover are walkovers to the player's team; no match at all (neither
    team had a player) is a board nobody wins."""
    if match is None:
        return Board(walkover=True)
    home_seat = 1 if board.home_first else 2

    def side(player_id: int | None) -> Side | None:
        if player_id is None:
            return None
        seat = 1 if player_id == match.player1_id else 2
        return "home" if seat == home_seat else "away"

    if match.state == MatchState.BYE:
        return Board(winner=side(match.player1_id), walkover=True)
    if match.winner_id is None or match.state not in (MatchState.DECIDED, MatchState.WALKOVER):
        return Board()
    p1, p2 = (match.points1, match.points2)
    t1, t2 = (match.tiebreak1, match.tiebreak2)
    if home_seat == 2:
        p1, p2, t1, t2 = p2, p1, t2, t1
    return Board(
        winner=side(match.winner_id),
        home_points=p1,
        away_points=p2,
        home_tiebreak=t1,
        away_tiebreak=t2,
        walkover=match.walkover or match.state == MatchState.WALKOVER,
    )


def _boards(team_match: TeamMatch) -> list[TeamBoard]:
    """The team match's boards in order, each with its match (as ``_BOARDS`` prefetches
    them, or read now)."""
    return list(team_match.boards.select_related("match").order_by("board"))


# The boards as ``team_scores_rebuild`` prefetches them: one query per chunk of team
# matches, where reading them one team match at a time was a query each.
_BOARDS = Prefetch("boards", queryset=TeamBoard.objects.select_related("match").order_by("board"))


def _stale(team_match: TeamMatch, boards: list[TeamBoard] | None = None) -> dict[str, Any]:
    """The stored fields of ``team_match`` that differ from what its boards give, with
    the values they should have (empty: up to date, or no boards yet). ``boards``: the
    ones already read (``_BOARDS``); otherwise they are read now."""
    if boards is None:
        boards = _boards(team_match)
    if not boards:
        return {}
    score = team_match_score([board_of(b, b.match) for b in boards])
    result = "" if score.winner is None else TeamResult(score.winner).value
    fields: dict[str, Any] = {
        "home_boards": score.home_boards,
        "away_boards": score.away_boards,
        "home_points": score.home_points,
        "away_points": score.away_points,
        "home_tiebreak": score.home_tiebreak,
        "away_tiebreak": score.away_tiebreak,
        "undecided": score.undecided,
        "result": result,
        "decided_early": score.early if result else False,
    }
    if result and team_match.decided_at is None:
        fields["decided_at"] = timezone.now()
    if not result:
        fields["decided_at"] = None
    return {k: v for k, v in fields.items() if getattr(team_match, k) != v}


def _refresh(team_match_id: int) -> tuple[TeamMatch, bool]:
    """Store the team match's score from its boards; whether anything changed."""
    with transaction.atomic():
        team_match = TeamMatch.objects.select_for_update().get(pk=team_match_id)
        changed = _stale(team_match)
        for key, value in changed.items():
            setattr(team_match, key, value)
        if changed:
            team_match.save(update_fields=list(changed))
            tournament_touch(tournament_id=team_match.tournament_id)
        if "decided_at" in changed and team_match.decided_at is not None:
            _decided_tell(team_match)
    return team_match, bool(changed)


def team_match_refresh(*, team_match_id: int) -> TeamMatch:
    """Read the team match's boards and store its score (module docstring)."""
    return _refresh(team_match_id)[0]


@dataclass(frozen=True, slots=True)
class ScoresRebuilt:
    team_matches: int  # team matches read
    stale: int  # of those, the ones whose stored score differed from their boards'
    written: bool  # the stale ones were stored anew (False: only checked)


def team_scores_rebuild(*, tournament_id: int | None = None, check: bool = False) -> ScoresRebuilt:
    """Every team match's stored score (of one tournament, or all) compared with its
    boards and, unless ``check``, stored anew where it differs (module docstring). The
    team matches and their boards are read in chunks (a few queries per 500 team
    matches); only a stale one is then refreshed, in its own transaction with its row
    locked and its boards read again, as the refresh runs, so a board changed meanwhile
    is still counted right."""
    team_matches = TeamMatch.objects.order_by("pk").prefetch_related(_BOARDS)
    if tournament_id is not None:
        team_matches = team_matches.filter(tournament_id=tournament_id)
    read = stale = 0
    for team_match in team_matches.iterator(chunk_size=500):
        read += 1
        if not _stale(team_match, list(team_match.boards.all())):
            continue
        if check:
            stale += 1
        else:
            stale += _refresh(team_match.pk)[1]
    return ScoresRebuilt(team_matches=read, stale=stale, written=not check)


def _decided_tell(team_match: TeamMatch) -> None:
    """Tell the news watchers (the webhooks' ``team_match.decided``) of a team match
    decided, with all they give of it: no app below this one reads team matches."""
    teams = {
        t.pk: {"id": t.pk, "name": t.name}
        for t in Team.objects.filter(pk__in=[team_match.home_id, team_match.away_id])
    }
    decided_at = team_match.decided_at
    assert decided_at is not None
    news_tell(
        kind=NEWS_TEAM_MATCH_DECIDED,
        tournament_id=team_match.tournament_id,
        team_match={
            "id": team_match.pk,
            "round": Round.objects.values_list("number", flat=True).get(pk=team_match.round_id),
            "home": teams[team_match.home_id],
            "away": teams.get(team_match.away_id) if team_match.away_id is not None else None,
            "home_boards": team_match.home_boards,
            "away_boards": team_match.away_boards,
            "home_points": team_match.home_points,
            "away_points": team_match.away_points,
            "undecided": team_match.undecided,
            "result": team_match.result,
            "decided_early": team_match.decided_early,
            "decided_at": decided_at.isoformat(),
        },
    )


def team_board_follow(*, match_id: int) -> None:
    """The match watcher (``matches.match_changes``): a board's match is about to change;
    refresh its team match once the change is committed."""
    team_match_id = (
        TeamBoard.objects.filter(match_id=match_id).values_list("team_match_id", flat=True).first()
    )
    if team_match_id is not None:
        transaction.on_commit(lambda: team_match_refresh(team_match_id=team_match_id))
