"""The clubs pages are Swedish: the crawl of tests/web/test_swedish_crawl.py over the rating
list, every rating history of the demo's players, a season with its standings and rules,
the import page and the manage page's seeding by rating."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs.models import EventKind, PlayerRating
from clubs.season_services import season_create, season_event_add
from tests.factories import EntryFactory, TournamentFactory
from tests.web.test_swedish_crawl import demo, english_fragments, visible_text
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db

__all__ = ["demo"]  # the fixture, used by name


def test_clubs_pages_show_no_english_catalogue_text(client: Client, demo: Tournament) -> None:
    admin = get_user_model().objects.get(is_superuser=True)
    client.force_login(admin)
    ratings = list(PlayerRating.objects.filter(game="brade"))
    assert len(ratings) >= 8, "the demo's decided matches are rated"
    club = Club.objects.order_by("pk").first()
    assert club is not None
    season = season_create(
        club=club,
        name="Säsong 2026",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        by=admin,
        tournament_taking_part=1,
        tournament_match_won=2,
        tournament_placings={"1": 8, "2": 5},
    )
    season_event_add(season=season, tournament=demo, by=admin)
    private = TournamentFactory.create(is_public=False, name="Privat klubbkväll")
    season_event_add(season=season, tournament=private, by=admin, kind=EventKind.CLUB_NIGHT)
    draft = TournamentFactory.create(organisers=[admin])
    for rating in ratings[:3]:
        EntryFactory.create(tournament=draft, player=rating.player)
    urls = [
        reverse("clubs:ratings"),
        reverse("clubs:ratings") + f"?club={club.pk}",
        reverse("clubs:season_list"),
        reverse("clubs:season_detail", args=[season.pk]),
        reverse("clubs:season_import", args=[season.pk]),
        reverse("web:tournament_manage", args=[draft.pk]),
    ]
    urls += [reverse("clubs:rating_history", args=[r.player_id, "brade"]) for r in ratings]
    fragments = english_fragments()
    found: dict[str, set[str]] = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        if shown := {f for f in fragments if f in text}:
            found[url] = shown
    assert found == {}
    season_page = visible_text(client.get(urls[3]).content.decode())
    assert "räknas inte så länge den är privat" in season_page and "Tabell" in season_page
