"""The rating typed in with an entry (``Player.rating``, used for seeding) is labelled
"Angiven rating" / "Given rating" on the tournament page and the organiser's manage page,
with the rating computed here beside it, in one query for the whole table."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import PlayerRating
from clubs.rating_selectors import tournament_ratings
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def draft(n: int, *, rated: bool = True) -> tuple[Any, Any, list[Any]]:
    """A draft tournament of ``n`` players, each with a given rating; every other one
    also with a computed bräde rating (``1600.25 + i``)."""
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], name="Höstcupen")
    players = []
    for i in range(n):
        player = PlayerFactory.create(name=f"Spelare {i:02d}", rating=1400 + i)
        EntryFactory.create(tournament=tournament, player=player)
        if rated and i % 2 == 0:
            PlayerRating.objects.create(
                game="brade", player=player, rating=Decimal("1600.25") + i, experience=3
            )
        players.append(player)
    return tournament, organiser, players


def pages(tournament: Any) -> dict[str, str]:
    return {
        "tournament page": reverse("web:tournament_detail", args=[tournament.pk]),
        "manage page": reverse("web:tournament_manage", args=[tournament.pk]),
    }


def test_both_pages_label_the_given_rating_and_show_the_computed_one(client: Client) -> None:
    tournament, organiser, _ = draft(4)
    client.force_login(organiser)
    for name, url in pages(tournament).items():
        page = client.get(url).content.decode()
        assert ">Angiven rating</th>" in page, name
        assert 'data-label="Angiven rating">1401<' in page, name  # the given one
        assert 'data-label="Rating">1600,25<' in page, name  # the computed one, sv
        assert 'data-label="Rating">1602,25<' in page, name
        assert 'data-label="Rating"></td>' in page, name  # Spelare 01: not rated yet
        assert 'data-label="Rating">1401' not in page, name  # no unlabelled given rating
    client.cookies["django_language"] = "en"
    for name, url in pages(tournament).items():
        page = client.get(url).content.decode()
        assert ">Given rating</th>" in page and 'data-label="Rating">1600.25<' in page, name


def test_the_add_player_form_asks_for_the_given_rating(client: Client) -> None:
    tournament, organiser, _ = draft(1)
    client.force_login(organiser)
    page = client.get(reverse("web:tournament_manage", args=[tournament.pk])).content.decode()
    assert '<label for="id_rating">Angiven rating</label>' in page


def test_no_computed_column_without_computed_ratings(client: Client) -> None:
    tournament, organiser, _ = draft(3, rated=False)
    client.force_login(organiser)
    for name, url in pages(tournament).items():
        page = client.get(url).content.decode()
        assert "Angiven rating" in page and 'data-label="Rating"' not in page, name


def test_the_computed_ratings_are_one_query_for_the_whole_table() -> None:
    tournament, _, players = draft(6)
    with CaptureQueriesContext(connection) as ctx:
        ratings = tournament_ratings(tournament=tournament)
    assert len(ctx.captured_queries) == 1
    assert ratings == {p.pk: Decimal("1600.25") + i for i, p in enumerate(players) if i % 2 == 0}


def test_the_pages_need_the_same_queries_at_any_size(client: Client) -> None:
    counts: dict[int, dict[str, int]] = {}
    for n in (5, 40):
        tournament, organiser, _ = draft(n)
        client.force_login(organiser)
        counts[n] = {}
        for name, url in pages(tournament).items():
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url)
            assert response.status_code == 200
            assert response.content.decode().count('data-label="Angiven rating"') == n
            counts[n][name] = len(ctx.captured_queries)
    print(f"queries per page by players: {counts}")
    assert counts[5] == counts[40], counts
