"""The season keepers' pages: a season created, its points rules set,
events added and removed through the pages, in Swedish; only keepers get in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import EventKind, Season, SeasonEvent
from clubs.season_forms import placings_parse, placings_text
from clubs.season_selectors import season_standings
from tests.clubs.test_seasons import keeper
from tests.factories import ClubFactory, OrganiserFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def rules(**changes: Any) -> dict[str, Any]:
    data = {
        "tournament_taking_part": "2",
        "tournament_match_won": "3",
        "tournament_placings": "1: 10, 2: 6, 3: 4",
        "club_night_taking_part": "1",
        "club_night_match_won": "2",
        "club_night_placings": "",
    }
    return {**data, **changes}


def test_a_keeper_creates_a_season_and_fills_it(client: Client) -> None:
    club = ClubFactory.create(name="Brädklubben Östra")
    tournament = TournamentFactory.create(name="Vårcupen")
    client.force_login(keeper())
    page = client.get(reverse("clubs:season_list")).content.decode()
    assert reverse("clubs:season_new") in page
    form = client.get(reverse("clubs:season_new")).content.decode()
    assert "Ny säsong" in form and "Turneringar: poäng per placering" in form
    response = client.post(
        reverse("clubs:season_new"),
        {
            "club": club.pk,
            "name": "Säsong 2027",
            "start_date": "2027-01-01",
            "end_date": "2027-12-31",
            **rules(),
        },
    )
    season = Season.objects.get(name="Säsong 2027")
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:season_edit", args=[season.pk])
    assert (season.club, season.tournament_match_won) == (club, 3)
    assert season.tournament_placings == {"1": 10, "2": 6, "3": 4}
    assert season.club_night_placings == {}

    client.post(
        reverse("clubs:season_event_new", args=[season.pk]),
        {"tournament": tournament.pk, "kind": EventKind.CLUB_NIGHT},
    )
    event = SeasonEvent.objects.get(season=season)
    assert (event.tournament, event.kind) == (tournament, EventKind.CLUB_NIGHT)
    edit = client.get(reverse("clubs:season_edit", args=[season.pk])).content.decode()
    assert "Vårcupen" in edit and "klubbkväll" in edit
    assert "1: 10, 2: 6, 3: 4" in edit  # the placings shown as typed

    client.post(reverse("clubs:season_event_delete", args=[season.pk, event.pk]))
    assert not SeasonEvent.objects.filter(season=season).exists()


def test_bad_input_is_explained_and_nothing_stored(client: Client) -> None:
    club = ClubFactory.create()
    client.force_login(keeper())
    response = client.post(
        reverse("clubs:season_new"),
        {
            "club": club.pk,
            "name": "Säsong",
            "start_date": "2027-12-31",
            "end_date": "2027-01-01",
            **rules(tournament_placings="1: 10, två: 6"),
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "”två: 6” är inte en placering med poäng" in page
    assert not Season.objects.exists()
    response = client.post(
        reverse("clubs:season_new"),
        {
            "club": club.pk,
            "name": "Säsong",
            "start_date": "2027-12-31",
            "end_date": "2027-01-01",
            **rules(),
        },
    )
    assert "Säsongen kan inte sluta innan den börjar" in response.content.decode()
    assert not Season.objects.exists()


def test_the_rules_change_the_standings(client: Client, season_day: dict[str, Any]) -> None:
    season = season_day["season"]
    before = season_standings(season=season)
    client.force_login(season_day["keeper"])
    response = client.post(
        reverse("clubs:season_edit", args=[season.pk]),
        rules(tournament_match_won="0", tournament_placings="1: 100"),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.tournament_placings == {"1": 100}
    after = season_standings(season=season)
    assert after.lines[0].row.total != before.lines[0].row.total
    assert after.lines[0].player.name == "Anna"  # won the cup: 100 points


def test_a_tournament_is_added_once(client: Client, season_day: dict[str, Any]) -> None:
    season, cup = season_day["season"], season_day["cup"]
    client.force_login(season_day["keeper"])
    edit = client.get(reverse("clubs:season_edit", args=[season.pk])).content.decode()
    # the add form offers only tournaments not in the season yet
    assert f'<option value="{cup.pk}"' not in edit
    response = client.post(
        reverse("clubs:season_event_new", args=[season.pk]),
        {"tournament": cup.pk, "kind": EventKind.TOURNAMENT},
    )
    assert response.status_code == 200
    assert SeasonEvent.objects.filter(season=season, tournament=cup).count() == 1


def test_only_keepers(client: Client, season_day: dict[str, Any]) -> None:
    season = season_day["season"]
    event = SeasonEvent.objects.filter(season=season).first()
    assert event is not None
    urls = [
        reverse("clubs:season_new"),
        reverse("clubs:season_edit", args=[season.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    client.force_login(OrganiserFactory.create())  # organising a tournament is not enough
    for url in urls:
        assert client.get(url).status_code == 403
    response = client.post(reverse("clubs:season_event_delete", args=[season.pk, event.pk]))
    assert response.status_code == 403
    assert SeasonEvent.objects.filter(pk=event.pk).exists()
    detail = client.get(reverse("clubs:season_detail", args=[season.pk])).content.decode()
    assert reverse("clubs:season_edit", args=[season.pk]) not in detail
    client.force_login(UserFactory.create(is_superuser=True))
    detail = client.get(reverse("clubs:season_detail", args=[season.pk])).content.decode()
    assert reverse("clubs:season_edit", args=[season.pk]) in detail


def test_a_private_event_stays_hidden_from_a_keeper_who_cannot_see_it(
    client: Client, season_day: dict[str, Any]
) -> None:
    season, secret = season_day["season"], season_day["secret"]
    event = SeasonEvent.objects.get(season=season, tournament=secret)
    client.force_login(season_day["keeper"])
    edit = client.get(reverse("clubs:season_edit", args=[season.pk])).content.decode()
    assert secret.name not in edit
    response = client.post(reverse("clubs:season_event_delete", args=[season.pk, event.pk]))
    assert response.status_code == 404
    assert SeasonEvent.objects.filter(pk=event.pk).exists()


def test_placings_text_round_trips() -> None:
    assert placings_parse("1: 10; 2=6\n3 : 4,") == {"1": 10, "2": 6, "3": 4}
    assert placings_text({"10": 1, "2": 6, "1": 10}) == "1: 10, 2: 6, 10: 1"
    assert placings_parse(placings_text({"1": 10, "2": 6})) == {"1": 10, "2": 6}
    assert placings_parse("") == {}
    for bad in ("0: 5", "1: -2", "1: 10, 1: 8", "först: 3"):
        with pytest.raises(Exception, match=r"."):
            placings_parse(bad)


def test_the_season_column_of_match_wins_is_not_called_match_points(
    client: Client, season_day: dict[str, Any]
) -> None:
    """A season counts points per match won; "Matchpoäng" is the standings' own column
    (a match's points), so the season's says what it counts."""
    client.cookies["django_language"] = "sv"
    season = season_day["season"]
    detail = client.get(reverse("clubs:season_detail", args=[season.pk])).content.decode()
    heads = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', detail)
    assert "Poäng för vunna matcher" in heads and "Matchpoäng" not in heads
