"""Set-up for the team-stage tests: divisions of teams with rosters, drawn, and boards
played through the site's own services (a referee's entry, a player's report confirmed by
the opponent, a walkover), plus the conversion of the site's stored boards into the
independent oracle's input (``tests.teams.league_oracle``)."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from clubs.models import Season
from matches.models import Match, MatchState
from matches.reports import game_report_confirm, game_report_submit
from matches.results import game_result_enter
from teams.competitions import competition_rules_set, team_entry_add
from teams.line_ups import line_up_give, line_ups_close
from teams.models import League, Team, TeamBoard, TeamCompetition, TeamMatch, TeamMember
from teams.team_draw import team_round_count, team_stage_draw
from tests.factories import (
    ClubFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.results import won
from tournaments.models import Club, Player, Tournament
from tournaments.player_names import player_name_key

__all__ = [
    "Division",
    "division_make",
    "oracle_matches",
    "play_board",
    "season_make",
    "team_match_play",
]


def season_make(name: str = "Säsong 2027", club: Club | None = None) -> Season:
    club = club or ClubFactory.create()
    return Season.objects.create(
        club=club,
        name=name,
        start_date=datetime.date(2027, 1, 1),
        end_date=datetime.date(2027, 12, 31),
    )


@dataclass
class Division:
    tournament: Tournament
    competition: TeamCompetition
    teams: list[Team]
    organiser: Any
    referee: Any
    captains: dict[int, Any]


def _team(season: Season, name: str, boards: int, captain: Any) -> Team:
    club = ClubFactory.create()
    team = Team.objects.create(
        season=season, club=club, name=name, name_key=player_name_key(name), game="brade"
    )
    team.captains.add(captain)
    players = [
        PlayerFactory.create(name=f"{name} spelare {i}", club=club, user=UserFactory.create())
        for i in range(boards + 1)
    ]
    TeamMember.objects.bulk_create(
        [
            TeamMember(team=team, season=season, player=p, board=i, reserve=i > boards)
            for i, p in enumerate(players, start=1)
        ]
    )
    return team


def division_make(
    *,
    season: Season,
    name: str,
    teams: int,
    boards: int = 4,
    fmt: str = "league",
    double: bool = True,
    results_by: str = "referees",
    league: League | None = None,
    level: int = 1,
    up: int = 0,
    down: int = 0,
    swiss_rounds: int = 0,
    draw: bool = True,
    seed: int = 7,
    organiser: Any = None,
) -> Division:
    organiser = organiser or OrganiserFactory.create()
    referee = UserFactory.create()
    tournament = TournamentFactory.create(
        name=name,
        format=fmt,
        double_round=double,
        results_by=results_by,
        swiss_rounds=swiss_rounds,
        organisers=[organiser],
        referees=[referee],
    )
    competition_rules_set(tournament=tournament, by=organiser, boards=boards)
    captains: dict[int, Any] = {}
    made = []
    for i in range(teams):
        captain = UserFactory.create()
        team = _team(season, f"{name} lag {i + 1}", boards, captain)
        captains[team.pk] = captain
        team_entry_add(tournament=tournament, team=team, by=organiser)
        made.append(team)
    TeamCompetition.objects.filter(tournament=tournament).update(
        league=league, level=level, up=up, down=down
    )
    if draw:
        rounds = team_round_count(tournament, teams)
        team_stage_draw(tournament=tournament, by=organiser, lengths=[1] * rounds, draw_seed=seed)
    tournament.refresh_from_db()
    return Division(
        tournament,
        TeamCompetition.objects.get(tournament=tournament),
        made,
        organiser,
        referee,
        captains,
    )


def line_ups(division: Division, team_match: TeamMatch, rng: random.Random) -> None:
    """Both captains give a line-up (now and then a board left empty, a reserve playing),
    or the organiser closes them (a team then plays its roster)."""
    boards = division.competition.boards
    for team in (team_match.home, team_match.away):
        if team is None:
            continue
        if rng.random() < 0.15:
            continue  # this captain gives none; the organiser closes
        members = [m.player for m in TeamMember.objects.filter(team=team).order_by("board")]
        chosen: list[Player | None] = list(members[:boards])
        if rng.random() < 0.2:
            chosen[rng.randrange(boards)] = members[-1]  # the reserve plays
        if rng.random() < 0.05:
            chosen[rng.randrange(boards)] = None  # nobody came
        if len({p.pk for p in chosen if p is not None}) != len([p for p in chosen if p]):
            chosen = list(members[:boards])
        line_up_give(
            team_match=team_match, team=team, players=chosen, by=division.captains[team.pk]
        )
    team_match.refresh_from_db()
    if not team_match.boards_made:
        line_ups_close(team_match=team_match, by=division.organiser)


def play_board(division: Division, match: Match, rng: random.Random, means: str) -> None:
    """Play a board's (one-game) match by ``means``: ``referee`` enters it, ``report``: the
    winner reports and the opponent confirms."""
    if match.state == MatchState.BYE:
        return
    winner = rng.choice(("W", "B"))
    outcome = rng.choice(("hemspel", "hemspel", "jan", "sprangjan"))
    if means == "report":
        reporter = match.player1 if winner == "W" else match.player2
        other = match.player2 if winner == "W" else match.player1
        assert reporter is not None and other is not None
        report = game_report_submit(
            match=match, number=1, result=won(winner, outcome), by=reporter.user
        )
        game_report_confirm(report=report, by=other.user)
    else:
        game_result_enter(match=match, number=1, result=won(winner, outcome), by=division.referee)


def team_match_play(
    division: Division, team_match: TeamMatch, rng: random.Random, capture: Any
) -> None:
    """The organiser closes the team match's line-ups (its boards made from the rosters)
    and the referee enters every board; ``capture``: pytest-django's
    ``django_capture_on_commit_callbacks``, so each board's refresh runs."""
    with capture(execute=True):
        line_ups_close(team_match=team_match, by=division.organiser)
    for board in TeamBoard.objects.filter(team_match=team_match).select_related("match"):
        assert board.match is not None
        with capture(execute=True):
            play_board(division, board.match, rng, "referee")


