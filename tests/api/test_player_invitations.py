"""Linking a player to an account needs that account's consent or registry staff
(``tournaments.invitations``): an organiser's ``user`` invites, the answers never tell a
free, a linked and a missing account apart, and only the invited user accepts or
declines."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

from tests.api.conftest import client_for
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import InvitationState, Player, PlayerInvitation

pytestmark = pytest.mark.django_db


@pytest.fixture
def accounts() -> dict[str, Any]:
    free = UserFactory.create()
    linked = UserFactory.create()
    PlayerFactory.create(name="Redan Kopplad", user=linked)
    return {"free": free.pk, "linked": linked.pk, "missing": linked.pk + 1000}


def organiser() -> Any:
    """An organiser of a tournament (so they may create players)."""
    user = OrganiserFactory.create()
    TournamentFactory.create(organisers=[user])
    return user


def _without_ids(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in ("id", "name")}


def test_an_organiser_s_user_invites_and_the_answers_are_alike(
    accounts: dict[str, Any],
) -> None:
    api = client_for(organiser())
    answers = {}
    for state, user_id in accounts.items():
        response = api.post(
            "/api/players/", {"name": f"Ny {state}", "user": user_id}, format="json"
        )
        assert response.status_code == 201, (state, response.content)
        answers[state] = response
    bodies = [_without_ids(r.json()) for r in answers.values()]
    assert all(b == bodies[0] for b in bodies), bodies
    headers = {
        tuple(sorted((k, v) for k, v in r.headers.items() if k != "Content-Length"))
        for r in answers.values()
    }
    assert len(headers) == 1
    # Nothing is linked; only the free account is invited.
    for state in accounts:
        assert Player.objects.get(name=f"Ny {state}").user_id is None
    assert list(PlayerInvitation.objects.values_list("user_id", "player__name", "state")) == [
        (accounts["free"], "Ny free", InvitationState.PENDING)
    ]


def test_the_invited_user_accepts_and_is_linked(accounts: dict[str, Any]) -> None:
    organiser_ = organiser()
    created = client_for(organiser_).post(
        "/api/players/", {"name": "Vera Vald", "user": accounts["free"]}, format="json"
    )
    player_id = created.json()["id"]
    invited = client_for(type(organiser_).objects.get(pk=accounts["free"]))
    other = client_for(UserFactory.create())

    assert client_for(None).get("/api/invitations/").status_code in (401, 403)
    assert other.get("/api/invitations/").json() == []
    listed = invited.get("/api/invitations/").json()
    assert [(i["player"]["id"], i["state"]) for i in listed] == [(player_id, "pending")]
    invitation = listed[0]["id"]

    assert other.post(f"/api/invitations/{invitation}/accept/").status_code == 404
    accepted = invited.post(f"/api/invitations/{invitation}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert Player.objects.get(pk=player_id).user_id == accounts["free"]
    again = invited.post(f"/api/invitations/{invitation}/accept/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "invitation_closed"
    assert invited.get("/api/invitations/").json() == []


def test_the_invited_user_declines_and_nothing_is_linked(accounts: dict[str, Any]) -> None:
    organiser_ = organiser()
    created = client_for(organiser_).post(
        "/api/players/", {"name": "Nej Tack", "user": accounts["free"]}, format="json"
    )
    invited = client_for(type(organiser_).objects.get(pk=accounts["free"]))
    (invitation,) = invited.get("/api/invitations/").json()
    declined = invited.post(f"/api/invitations/{invitation['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["state"] == "declined"
    assert Player.objects.get(pk=created.json()["id"]).user_id is None


def test_registry_staff_link_at_once(accounts: dict[str, Any]) -> None:
    staff = UserFactory.create(is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_player"))
    api = client_for(staff)
    made = api.post("/api/players/", {"name": "Direkt", "user": accounts["free"]}, format="json")
    assert made.status_code == 201
    assert Player.objects.get(pk=made.json()["id"]).user_id == accounts["free"]
    taken = api.post("/api/players/", {"name": "Dubbel", "user": accounts["linked"]}, format="json")
    assert taken.status_code == 409
    assert not Player.objects.filter(name="Dubbel").exists()


def test_inviting_for_an_existing_player(accounts: dict[str, Any]) -> None:
    owner, other = OrganiserFactory.create(), OrganiserFactory.create()
    mine = TournamentFactory.create(organisers=[owner])
    theirs = TournamentFactory.create(organisers=[other])
    player = PlayerFactory.create(name="Egen Spelare")
    shared = PlayerFactory.create(name="Delad Spelare")
    EntryFactory.create(tournament=mine, player=player)
    EntryFactory.create(tournament=mine, player=shared)
    EntryFactory.create(tournament=theirs, player=shared)
    api = client_for(owner)
    answers = [
        api.post(f"/api/players/{player.pk}/invitations/", {"user": user_id}, format="json")
        for user_id in accounts.values()
    ]
    assert {r.status_code for r in answers} == {202}
    assert len({r.content for r in answers}) == 1
    assert PlayerInvitation.objects.filter(player=player).count() == 1
    refused = api.post(
        f"/api/players/{shared.pk}/invitations/", {"user": accounts["free"]}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_player"


def test_an_account_linked_meanwhile_cannot_accept(accounts: dict[str, Any]) -> None:
    organiser_ = organiser()
    api = client_for(organiser_)
    first = api.post("/api/players/", {"name": "Ett", "user": accounts["free"]}, format="json")
    api.post("/api/players/", {"name": "Två", "user": accounts["free"]}, format="json")
    invited = client_for(type(organiser_).objects.get(pk=accounts["free"]))
    listed = {i["player"]["name"]: i["id"] for i in invited.get("/api/invitations/").json()}
    assert invited.post(f"/api/invitations/{listed['Ett']}/accept/").status_code == 200
    # Accepting one closes the account's other open invitations.
    closed = invited.post(f"/api/invitations/{listed['Två']}/accept/")
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "invitation_closed"
    assert Player.objects.get(pk=first.json()["id"]).user_id == accounts["free"]
