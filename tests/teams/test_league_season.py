"""A simulated season: three divisions of eight teams of four boards, a double round robin,
every board a real match played through the site's services (a referee's entry, players'
reports confirmed by the opponent, walkovers for the boards nobody came to), the tables
compared with an independent recomputation (``tests.teams.league_oracle``, written apart
from the site's code) and next season's divisions made by promotion and relegation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.errors import PermissionDeniedError
from teams.divisions import league_divisions, league_season_next
from teams.models import League, TeamBoard, TeamEntry, TeamMatch
from teams.tables import team_table
from tests.factories import UserFactory
from tests.teams import league_oracle
from tests.teams.league_helpers import (
    Division,
    division_make,
    line_ups,
    oracle_matches,
    play_board,
    season_make,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _play_season(division: Division, rng: random.Random, means: str, capture: Any) -> None:
    for team_match in TeamMatch.objects.filter(tournament=division.tournament).select_related(
        "home", "away", "tournament"
    ):
        with capture(execute=True):
            line_ups(division, team_match, rng)
        for board in TeamBoard.objects.filter(team_match=team_match, match__isnull=False):
            assert board.match is not None
            with capture(execute=True):
                play_board(division, board.match, rng, means)


def _site_rows(division: Division) -> list[dict[str, int]]:
    return [
        {
            "team": row.team,
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "match_points": row.match_points,
            "board_points": row.board_points,
            "points_for": row.points_for,
            "points_against": row.points_against,
        }
        for row in team_table(tournament=division.tournament).rows
    ]


def test_a_season_of_three_divisions_matches_the_oracle_and_promotes(
    django_capture_on_commit_callbacks: Any,
) -> None:
    rng = random.Random(2027)
    season = season_make()
    league = League.objects.create(name="Brädligan", club=season.club)
    means = ("referee", "report", "referee")
    divisions = []
    organiser = None
    for level in (1, 2, 3):
        division = division_make(
            season=season,
            name=f"Division {level}",
            teams=8,
            boards=4,
            league=league,
            level=level,
            up=2,
            down=2,
            results_by="players" if means[level - 1] == "report" else "referees",
            seed=level,
            organiser=organiser,
        )
        organiser = division.organiser
        divisions.append(division)
    for division, how in zip(divisions, means, strict=True):
        _play_season(division, rng, how, django_capture_on_commit_callbacks)

    final_orders = []
    for division in divisions:
        matches = oracle_matches(division.tournament)
        assert len(matches) == 8 * 7  # a double round robin of eight teams
        assert all(len(m["boards"]) == 4 for m in matches)
        expected = league_oracle.division_table(
            [t.pk for t in division.teams], matches, lots=division.competition.lots
        )
        assert _site_rows(division) == expected
        assert TeamMatch.objects.filter(tournament=division.tournament, result="").count() == 0
        final_orders.append([row["team"] for row in expected])
    # the season really exercised the cases: early decisions, draws, walkovers
    decided = TeamMatch.objects.filter(tournament__in=[d.tournament for d in divisions])
    assert decided.filter(result="draw").exists()
    assert decided.filter(boards__match__walkover=False, boards__match__state="bye").exists()

    next_season = season_make("Säsong 2028", season.club)
    made = league_season_next(league=league, season=season, next_season=next_season, by=organiser)
    expected_sets = league_oracle.next_divisions(final_orders, up=2, down=2)
    got = []
    for competition in made:
        names = TeamEntry.objects.filter(tournament=competition.tournament).values_list(
            "team__name", flat=True
        )
        got.append(set(names))
    names_by_id = {t.pk: t.name for d in divisions for t in d.teams}
    assert got == [{names_by_id[t] for t in s} for s in expected_sets]
    assert [c.level for c in league_divisions(league=league, season=next_season)] == [1, 2, 3]


def _one_division_played(capture: Any, organiser: Any = None) -> tuple[Division, League]:
    """A league of one team-Swiss division of two teams, one round, with a clock, played."""
    season = season_make()
    league = League.objects.create(name="Lagserien", club=season.club)
    division = division_make(
        season=season,
        name="Serien",
        teams=2,
        boards=2,
        fmt="team_swiss",
        swiss_rounds=1,
        league=league,
        organiser=organiser,
    )
    Tournament.objects.filter(pk=division.tournament.pk).update(clock_per_point=90, clock_delay=3)
    _play_season(division, random.Random(4), "referee", capture)
    return division, league


def test_the_next_seasons_division_is_made_by_the_tournaments_service(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division, league = _one_division_played(django_capture_on_commit_callbacks)
    season = division.competition.season
    assert season is not None
    next_season = season_make("Säsong 2028", season.club)
    (made,) = league_season_next(
        league=league, season=season, next_season=next_season, by=division.organiser
    )
    new = made.tournament
    # the format's options and the time control, as tournament_create sets them
    assert (new.format, new.swiss_rounds, new.tiebreaks) == ("team_swiss", 1, [])
    assert (new.clock_per_point, new.clock_delay) == (90, 3)
    assert (new.status, new.start_date) == ("draft", next_season.start_date)
    assert list(new.organisers.all()) == [division.organiser]


def test_one_who_may_not_create_tournaments_cannot_make_the_next_season(
    django_capture_on_commit_callbacks: Any,
) -> None:
    plain = UserFactory.create()  # organiser of the division, without organiser rights
    division, league = _one_division_played(django_capture_on_commit_callbacks, organiser=plain)
    season = division.competition.season
    assert season is not None
    next_season = season_make("Säsong 2028", season.club)
    with pytest.raises(PermissionDeniedError):
        league_season_next(league=league, season=season, next_season=next_season, by=plain)
    assert not league_divisions(league=league, season=next_season)
