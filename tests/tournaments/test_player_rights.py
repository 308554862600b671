"""Who may see and change a player: the service, the selector and the admin.

A player follows their tournaments (``permissions.players_visible_to``); only registry
staff, the organisers of a tournament the player is entered in, and (for the name
only) the linked user change them (``player_update``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.errors import PermissionDeniedError
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.entries import entry_player_add, entry_withdraw
from tournaments.models import Player
from tournaments.permissions import players_visible_to
from tournaments.players import player_update

pytestmark = pytest.mark.django_db


def registry_staff() -> Any:
    user = UserFactory.create(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_player"))
    return user


@pytest.fixture
def two_clubs() -> dict[str, Any]:
    """Two organisers, each with a private tournament and one player; a public one."""
    mine, theirs = OrganiserFactory.create(), OrganiserFactory.create()
    t_mine = TournamentFactory.create(organisers=[mine], is_public=False)
    t_theirs = TournamentFactory.create(organisers=[theirs], is_public=False)
    t_public = TournamentFactory.create(organisers=[theirs])
    account = UserFactory.create()
    linked = PlayerFactory.create(name="Anna Berg", user=account)
    hidden = PlayerFactory.create(name="Bo Ek")
    public = PlayerFactory.create(name="Cia Lind")
    EntryFactory.create(tournament=t_mine, player=linked)
    EntryFactory.create(tournament=t_theirs, player=hidden)
    EntryFactory.create(tournament=t_public, player=public)
    return {
        "mine": mine,
        "theirs": theirs,
        "t_mine": t_mine,
        "t_theirs": t_theirs,
        "account": account,
        "linked": linked,
        "hidden": hidden,
        "public": public,
        "unentered": PlayerFactory.create(name="Dan Ny"),
    }


class TestPlayerUpdate:
    def test_only_organisers_of_the_players_tournaments(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        for player in (w["hidden"], w["public"], w["unentered"]):
            with pytest.raises(PermissionDeniedError):
                player_update(player=player, rating=1, by=w["mine"])
        player_update(player=w["hidden"], name="Bo Eklund", rating=1400, by=w["theirs"])
        w["hidden"].refresh_from_db()
        assert (w["hidden"].name, w["hidden"].rating) == ("Bo Eklund", 1400)

    def test_withdrawn_entry_still_counts(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        entry = w["hidden"].entries.get()
        entry_withdraw(entry=entry, by=w["theirs"])
        player_update(player=w["hidden"], rating=1300, by=w["theirs"])
        w["hidden"].refresh_from_db()
        assert w["hidden"].rating == 1300
        # Withdrawn, the player is still one of their tournament's: not the other organiser's.
        with pytest.raises(PermissionDeniedError):
            player_update(player=w["hidden"], rating=1, by=w["mine"])

    def test_is_staff_alone_does_not_open_every_player(self, two_clubs: dict[str, Any]) -> None:
        """``is_staff`` only opens the admin site, which organisers have too."""
        w = two_clubs
        w["mine"].is_staff = True
        w["mine"].save()
        with pytest.raises(PermissionDeniedError):
            player_update(player=w["hidden"], rating=1, by=w["mine"])

    def test_a_linked_players_name_is_their_own(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        linked, club = w["linked"], ClubFactory.create()
        with pytest.raises(PermissionDeniedError, match="user account"):
            player_update(player=linked, name="Anna Stål", by=w["mine"])
        linked.refresh_from_db()
        assert linked.name == "Anna Berg"
        # The organiser keeps the club and the rating; the same name sent back is no change.
        player_update(player=linked, name="Anna Berg", club=club, rating=1, by=w["mine"])
        # The user: their name, not their club or rating.
        player_update(player=linked, name="Anna Stål", by=w["account"])
        with pytest.raises(PermissionDeniedError, match="organisers"):
            player_update(player=linked, rating=2900, by=w["account"])
        with pytest.raises(PermissionDeniedError):
            player_update(player=linked, club=None, by=w["account"])
        # Registry staff: anything.
        player_update(player=linked, name="A. Stål", club=None, by=registry_staff())
        linked.refresh_from_db()
        assert (linked.name, linked.club, linked.rating) == ("A. Stål", None, 1)

    def test_a_refusal_leaves_the_object_as_it_was(self, two_clubs: dict[str, Any]) -> None:
        linked = two_clubs["linked"]
        with pytest.raises(PermissionDeniedError):
            player_update(player=linked, name="Ny", rating=5, by=two_clubs["account"])
        assert (linked.name, linked.rating) == ("Anna Berg", None)


class TestVisibility:
    def _visible(self, user: Any) -> set[str]:
        return set(players_visible_to(user).values_list("name", flat=True))

    def test_players_follow_their_tournaments(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        public = {"Cia Lind", "Dan Ny"}  # a public tournament's; entered nowhere yet
        assert self._visible(None) == public
        assert self._visible(UserFactory.create()) == public
        assert self._visible(w["mine"]) == public | {"Anna Berg"}
        assert self._visible(w["theirs"]) == public | {"Bo Ek"}
        assert self._visible(w["account"]) == public | {"Anna Berg"}
        referee = UserFactory.create()
        w["t_theirs"].referees.add(referee)
        assert self._visible(referee) == public | {"Bo Ek"}
        assert self._visible(registry_staff()) == set(Player.objects.values_list("name", flat=True))

    def test_fixed_queries_whatever_the_size(self, two_clubs: dict[str, Any]) -> None:
        """The player list is one query (plus the user's permissions, looked up once
        per request and cached on the user), however many players and tournaments."""

        def count() -> tuple[int, int]:
            user = type(two_clubs["account"]).objects.get(pk=two_clubs["account"].pk)
            with CaptureQueriesContext(connection) as queries:
                names = list(players_visible_to(user).values_list("name", flat=True))
            assert len(names) == len(set(names))  # no row twice
            return len(queries), len(names)

        small, shown = count()
        for public in (False, True) * 3:
            t = TournamentFactory.create(is_public=public)
            for _ in range(4):
                EntryFactory.create(tournament=t)
            EntryFactory.create(tournament=t, player=two_clubs["linked"])
        large, more = count()
        # All 24 new players: the public ones', and the private ones' too, as the user
        # plays (through their linked player) in every new tournament.
        assert small == large and more == shown + 24

    def test_entering_by_name_does_not_match_a_hidden_player(
        self, two_clubs: dict[str, Any]
    ) -> None:
        """A player known only from others' private tournaments is not found (and
        revealed, and made editable) by entering their name: a new one is created."""
        w = two_clubs
        draft = TournamentFactory.create(organisers=[w["mine"]])
        entry, created = entry_player_add(tournament=draft, name="bo ek", rating=1000, by=w["mine"])
        assert created and entry.player != w["hidden"]
        w["hidden"].refresh_from_db()
        assert w["hidden"].rating is None
        # A visible one is entered again; the rating given is not taken, as she plays in
        # another organiser's tournament too (``player_update``: the register's).
        entry, created = entry_player_add(
            tournament=draft, name="cia lind", rating=1200, by=w["mine"]
        )
        assert not created and entry.player == w["public"]
        w["public"].refresh_from_db()
        assert w["public"].rating is None


class TestAdmin:
    def _client(self, user: Any) -> Client:
        user.is_staff = True
        user.save()
        client = Client()
        client.force_login(user)
        return client

    def test_organiser_sees_and_changes_only_their_players(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        client = self._client(w["mine"])
        listing = client.get("/admin/tournaments/player/").content.decode()
        assert "Anna Berg" in listing and "Cia Lind" in listing
        assert "Bo Ek" not in listing  # only in another organiser's private tournament
        hidden = client.get(f"/admin/tournaments/player/{w['hidden'].pk}/change/")
        assert hidden.status_code == 302  # the admin's answer to what you may not see
        public_url = f"/admin/tournaments/player/{w['public'].pk}/change/"
        response = client.post(public_url, {"name": "Hacked", "club": "", "rating": "1"})
        assert response.status_code == 403
        w["public"].refresh_from_db()
        assert w["public"].name == "Cia Lind"

    def test_organiser_may_not_rename_or_relink_a_linked_player(
        self, two_clubs: dict[str, Any]
    ) -> None:
        w = two_clubs
        client = self._client(w["mine"])
        url = f"/admin/tournaments/player/{w['linked'].pk}/change/"
        page = client.get(url).content.decode()
        assert 'name="name"' not in page and 'name="user"' not in page  # read-only
        response = client.post(
            url, {"name": "Hacked", "club": "", "rating": "1750", "user": w["mine"].pk}
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        w["linked"].refresh_from_db()
        assert (w["linked"].name, w["linked"].rating) == ("Anna Berg", 1750)
        assert w["linked"].user == w["account"]

    def test_entries_inline_refuses_a_hidden_player(self, two_clubs: dict[str, Any]) -> None:
        w = two_clubs
        client = self._client(w["mine"])
        autocomplete = client.get(
            "/admin/autocomplete/",
            {
                "term": "",
                "app_label": "tournaments",
                "model_name": "entry",
                "field_name": "player",
            },
        ).json()
        names = {r["text"] for r in autocomplete["results"]}
        assert "Bo Ek" not in names and "Cia Lind" in names
