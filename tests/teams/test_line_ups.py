"""Captains' line-ups (``teams.line_ups``): who may give them, whom, until when, hidden
from the other team, and the boards made from them."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import MatchState
from teams.line_ups import line_up_give, line_up_visible, line_ups_close
from teams.models import TeamBoard, TeamMatch, TeamMember
from tests.factories import UserFactory
from tests.teams.league_helpers import division_make, season_make, team_match_play
from tournaments.models import Entry, Round, TournamentStatus, Venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def first(django_capture_on_commit_callbacks: Any) -> tuple[Any, TeamMatch]:
    division = division_make(season=season_make(), name="Ligan", teams=4, boards=4, double=False)
    team_match = TeamMatch.objects.filter(tournament=division.tournament).select_related(
        "home", "away", "tournament"
    )[0]
    return division, team_match


def _roster(team: Any) -> list[Any]:
    return [m.player for m in TeamMember.objects.filter(team=team).order_by("board")]


def test_only_the_teams_captains_and_organisers_give_a_line_up(first: Any) -> None:
    division, tm = first
    with pytest.raises(PermissionDeniedError):
        line_up_give(
            team_match=tm, team=tm.home, players=_roster(tm.home)[:4], by=UserFactory.create()
        )
    with pytest.raises(PermissionDeniedError):  # the other team's captain
        line_up_give(
            team_match=tm,
            team=tm.home,
            players=_roster(tm.home)[:4],
            by=division.captains[tm.away.pk],
        )
    line_up_give(team_match=tm, team=tm.home, players=_roster(tm.home)[:4], by=division.organiser)


def test_a_line_up_takes_the_teams_own_roster_once_each(first: Any) -> None:
    division, tm = first
    captain = division.captains[tm.home.pk]
    home, away = _roster(tm.home), _roster(tm.away)
    with pytest.raises(ValidationError, match="roster"):
        line_up_give(team_match=tm, team=tm.home, players=[*home[:3], away[0]], by=captain)
    with pytest.raises(ValidationError, match="only one board"):
        line_up_give(team_match=tm, team=tm.home, players=[home[0]] * 4, by=captain)
    with pytest.raises(ValidationError, match="each of the 4 boards"):
        line_up_give(team_match=tm, team=tm.home, players=home[:3], by=captain)
    line_up_give(team_match=tm, team=tm.home, players=[home[4], *home[1:4]], by=captain)  # reserve


def test_hidden_from_the_other_team_until_both_are_in(first: Any) -> None:
    division, tm = first
    home_captain, away_captain = division.captains[tm.home.pk], division.captains[tm.away.pk]
    line_up_give(team_match=tm, team=tm.home, players=_roster(tm.home)[:4], by=home_captain)
    assert line_up_visible(tm, tm.home, home_captain)
    assert not line_up_visible(tm, tm.home, away_captain)
    assert not line_up_visible(tm, tm.home, AnonymousUser())
    assert line_up_visible(tm, tm.home, division.organiser)
    line_up_give(team_match=tm, team=tm.away, players=_roster(tm.away)[:4], by=away_captain)
    tm.refresh_from_db()
    assert line_up_visible(tm, tm.home, AnonymousUser())


def test_a_captain_is_refused_after_the_deadline_an_organiser_is_not(first: Any) -> None:
    division, tm = first
    TeamMatch.objects.filter(pk=tm.pk).update(
        line_up_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    tm.refresh_from_db()
    with pytest.raises(ConflictError):
        line_up_give(
            team_match=tm,
            team=tm.home,
            players=_roster(tm.home)[:4],
            by=division.captains[tm.home.pk],
        )
    assert line_up_visible(tm, tm.home, AnonymousUser())  # the deadline has passed
    line_up_give(team_match=tm, team=tm.home, players=_roster(tm.home)[:4], by=division.organiser)


def test_the_boards_alternate_the_first_named_team_and_an_empty_board_is_a_walkover(
    first: Any,
) -> None:
    division, tm = first
    home, away = _roster(tm.home), _roster(tm.away)
    line_up_give(
        team_match=tm, team=tm.home, players=[*home[:3], None], by=division.captains[tm.home.pk]
    )
    line_up_give(team_match=tm, team=tm.away, players=away[:4], by=division.captains[tm.away.pk])
    boards = list(TeamBoard.objects.filter(team_match=tm).select_related("match"))
    assert [b.board for b in boards] == [1, 2, 3, 4]
    assert [(b.match.player1, b.match.player2) for b in boards[:3] if b.match] == [
        (home[0], away[0]),
        (away[1], home[1]),
        (home[2], away[2]),
    ]
    last = boards[3].match
    assert last is not None and last.state == MatchState.BYE and last.player1 == away[3]
    tm.refresh_from_db()
    assert (tm.home_boards, tm.away_boards, tm.undecided) == (0, 1, 3)
    assert Entry.objects.filter(tournament=tm.tournament).count() == 7
    with pytest.raises(ConflictError):
        line_up_give(team_match=tm, team=tm.home, players=home[:4], by=division.organiser)


def test_closing_plays_a_missing_line_up_from_the_roster(first: Any) -> None:
    division, tm = first
    with pytest.raises(PermissionDeniedError):
        line_ups_close(team_match=tm, by=division.captains[tm.home.pk])
    line_ups_close(team_match=tm, by=division.organiser)
    boards = list(TeamBoard.objects.filter(team_match=tm).select_related("match"))
    assert boards[0].match is not None
    assert boards[0].match.player1 == _roster(tm.home)[0]


def test_the_league_is_not_finished_while_boards_are_still_to_be_made(
    first: Any, django_capture_on_commit_callbacks: Any
) -> None:
    division, _tm = first
    rng = random.Random(1)
    # one team match of every round made and played; the other of each round waits
    for rnd in Round.objects.filter(tournament=division.tournament):
        tm = TeamMatch.objects.filter(round=rnd).select_related("tournament").first()
        assert tm is not None
        team_match_play(division, tm, rng, django_capture_on_commit_callbacks)
    division.tournament.refresh_from_db()
    assert division.tournament.status == TournamentStatus.RUNNING
    for tm in TeamMatch.objects.filter(tournament=division.tournament, boards_made=False):
        team_match_play(division, tm, rng, django_capture_on_commit_callbacks)
    division.tournament.refresh_from_db()
    assert division.tournament.status == TournamentStatus.FINISHED


def test_two_team_matches_of_a_round_never_share_a_table(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Ligan", teams=4, boards=3, double=False)
    round_one = Round.objects.get(tournament=division.tournament, number=1)
    for tm in TeamMatch.objects.filter(round=round_one).select_related("tournament"):
        with django_capture_on_commit_callbacks(execute=True):
            line_ups_close(team_match=tm, by=division.organiser)
    tables = TeamBoard.objects.filter(team_match__round=round_one).values_list(
        "match__table", flat=True
    )
    assert None not in tables
    assert sorted(t for t in tables if t is not None) == [1, 2, 3, 4, 5, 6]


def test_a_team_match_is_played_at_its_home_clubs_venue(
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_make(season=season_make(), name="Ligan", teams=4, boards=2, double=False)
    round_one = Round.objects.get(tournament=division.tournament, number=1)
    matches = list(TeamMatch.objects.filter(round=round_one).select_related("home__club"))
    venues = [
        Venue.objects.create(tournament=division.tournament, name=tm.home.club.name, ordering=i)
        for i, tm in enumerate(reversed(matches))
    ]
    for tm in matches:
        with django_capture_on_commit_callbacks(execute=True):
            line_ups_close(team_match=tm, by=division.organiser)
    for tm in matches:
        placed = TeamBoard.objects.filter(team_match=tm).values_list(
            "match__venue__name", "match__table"
        )
        assert sorted(placed) == [(tm.home.club.name, 1), (tm.home.club.name, 2)]
    assert len(venues) == 2
