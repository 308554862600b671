"""Reads of a team stage (``formats.Stage.TEAMS``) for its pages and its API: the
competition's team matches by round, one team match with its boards, and a team's team
matches in the competitions it is entered in.

A tournament of a team stage is read as any tournament is (``tournaments.selectors``:
a private one looks absent to whoever may not see it); so is a team match, through its
tournament. What a line-up shows before the boards are made is ``teams.line_ups``'s rule
(``line_up_visible``): a hidden line-up is given as ``hidden`` with no players.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import NotFoundError
from core.permissions import User
from matches.models import Match, MatchState
from teams.line_ups import line_up_of, line_up_visible
from teams.models import Team, TeamBoard, TeamMatch
from tournaments.models import Player, Round, Tournament
from tournaments.permissions import visible_tournaments

__all__ = [
    "BoardLine",
    "LineUpShown",
    "TeamMatchView",
    "TeamRound",
    "team_fixtures",
    "team_match_get",
    "team_match_view",
    "team_rounds",
]


@dataclass(frozen=True)
class TeamRound:
    """A round of the stage and its team matches (a team Swiss's round not paired yet has
    none)."""

    round: Round
    matches: list[TeamMatch]


def team_rounds(*, tournament: Tournament) -> list[TeamRound]:
    """The stage's rounds, each with its team matches in order. Two queries."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    by_round: dict[int, list[TeamMatch]] = {r.pk: [] for r in rounds}
    for team_match in (
        TeamMatch.objects.filter(tournament=tournament)
        .select_related("home__club", "away__club", "round")
        .order_by("round__number", "number")
    ):
        by_round.setdefault(team_match.round_id, []).append(team_match)
    return [TeamRound(r, by_round[r.pk]) for r in rounds]


def team_match_get(*, pk: int, by: User) -> TeamMatch:
    """A team match of a tournament ``by`` may read, or ``NotFoundError``."""
    team_match = (
        TeamMatch.objects.filter(pk=pk, tournament__in=visible_tournaments(by))
        .select_related("tournament", "round", "home__club", "away__club")
        .first()
    )
    if team_match is None:
        raise NotFoundError(
            _("No team match #%(id)s that you can see.") % {"id": pk}, code="team_match_not_found"
        )
    return team_match


@dataclass(frozen=True)
class LineUpShown:
    """A team's line-up as ``by`` may see it: ``given`` whether one is in, ``hidden`` when
    it is in (or not) but not shown to this reader, ``players`` one per board (None:
    nobody) when shown."""

    team: Team
    given: bool
    hidden: bool
    players: list[Player | None]


@dataclass(frozen=True)
class BoardLine:
    """Board ``board`` of a made team match: the home and away players (None: nobody
    came), its match (None: neither came), and whether the home player is named first."""

    board: int
    home: Player | None
    away: Player | None
    match: Match | None
    home_first: bool


@dataclass(frozen=True)
class TeamMatchView:
    """A team match as a reader sees it: its boards once made, else the line-ups."""

    team_match: TeamMatch
    boards: list[BoardLine]
    line_ups: list[LineUpShown]


def _board_line(board: TeamBoard) -> BoardLine:
    match = board.match
    if match is None:
        return BoardLine(board.board, None, None, None, board.home_first)
    if match.state == MatchState.BYE:  # its only player is player 1, of ``home_first``'s side
        only = match.player1
        home, away = (only, None) if board.home_first else (None, only)
    elif board.home_first:
        home, away = match.player1, match.player2
    else:
        home, away = match.player2, match.player1
    return BoardLine(board.board, home, away, match, board.home_first)


def team_match_view(*, team_match: TeamMatch, by: User) -> TeamMatchView:
    """The team match's boards (made) or its line-ups as ``by`` may see them."""
    if team_match.boards_made:
        boards = [
            _board_line(b)
            for b in TeamBoard.objects.filter(team_match=team_match)
            .select_related("match__player1", "match__player2", "match__winner")
            .order_by("board")
        ]
        return TeamMatchView(team_match, boards, [])
    shown = []
    for team in (team_match.home, team_match.away):
        if team is None:
            continue
        given = line_up_of(team_match, team)
        if line_up_visible(team_match, team, by):
            shown.append(LineUpShown(team, given is not None, False, given or []))
        else:
            shown.append(LineUpShown(team, given is not None, True, []))
    return TeamMatchView(team_match, [], shown)


def team_fixtures(*, team: Team, by: User) -> list[TeamMatch]:
    """The team's team matches, home and away, in the competitions ``by`` may see, by
    tournament and round. One query."""
    return list(
        TeamMatch.objects.filter(Q(home=team) | Q(away=team))
        .filter(tournament__in=visible_tournaments(by))
        .select_related("tournament", "round", "home", "away")
        .order_by("tournament__start_date", "tournament_id", "round__number", "number")
    )
