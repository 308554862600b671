"""A team competition's table (``stages.league.league_table``) read from its team matches'
stored scores (``teams.team_scores``): one query for the matches, one for the teams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stages.league import LeagueMatch, MatchPoints, Row, league_table
from stages.team_match import TeamMatchScore
from teams.competitions import competition_of
from teams.models import Team, TeamEntry, TeamMatch
from tournaments.models import Tournament

__all__ = ["TeamTable", "score_of", "team_table"]

_SCORE_FIELDS = (
    "home_id",
    "away_id",
    "home_boards",
    "away_boards",
    "home_points",
    "away_points",
    "home_tiebreak",
    "away_tiebreak",
    "undecided",
    "result",
    "decided_early",
)


def score_of(team_match: TeamMatch) -> TeamMatchScore:
    """The stored score of a team match as ``stages.team_match`` gives it."""
    return TeamMatchScore(
        home_boards=team_match.home_boards,
        away_boards=team_match.away_boards,
        home_points=team_match.home_points,
        away_points=team_match.away_points,
        home_tiebreak=team_match.home_tiebreak,
        away_tiebreak=team_match.away_tiebreak,
        undecided=team_match.undecided,
        winner=team_match.result or None,  # type: ignore[arg-type]
        early=team_match.decided_early,
    )


@dataclass(frozen=True, slots=True)
class TeamTable:
    """The table's rows (team ids) and the teams by id."""

    rows: Sequence[Row[int]]
    teams: dict[int, Team]
    chain: tuple[str, ...]
    points: MatchPoints


def team_table(*, tournament: Tournament) -> TeamTable:
    """The competition's table now (module docstring)."""
    competition = competition_of(tournament)
    entries = list(
        TeamEntry.objects.filter(tournament=tournament).select_related("team", "team__club")
    )
    teams = {e.team_id: e.team for e in entries}
    matches = [
        LeagueMatch(
            home=row[0],
            away=row[1],
            score=TeamMatchScore(
                home_boards=row[2],
                away_boards=row[3],
                home_points=row[4],
                away_points=row[5],
                home_tiebreak=row[6],
                away_tiebreak=row[7],
                undecided=row[8],
                winner=row[9] or None,
                early=row[10],
            ),
        )
        for row in TeamMatch.objects.filter(tournament=tournament)
        .exclude(result="", away__isnull=False)
        .values_list(*_SCORE_FIELDS)
        .iterator(chunk_size=5000)
    ]
    points = MatchPoints(
        win=competition.win_points, draw=competition.draw_points, loss=competition.loss_points
    )
    chain = tuple(competition.chain)
    rows = league_table(
        [e.team_id for e in entries],
        matches,
        points=points,
        chain=chain,
        lots=competition.lots,
        boards=competition.boards,
    )
    return TeamTable(rows=rows, teams=teams, chain=chain, points=points)
