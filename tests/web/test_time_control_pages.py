"""The time control on the pages (``tournaments.time_control``): the organiser sets it on
the new-tournament page, and the match page and the scoresheet say it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import OrganiserFactory
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_organiser_sets_the_clock_on_the_new_tournament_page(client: Client) -> None:
    client.cookies["django_language"] = "en"
    client.force_login(OrganiserFactory.create())
    page = client.get(reverse("web:tournament_create")).content.decode()
    assert 'id="id_clock_per_point"' in page and 'id="id_clock_delay"' in page
    response = client.post(
        reverse("web:tournament_create"),
        {
            "name": "Klockcupen",
            "start_date": "2027-03-06",
            "game": "backgammon",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "clock_per_point": "120",
            "clock_delay": "12",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Klockcupen")
    assert (tournament.clock_per_point, tournament.clock_delay) == (120, 12)
    # left empty: no clock
    client.post(
        reverse("web:tournament_create"),
        {
            "name": "Utan klocka",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
        },
    )
    assert Tournament.objects.get(name="Utan klocka").clock_per_point == 0


def test_the_match_page_and_the_scoresheet_say_the_time_control(client: Client) -> None:
    s = drawn(2, lengths=[3], game="backgammon", clock_per_point=120, clock_delay=12)
    match = match_of(s.tournament, 1, 0)
    client.cookies["django_language"] = "en"
    client.force_login(s.referee)
    words = "2 min per point + 12 s delay per move"
    assert words in client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    sheet = client.get(reverse("web:match_record", args=[match.pk])).content.decode()
    assert 'id="sheet-clock"' in sheet and words in sheet
    client.cookies["django_language"] = "sv"
    swedish = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert "2 min per poäng + 12 s fördröjning per drag" in swedish
