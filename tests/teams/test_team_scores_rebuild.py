"""``manage.py team_scores rebuild``: a team match's stored score left stale (its board's
refresh never ran) is found by ``--check`` (exit non-zero) and stored anew from its boards
by ``rebuild``, one tournament's with ``--tournament``; after it ``--check`` passes."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from teams.models import TeamMatch
from tests.teams.league_helpers import Division, division_make, season_make, team_match_play

pytestmark = pytest.mark.django_db

SCORE = (
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


def _played(division: Division, capture: Any) -> TeamMatch:
    """The division's first team match, its boards made and all played."""
    team_match = TeamMatch.objects.filter(tournament=division.tournament).order_by("pk").first()
    assert team_match is not None
    team_match_play(division, team_match, random.Random(5), capture)
    team_match.refresh_from_db()
    assert team_match.result != ""
    return team_match


def _score(team_match: TeamMatch) -> tuple[Any, ...]:
    team_match.refresh_from_db()
    return tuple(getattr(team_match, field) for field in SCORE)


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("team_scores", "rebuild", *args, stdout=out)
    return out.getvalue()


def test_a_stale_score_is_found_by_check_and_stored_anew_by_rebuild(
    django_capture_on_commit_callbacks: Any,
) -> None:
    season = season_make()
    one = division_make(season=season, name="Div 1", teams=2, boards=3, double=False)
    two = division_make(season=season, name="Div 2", teams=2, boards=3, double=False)
    first, second = (
        _played(one, django_capture_on_commit_callbacks),
        _played(two, django_capture_on_commit_callbacks),
    )
    right = (_score(first), _score(second))
    assert _run("--check") == "team matches: 2, stale scores: 0\n"
    # as if the refresh after a board's result had never run
    TeamMatch.objects.filter(pk__in=[first.pk, second.pk]).update(
        home_boards=0, away_boards=0, undecided=3, result="", decided_at=None
    )
    with pytest.raises(CommandError, match="2 of 2 team-match scores differ"):
        _run("--check")
    assert _score(first) != right[0]  # --check changed nothing

    fixed = _run("--tournament", str(one.tournament.pk))
    assert fixed == "team matches: 1, stale scores stored anew: 1\n"
    assert _score(first) == right[0] and first.decided_at is not None
    assert _score(second) != right[1]  # the other tournament's is left
    with pytest.raises(CommandError, match="1 of 2 team-match scores differ"):
        _run("--check")

    assert _run() == "team matches: 2, stale scores stored anew: 1\n"
    assert (_score(first), _score(second)) == right
    assert _run("--check") == "team matches: 2, stale scores: 0\n"
    assert _run() == "team matches: 2, stale scores stored anew: 0\n"


def test_an_unknown_tournament_is_an_error() -> None:
    with pytest.raises(CommandError, match="no tournament 999999"):
        _run("--tournament", "999999")


def test_check_reads_the_boards_of_many_team_matches_in_the_same_few_queries(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season = season_make()
    small = division_make(season=season, name="Div 1", teams=2, boards=2, double=False)
    large = division_make(season=season, name="Div 2", teams=6, boards=2, double=False)
    counts = []
    for division, played in ((small, 1), (large, 3)):
        team_matches = TeamMatch.objects.filter(
            tournament=division.tournament, away__isnull=False
        ).order_by("pk")
        for team_match in team_matches[:played]:
            team_match_play(
                division, team_match, random.Random(5), django_capture_on_commit_callbacks
            )
        with CaptureQueriesContext(connection) as queries:
            out = _run("--check", "--tournament", str(division.tournament.pk))
        assert out.endswith("stale scores: 0\n")
        counts.append(len(queries))
    # fifteen team matches, three of them with boards, cost what one did
    assert TeamMatch.objects.filter(tournament=large.tournament).count() == 15
    assert counts[0] == counts[1]
