"""A season renamed and its dates moved: by the service, with the same
checks as at creation, and on the season's edit page, in Swedish; keepers only."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Season
from clubs.season_services import season_create, season_details_set
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from tests.clubs.test_seasons import END, START, keeper
from tests.factories import ClubFactory, OrganiserFactory

pytestmark = pytest.mark.django_db


def a_season(by: Any, name: str = "Säsong 2026", club: Any = None) -> Season:
    return season_create(
        club=club or ClubFactory.create(name="Brädklubben Östra"),
        name=name,
        start_date=START,
        end_date=END,
        by=by,
        tournament_match_won=3,
    )


class TestService:
    def test_renamed_and_moved(self) -> None:
        by = keeper()
        season = a_season(by)
        new_end = datetime.date(2027, 6, 30)
        season_details_set(season=season, name="  Säsong 2026/27 ", end_date=new_end, by=by)
        stored = Season.objects.get(pk=season.pk)
        assert (stored.name, stored.start_date, stored.end_date) == (
            "Säsong 2026/27",
            START,
            new_end,
        )
        assert stored.tournament_match_won == 3  # the rules are left alone
        assert season.name == "Säsong 2026/27"  # the object passed in follows

    def test_only_keepers(self) -> None:
        season = a_season(keeper())
        with pytest.raises(PermissionDeniedError):
            season_details_set(season=season, name="Annat", by=OrganiserFactory.create())
        assert Season.objects.get(pk=season.pk).name == "Säsong 2026"

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"name": "   "}, "needs a name"),
            ({"end_date": datetime.date(2025, 12, 31)}, "cannot end before it starts"),
            ({"start_date": datetime.date(2027, 1, 1)}, "cannot end before it starts"),
        ],
    )
    def test_bad_details_are_refused(self, changes: dict[str, Any], message: str) -> None:
        by = keeper()
        season = a_season(by)
        with pytest.raises(ValidationError, match=message):
            season_details_set(season=season, by=by, **changes)
        stored = Season.objects.get(pk=season.pk)
        assert (stored.name, stored.start_date, stored.end_date) == ("Säsong 2026", START, END)

    def test_a_name_is_unique_within_its_club_only(self) -> None:
        by = keeper()
        club = ClubFactory.create(name="Brädklubben Östra")
        season = a_season(by, club=club)
        a_season(by, name="Säsong 2027", club=club)
        with pytest.raises(ConflictError, match="already has a season called “Säsong 2027”"):
            season_details_set(season=season, name="Säsong 2027", by=by)
        elsewhere = a_season(by, club=ClubFactory.create(name="Lunds BK"))
        season_details_set(season=elsewhere, name="Säsong 2027", by=by)
        assert Season.objects.filter(name="Säsong 2027").count() == 2
        # its own name again, or only new dates, is no clash
        season_details_set(season=season, name="Säsong 2026", end_date=END, by=by)


def test_the_edit_page_renames_and_moves_the_season(client: Client) -> None:
    by = keeper()
    season = a_season(by)
    client.force_login(by)
    edit_url = reverse("clubs:season_edit", args=[season.pk])
    page = client.get(edit_url).content.decode()
    assert "Namn och datum" in page and 'value="2026-01-01"' in page
    url = reverse("clubs:season_details", args=[season.pk])
    response = client.post(
        url,
        {
            "details-name": "Höstsäsongen",
            "details-start_date": "2026-08-01",
            "details-end_date": "2026-12-20",
        },
        follow=True,
    )
    assert response.redirect_chain == [(edit_url, 302)]
    assert "Säsongens namn och datum är sparade." in response.content.decode()
    stored = Season.objects.get(pk=season.pk)
    assert (stored.name, stored.start_date, stored.end_date) == (
        "Höstsäsongen",
        datetime.date(2026, 8, 1),
        datetime.date(2026, 12, 20),
    )


def test_the_edit_page_explains_what_is_refused(client: Client) -> None:
    by = keeper()
    season = a_season(by)
    a_season(by, name="Vårsäsongen", club=season.club)
    client.force_login(by)
    url = reverse("clubs:season_details", args=[season.pk])
    bad_dates = {
        "details-name": "Säsong 2026",
        "details-start_date": "2026-12-31",
        "details-end_date": "2026-01-01",
    }
    response = client.post(url, bad_dates)
    assert response.status_code == 200
    assert "Säsongen kan inte sluta innan den börjar" in response.content.decode()
    response = client.post(
        url,
        {
            **bad_dates,
            "details-name": "Vårsäsongen",
            "details-start_date": "2026-01-01",
            "details-end_date": "2026-12-31",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "har redan en säsong som heter ”Vårsäsongen”" in page
    assert "<h1>Ändra Säsong 2026</h1>" in page  # the stored name, not the refused one
    stored = Season.objects.get(pk=season.pk)
    assert (stored.name, stored.start_date, stored.end_date) == ("Säsong 2026", START, END)


def test_only_keepers_reach_the_form(client: Client) -> None:
    season = a_season(keeper())
    url = reverse("clubs:season_details", args=[season.pk])
    data = {
        "details-name": "X",
        "details-start_date": "2026-01-01",
        "details-end_date": "2026-12-31",
    }
    assert client.post(url, data).status_code == 302  # to the login page
    client.force_login(OrganiserFactory.create())
    assert client.post(url, data).status_code == 403
    assert client.get(url).status_code == 405  # the form is on the edit page
    assert Season.objects.get(pk=season.pk).name == "Säsong 2026"
