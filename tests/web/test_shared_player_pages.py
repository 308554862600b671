"""The admin's player page follows ``tournaments.players.player_update``: an organiser who entered a
player of another organiser's tournament in a draft of their own sees that player
read-only, told why (in Swedish, the site's default), and a change posted anyway is refused (403);
a player who is only theirs they change as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, TournamentFactory
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def taken() -> dict[str, Any]:
    x, y = OrganiserFactory.create(is_staff=True), OrganiserFactory.create()
    public = TournamentFactory.create(organisers=[y])
    draft = TournamentFactory.create(organisers=[x], is_public=False)
    cia = PlayerFactory.create(name="Cia Lind", rating=1500)
    dan = PlayerFactory.create(name="Dan Berg", rating=1400)
    EntryFactory.create(tournament=public, player=cia)
    EntryFactory.create(tournament=draft, player=cia)
    EntryFactory.create(tournament=draft, player=dan)
    client = Client()
    client.force_login(x)
    return {"client": client, "cia": cia, "dan": dan}


def test_a_shared_player_is_read_only_with_the_reason(taken: dict[str, Any]) -> None:
    client, cia = taken["client"], taken["cia"]
    url = f"/admin/tournaments/player/{cia.pk}/change/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Cia Lind spelar i andra arrangörers turneringar också" in page
    assert 'name="rating"' not in page
    posted = client.post(url, {"name": "Övertagen", "club": "", "rating": "2400"})
    assert posted.status_code == 403
    cia.refresh_from_db()
    assert (cia.name, cia.rating) == ("Cia Lind", 1500)


def test_a_player_only_theirs_is_changed_in_the_admin(taken: dict[str, Any]) -> None:
    dan = taken["dan"]
    url = f"/admin/tournaments/player/{dan.pk}/change/"
    response = taken["client"].post(url, {"name": "Dan Bergström", "club": "", "rating": "1450"})
    assert response.status_code == 302
    assert Player.objects.get(pk=dan.pk).rating == 1450
