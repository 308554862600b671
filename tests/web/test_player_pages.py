"""The player page follows the player's tournaments: a player entered only in
private tournaments is a 404 to those who may not see them, and a player visible through
a public tournament shows only the matches of tournaments the visitor may see."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EntryFactory, OrganiserFactory, TournamentFactory, UserFactory
from tests.tournaments.helpers import drawn

pytestmark = pytest.mark.django_db


def test_private_only_player_is_404_to_outsiders_and_shown_to_the_tournaments_people(
    client: Client,
) -> None:
    setup = drawn(4, is_public=False, name="Hemliga cupen")
    player, other = setup.players[0], setup.players[1]
    other.user = UserFactory.create()
    other.save()
    url = reverse("web:player_detail", args=[player.pk])
    assert client.get(url).status_code == 404
    for stranger in (UserFactory.create(), drawn(2).organiser):  # incl. another organiser
        client.force_login(stranger)
        assert client.get(url).status_code == 404
    for insider in (setup.organiser, setup.referee, other.user):  # its staff and players
        client.force_login(insider)
        page = client.get(url)
        assert page.status_code == 200
        assert "Hemliga cupen" in page.content.decode()


def test_public_player_does_not_show_private_matches(client: Client) -> None:
    secret = drawn(2, is_public=False, name="Hemliga cupen")
    player = secret.players[0]
    player.user = UserFactory.create()
    player.save()
    public = TournamentFactory.create(name="Öppna cupen", organisers=[OrganiserFactory.create()])
    EntryFactory.create(tournament=public, player=player)
    url = reverse("web:player_detail", args=[player.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert player.name in page.content.decode()
    assert "Hemliga cupen" not in page.content.decode()
    client.force_login(player.user)  # the player sees their own private matches
    assert "Hemliga cupen" in client.get(url).content.decode()
