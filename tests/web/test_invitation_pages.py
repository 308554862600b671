"""The signed-in user's invitations page (``/account/invitations/``): an organiser's
invitation to link a player to the account is shown (in Swedish by default) and the user
accepts or declines it; another user cannot answer it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tournaments.models import InvitationState, Player, PlayerInvitation
from tournaments.players import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited() -> dict[str, Any]:
    organiser = OrganiserFactory.create(first_name="Olle", last_name="Arrangör")
    TournamentFactory.create(organisers=[organiser])
    user = UserFactory.create()
    player = player_create(name="Vera Vald", user=user, by=organiser)
    client = Client()
    client.force_login(user)
    return {"user": user, "player": player, "client": client}


def test_the_user_sees_and_accepts_an_invitation(invited: dict[str, Any]) -> None:
    client = invited["client"]
    page = client.get(reverse("web:account_invitations")).content.decode()
    assert "Inbjudningar" in page and "Vera Vald" in page and "Olle Arrangör" in page
    assert "Acceptera" in page and "Avböj" in page
    invitation = PlayerInvitation.objects.get(user=invited["user"])
    answered = client.post(
        reverse("web:account_invitation_accept", args=[invitation.pk]), follow=True
    )
    assert "Ditt konto är nu kopplat till Vera Vald." in answered.content.decode()
    assert Player.objects.get(pk=invited["player"].pk).user_id == invited["user"].pk


def test_the_user_declines_and_others_cannot_answer(invited: dict[str, Any]) -> None:
    invitation = PlayerInvitation.objects.get(user=invited["user"])
    stranger = Client()
    stranger.force_login(UserFactory.create())
    url = reverse("web:account_invitation_accept", args=[invitation.pk])
    assert stranger.post(url).status_code == 404
    assert "Vera Vald" not in stranger.get(reverse("web:account_invitations")).content.decode()
    declined = invited["client"].post(
        reverse("web:account_invitation_decline", args=[invitation.pk]), follow=True
    )
    assert "Du tackade nej till att vara Vera Vald." in declined.content.decode()
    invitation.refresh_from_db()
    assert invitation.state == InvitationState.DECLINED
    assert Player.objects.get(pk=invited["player"].pk).user_id is None


def test_the_page_needs_sign_in() -> None:
    response = Client().get(reverse("web:account_invitations"))
    assert response.status_code == 302 and "login" in response["Location"]
