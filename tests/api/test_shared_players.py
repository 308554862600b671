"""A player entered in tournaments of more than one organiser is the register's: an
organiser who enters a public player in a draft of their own may not rename or re-rate
them (403, ``player_shared``, in the request's language); registry staff may, the linked
user may change their own name, and an organiser keeps changing a player who is only
theirs (``tournaments.players.player_update``)."""

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
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def taken() -> dict[str, Any]:
    """Cia plays in Y's public tournament; X entered her in a draft of X's own. Dan plays
    only in X's draft."""
    x, y = OrganiserFactory.create(), OrganiserFactory.create()
    public = TournamentFactory.create(organisers=[y], name="Ys öppna")
    draft = TournamentFactory.create(organisers=[x], name="Xs utkast", is_public=False)
    cia = PlayerFactory.create(name="Cia Lind", rating=1500)
    dan = PlayerFactory.create(name="Dan Berg", rating=1400)
    EntryFactory.create(tournament=public, player=cia)
    EntryFactory.create(tournament=draft, player=cia)
    EntryFactory.create(tournament=draft, player=dan)
    return {"x": x, "y": y, "cia": cia, "dan": dan}


@pytest.mark.parametrize(
    "body", [{"name": "Övertagen"}, {"rating": 2400}, {"name": "Ny", "rating": 1}]
)
@pytest.mark.parametrize("who", ["x", "y"])
def test_an_organiser_may_not_take_over_a_shared_player(
    taken: dict[str, Any], who: str, body: dict[str, Any]
) -> None:
    cia = taken["cia"]
    response = client_for(taken[who]).patch(f"/api/players/{cia.pk}/", body, format="json")
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "player_shared"
    assert "other organisers' tournaments" in error["message"]
    assert Player.objects.get(pk=cia.pk).name == "Cia Lind"
    assert Player.objects.get(pk=cia.pk).rating == 1500


def test_the_refusal_is_in_swedish_too(taken: dict[str, Any]) -> None:
    cia = taken["cia"]
    response = client_for(taken["x"]).patch(
        f"/api/players/{cia.pk}/", {"rating": 2400}, format="json", HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert response.status_code == 403
    assert "andra arrangörers turneringar" in response.json()["error"]["message"]


def test_sending_the_player_back_unchanged_is_no_change(taken: dict[str, Any]) -> None:
    cia = taken["cia"]
    response = client_for(taken["x"]).patch(
        f"/api/players/{cia.pk}/", {"name": "Cia Lind", "rating": 1500}, format="json"
    )
    assert response.status_code == 200, response.content


def test_an_organiser_changes_a_player_who_is_only_theirs(taken: dict[str, Any]) -> None:
    dan = taken["dan"]
    response = client_for(taken["x"]).patch(
        f"/api/players/{dan.pk}/", {"name": "Dan Bergström", "rating": 1450}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Dan Bergström" and response.json()["rating"] == 1450


def test_registry_staff_and_the_linked_user_still_may(taken: dict[str, Any]) -> None:
    cia = taken["cia"]
    staff = UserFactory.create()
    staff.user_permissions.add(Permission.objects.get(codename="change_player"))
    response = client_for(staff).patch(f"/api/players/{cia.pk}/", {"rating": 1600}, format="json")
    assert response.status_code == 200 and response.json()["rating"] == 1600
    cia.user = UserFactory.create()
    cia.save()
    own = client_for(cia.user).patch(f"/api/players/{cia.pk}/", {"name": "Cia Ek"}, format="json")
    assert own.status_code == 200 and own.json()["name"] == "Cia Ek"


def test_entering_a_shared_player_by_name_keeps_their_rating(taken: dict[str, Any]) -> None:
    """Adding a known player with a rating (the organiser page's form and CSV import)
    enters them but does not re-rate a player of other organisers' tournaments."""
    from tournaments.entries import entry_player_add

    other = TournamentFactory.create(organisers=[taken["x"]], name="Xs andra")
    entry, created = entry_player_add(tournament=other, name="Cia Lind", rating=2400, by=taken["x"])
    assert not created and entry.player_id == taken["cia"].pk
    assert Player.objects.get(pk=taken["cia"].pk).rating == 1500
