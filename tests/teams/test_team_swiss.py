"""A team Swiss of 24 teams over 7 rounds (and an odd field of 23, so that the byes are
exercised): each round paired from the table by the site's Swiss engine, every board
played; no two teams meet twice and no team has a second bye."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from core.errors import ConflictError
from teams.models import TeamBoard, TeamMatch
from teams.team_swiss_rounds import team_round_pair
from tests.teams.league_helpers import division_make, line_ups, play_board, season_make
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def _play_round(division: Any, rnd: Round, rng: random.Random, capture: Any) -> None:
    for team_match in TeamMatch.objects.filter(round=rnd, away__isnull=False).select_related(
        "home", "away", "tournament"
    ):
        with capture(execute=True):
            line_ups(division, team_match, rng)
        for board in TeamBoard.objects.filter(team_match=team_match, match__isnull=False):
            assert board.match is not None
            with capture(execute=True):
                play_board(division, board.match, rng, "referee")


@pytest.mark.parametrize("teams", [24, 23])
def test_a_team_swiss_pairs_seven_rounds_without_rematch_or_second_bye(
    teams: int, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(teams)
    division = division_make(
        season=season_make(),
        name="Lag-SM",
        teams=teams,
        boards=2,
        fmt="team_swiss",
        swiss_rounds=7,
        seed=11,
    )
    rounds = list(Round.objects.filter(tournament=division.tournament).order_by("number"))
    assert len(rounds) == 7
    for rnd in rounds:
        if rnd.number > 1:
            team_round_pair(round=rnd, by=division.organiser)
        if rnd.number < 7:
            with pytest.raises(ConflictError):  # this round is not decided yet
                team_round_pair(round=rounds[rnd.number], by=division.organiser)
        _play_round(division, rnd, rng, django_capture_on_commit_callbacks)
    pairs = list(
        TeamMatch.objects.filter(tournament=division.tournament).values_list("home_id", "away_id")
    )
    met = Counter(frozenset(p) for p in pairs if p[1] is not None)
    assert max(met.values()) == 1
    byes = Counter(home for home, away in pairs if away is None)
    assert len(byes) == (7 if teams % 2 else 0)
    assert all(count == 1 for count in byes.values())
    per_round = Counter(
        TeamMatch.objects.filter(tournament=division.tournament).values_list(
            "round__number", flat=True
        )
    )
    assert set(per_round.values()) == {(teams + 1) // 2}
    assert not TeamMatch.objects.filter(tournament=division.tournament, result="").exists()