def oracle_matches(tournament: Tournament) -> list[dict[str, Any]]:
    """The division's team matches as the oracle reads them, from the boards' matches as
    stored (not from the site's team-match scores)."""
    out = []
    for tm in TeamMatch.objects.filter(tournament=tournament, away__isnull=False):
        boards: list[dict[str, Any]] = []
        for board in TeamBoard.objects.filter(team_match=tm).select_related("match"):
            m = board.match
            if m is None:
                boards.append(
                    {
                        "winner": None,
                        "home_points": 0,
                        "away_points": 0,
                        "home_tiebreak": 0,
                        "away_tiebreak": 0,
                        "walkover": True,
                    }
                )
                continue
            home_is_1 = board.home_first
            home_player = m.player1_id if home_is_1 else m.player2_id
            if m.state == MatchState.BYE:
                boards.append(
                    {
                        "winner": "home" if m.player1_id == home_player else "away",
                        "home_points": 0,
                        "away_points": 0,
                        "home_tiebreak": 0,
                        "away_tiebreak": 0,
                        "walkover": True,
                    }
                )
                continue
            decided = m.winner_id is not None
            p_home, p_away = (m.points1, m.points2) if home_is_1 else (m.points2, m.points1)
            t_home, t_away = (m.tiebreak1, m.tiebreak2) if home_is_1 else (m.tiebreak2, m.tiebreak1)
            boards.append(
                {
                    "winner": (
                        None if not decided else "home" if m.winner_id == home_player else "away"
                    ),
                    "home_points": p_home,
                    "away_points": p_away,
                    "home_tiebreak": t_home,
                    "away_tiebreak": t_away,
                    "walkover": m.walkover,
                }
            )
        out.append({"home": tm.home_id, "away": tm.away_id, "boards": boards})
    return out
