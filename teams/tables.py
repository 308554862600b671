"""A team competition's table read from its team matches' stored scores
(``teams.team_scores``): each team's totals counted by the database, ranked by
``stages.league.table_rank`` (the ranking of the pure ``stages.league.league_table``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db.models import Case, Count, Sum, Value, When

from stages.league import MatchPoints, Row, table_rank
from teams.competitions import competition_of
from teams.models import Team, TeamEntry, TeamMatch, TeamResult
from tournaments.models import Tournament

__all__ = ["TeamTable", "team_table"]


@dataclass(frozen=True, slots=True)
class TeamTable:
    """The table's rows (team ids) and the teams by id."""

    rows: Sequence[Row[int]]
    teams: dict[int, Team]
    chain: tuple[str, ...]
    points: MatchPoints


def _counted(tournament: Tournament, side: str, other: str) -> dict[int, dict[str, int]]:
    """Each team's totals on one side (home or away) of its decided team matches, counted
    by the database."""
    won, lost = (
        (TeamResult.HOME, TeamResult.AWAY)
        if side == "home"
        else (
            TeamResult.AWAY,
            TeamResult.HOME,
        )
    )

    def when(result: str) -> Sum:
        return Sum(Case(When(result=result, then=Value(1)), default=Value(0)))

    rows = (
        TeamMatch.objects.filter(tournament=tournament, away__isnull=False)
        .exclude(result="")
        .values(f"{side}_id")
        .annotate(
            played=Count("id"),
            won=when(won),
            drawn=when(TeamResult.DRAW),
            lost=when(lost),
            boards=Sum(f"{side}_boards"),
            pf=Sum(f"{side}_points"),
            pa=Sum(f"{other}_points"),
            tf=Sum(f"{side}_tiebreak"),
            ta=Sum(f"{other}_tiebreak"),
        )
    )
    return {row[f"{side}_id"]: row for row in rows}


def _direct(
    tournament: Tournament, points: MatchPoints
) -> Callable[[Sequence[int]], dict[int, int]]:
    """The match points each of a tied group earned against the others (their team
    matches read only when a tie reaches the direct encounter)."""

    def among(group: Sequence[int]) -> dict[int, int]:
        earned = dict.fromkeys(group, 0)
        for home, away, result in (
            TeamMatch.objects.filter(tournament=tournament, home_id__in=group, away_id__in=group)
            .exclude(result="")
            .values_list("home_id", "away_id", "result")
        ):
            if result == TeamResult.DRAW:
                earned[home] += points.draw
                earned[away] += points.draw
            else:
                winner, loser = (home, away) if result == TeamResult.HOME else (away, home)
                earned[winner] += points.win
                earned[loser] += points.loss
        return earned

    return among


def team_table(*, tournament: Tournament) -> TeamTable:
    """The competition's table now (module docstring): each team's totals counted by the
    database (two grouped queries, whatever the number of team matches), ranked by
    ``stages.league.table_rank``; the direct encounter reads the tied teams' matches only."""
    competition = competition_of(tournament)
    entries = list(
        TeamEntry.objects.filter(tournament=tournament).select_related("team", "team__club")
    )
    teams = {e.team_id: e.team for e in entries}
    points = MatchPoints(
        win=competition.win_points, draw=competition.draw_points, loss=competition.loss_points
    )
    home = _counted(tournament, "home", "away")
    away = _counted(tournament, "away", "home")
    byes = dict(
        TeamMatch.objects.filter(tournament=tournament, away__isnull=True)
        .values("home_id")
        .annotate(n=Count("id"))
        .values_list("home_id", "n")
    )
    rows: list[Row[int]] = []
    for entry in entries:
        row = Row(entry.team_id)
        for side in (home.get(entry.team_id), away.get(entry.team_id)):
            if side is None:
                continue
            row.played += side["played"]
            row.won += side["won"]
            row.drawn += side["drawn"]
            row.lost += side["lost"]
            row.board_points += side["boards"]
            row.points_for += side["pf"]
            row.points_against += side["pa"]
            row.tiebreak_for += side["tf"]
            row.tiebreak_against += side["ta"]
        bye = byes.get(entry.team_id, 0)
        row.played += bye
        row.won += bye
        row.board_points += bye * (competition.boards // 2)
        row.match_points = points.win * row.won + points.draw * row.drawn + points.loss * row.lost
        rows.append(row)
    chain = tuple(competition.chain)
    ranked = table_rank(
        rows, chain=chain, lots=competition.lots, direct=_direct(tournament, points)
    )
    return TeamTable(rows=ranked, teams=teams, chain=chain, points=points)
