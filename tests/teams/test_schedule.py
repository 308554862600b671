"""A team stage's rounds in the calendar (``teams.schedule``): the day played and the
line-ups' deadline, set by the organisers on the page and through the API, shown on the
tournament page, in the API and in the fixtures CSV; the deadline then binds the captains."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from teams.line_ups import line_up_give
from teams.models import TeamMatch, TeamMember
from teams.schedule import team_round_schedule
from tests.api.conftest import client_for
from tests.teams.league_helpers import division_make, season_make
from tournaments.models import Round

pytestmark = pytest.mark.django_db

DAY = datetime.date(2027, 3, 4)


def _division() -> Any:
    return division_make(season=season_make(), name="Ligan", teams=4, boards=2, double=False)


def test_the_organiser_sets_a_rounds_day_and_deadline_which_binds_the_captains() -> None:
    division = _division()
    first = Round.objects.get(tournament=division.tournament, number=1)
    passed = timezone.now() - datetime.timedelta(hours=1)
    with pytest.raises(PermissionDeniedError):
        team_round_schedule(round=first, date=DAY, deadline=None, by=division.referee)
    with pytest.raises(ValidationError):  # after the day's end
        team_round_schedule(
            round=first,
            date=DAY,
            deadline=timezone.make_aware(datetime.datetime(2027, 3, 5, 9, 0)),
            by=division.organiser,
        )
    made = team_round_schedule(
        round=first, date=timezone.localdate(), deadline=passed, by=division.organiser
    )
    assert len(made) == 2
    for tm in TeamMatch.objects.filter(round=first):
        assert (tm.date, tm.line_up_deadline) == (timezone.localdate(), passed)
    other = TeamMatch.objects.filter(tournament=division.tournament, round__number=2).first()
    assert other is not None and other.date is None
    late = TeamMatch.objects.select_related("home", "tournament").filter(round=first).first()
    assert late is not None
    roster = [m.player for m in TeamMember.objects.filter(team=late.home).order_by("board")]
    with pytest.raises(ConflictError):  # the captain is late now
        line_up_give(
            team_match=late,
            team=late.home,
            players=roster[:2],
            by=division.captains[late.home.pk],
        )


def test_the_page_the_api_and_the_fixtures_show_the_day() -> None:
    division = _division()
    pk = division.tournament.pk
    page = Client(HTTP_ACCEPT_LANGUAGE="sv")
    page.force_login(division.organiser)
    answer = page.post(
        f"/tournaments/{pk}/team-rounds/1/schedule/",
        {"date": "2027-03-04", "deadline": "2027-03-04T18:00"},
    )
    assert answer.status_code == 302
    html = page.get(f"/tournaments/{pk}/").content.decode()
    assert '<time datetime="2027-03-04">' in html
    assert "laguppställningar senast" in html
    api = client_for(division.organiser)
    changed = api.patch(
        f"/api/tournaments/{pk}/team-rounds/2/",
        {"date": "2027-03-18", "line_up_deadline": None},
        format="json",
    )
    assert changed.status_code == 200
    assert {m["date"] for m in changed.json()} == {"2027-03-18"}
    refused = client_for(division.referee).patch(
        f"/api/tournaments/{pk}/team-rounds/2/",
        {"date": None, "line_up_deadline": None},
        format="json",
    )
    assert refused.status_code == 403
    listed = api.get(f"/api/tournaments/{pk}/team-matches/").json()
    assert {m["date"] for m in listed if m["round"] == 1} == {"2027-03-04"}
    rows = api.get(f"/api/tournaments/{pk}/team-matches.csv", HTTP_ACCEPT_LANGUAGE="sv")
    lines = rows.content.decode("utf-8-sig").splitlines()
    assert lines[0].split(";")[:3] == ["Omgång", "Speldag", "Hemma"]
    assert sum(line.split(";")[1] == "2027-03-04" for line in lines[1:]) == 2


def _schedule_queries(teams: int) -> int:
    """The queries of the API's setting round 1's day in a league of ``teams`` teams."""
    division = division_make(
        season=season_make(), name=f"Ligan {teams}", teams=teams, boards=1, double=False
    )
    api = client_for(division.organiser)
    url = f"/api/tournaments/{division.tournament.pk}/team-rounds/1/"
    with CaptureQueriesContext(connection) as ctx:
        answer = api.patch(url, {"date": "2027-03-04", "line_up_deadline": None}, format="json")
    assert answer.status_code == 200
    assert [m["home"]["club"]["id"] for m in answer.json()] == list(
        TeamMatch.objects.filter(tournament=division.tournament, round__number=1)
        .order_by("number")
        .values_list("home__club_id", flat=True)
    )
    assert len(answer.json()) == teams // 2
    return len(ctx.captured_queries)


def test_a_rounds_schedule_is_set_in_as_many_queries_whatever_its_team_matches() -> None:
    assert _schedule_queries(4) == _schedule_queries(12)
