"""One player per name per club, held by the database (``player_name_once_per_club`` on
the name's key: any case, Unicode form and spacing), and every way of adding or changing
a player in a club answers a taken name with a clear refusal (409 ``player_name_taken``,
a form error), never a 500. Players of no club may share a name."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from core.errors import ConflictError, ValidationError
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments import players
from tournaments.entries import entries_csv_import, entry_player_add
from tournaments.models import Entry, Player
from tournaments.players import player_create, player_update

pytestmark = pytest.mark.django_db

DECOMPOSED = unicodedata.normalize("NFD", "Åsa Öberg")  # as some Mac programs save it


@pytest.mark.parametrize("again", ["Åsa Öberg", " åsa  ÖBERG ", DECOMPOSED])
def test_the_database_refuses_a_second_player_of_one_name_in_a_club(again: str) -> None:
    club = ClubFactory.create()
    Player.objects.create(name="Åsa Öberg", club=club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name=again, club=club)
    assert Player.objects.filter(club=club).count() == 1


def test_one_name_in_two_clubs_or_in_no_club_is_two_players() -> None:
    Player.objects.create(name="Erik Johansson", club=ClubFactory.create())
    Player.objects.create(name="Erik Johansson", club=ClubFactory.create())
    Player.objects.create(name="Erik Johansson")
    Player.objects.create(name="erik johansson")
    assert Player.objects.filter(name__iexact="Erik Johansson").count() == 4


def test_a_rename_keeps_the_key_in_step() -> None:
    club = ClubFactory.create()
    player = Player.objects.create(name="Per Ek", club=club)
    player.name = "Per  EKLUND"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert player.name_key == "per eklund"
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="per eklund", club=club)


def test_player_create_refuses_a_taken_name_of_the_club() -> None:
    organiser = OrganiserFactory.create()
    TournamentFactory.create(organisers=[organiser])
    club = ClubFactory.create(name="Brädgillet")
    PlayerFactory.create(name="Åsa Öberg", club=club)
    with pytest.raises(ConflictError) as err:
        player_create(name=" ÅSA ÖBERG", club=club, by=organiser)
    assert err.value.code == "player_name_taken"
    assert "Brädgillet" in err.value.message and "ÅSA ÖBERG" in err.value.message
    assert Player.objects.filter(club=club).count() == 1
    # of no club, the name is free
    assert player_create(name="Åsa Öberg", by=organiser).club is None


def test_player_create_meeting_the_constraint_in_a_race_is_a_conflict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name added by another request between the check and the insert: the
    constraint decides, and the answer is the same refusal (in a savepoint: the
    caller's transaction goes on)."""
    organiser = OrganiserFactory.create()
    TournamentFactory.create(organisers=[organiser])
    club = ClubFactory.create()
    real = players.player_name_holder
    calls = []

    def late(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) == 1:  # the check finds nobody; then the other request's row lands
            Player.objects.create(name="Åsa Öberg", club=club)
            return None
        return real(**kwargs)

    monkeypatch.setattr(players, "player_name_holder", late)
    with transaction.atomic():
        with pytest.raises(ConflictError) as err:
            player_create(name="Åsa Öberg", club=club, by=organiser)
        # The transaction still answers (in this simulation the other request's row was
        # written inside the refused call, so it went with that call's savepoint).
        assert not Player.objects.filter(club=club).exists()
    assert err.value.code == "player_name_taken"


def test_player_update_refuses_a_rename_or_a_move_onto_a_taken_name() -> None:
    staff = UserFactory.create(is_superuser=True)
    club, other = ClubFactory.create(), ClubFactory.create()
    PlayerFactory.create(name="Åsa Öberg", club=club)
    per = PlayerFactory.create(name="Per Ek", club=club)
    with pytest.raises(ConflictError) as err:
        player_update(player=per, name="åsa öberg", by=staff)
    assert err.value.code == "player_name_taken"
    assert (per.name, per.club) == ("Per Ek", club)  # a refusal leaves it as it was
    asa_elsewhere = PlayerFactory.create(name="ÅSA ÖBERG", club=other)
    with pytest.raises(ConflictError):
        player_update(player=asa_elsewhere, club=club, by=staff)
    asa_elsewhere.refresh_from_db()
    assert asa_elsewhere.club == other
    # one's own name in another case is no clash
    assert player_update(player=per, name="PER EK", by=staff).name == "PER EK"


def test_the_api_answers_409_for_a_taken_name() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    club = ClubFactory.create()
    PlayerFactory.create(name="Åsa Öberg", club=club)
    api = client_for(organiser)
    r = api.post("/api/players/", {"name": "åsa öberg", "club": club.pk}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "player_name_taken"
    per = PlayerFactory.create(name="Per Ek", club=club)
    EntryFactory.create(tournament=tournament, player=per)
    r = api.patch(f"/api/players/{per.pk}/", {"name": "Åsa Öberg"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "player_name_taken"
    assert Player.objects.filter(club=club).count() == 2


def _hidden_asa(club: Any) -> Player:
    """Åsa of ``club``, entered only in another organiser's private tournament."""
    asa = PlayerFactory.create(name="Åsa Öberg", club=club)
    private = TournamentFactory.create(organisers=[OrganiserFactory.create()], is_public=False)
    EntryFactory.create(tournament=private, player=asa)
    return asa


def test_entering_by_name_finds_the_player_by_the_names_key() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], status="draft")
    club = ClubFactory.create()
    asa = PlayerFactory.create(name="Åsa Öberg", club=club)
    entry, created = entry_player_add(
        tournament=tournament, name=DECOMPOSED.upper() + " ", club=club, by=organiser
    )
    assert (entry.player, created) == (asa, False)


def test_entering_a_taken_name_the_organiser_cannot_see_is_refused() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], status="draft")
    club = ClubFactory.create()
    _hidden_asa(club)
    with pytest.raises(ConflictError) as err:
        entry_player_add(tournament=tournament, name="Åsa Öberg", club=club, by=organiser)
    assert err.value.code == "player_name_taken"
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_an_entries_file_naming_a_taken_name_lists_the_row() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], status="draft")
    club = ClubFactory.create(name="Brädgillet")
    _hidden_asa(club)
    data = "name;club\nPer Ek;Brädgillet\nÅsa Öberg;Brädgillet\n".encode()
    with pytest.raises(ValidationError) as err:
        entries_csv_import(tournament=tournament, data=data, by=organiser)
    problems = err.value.extra["problems"]
    assert [(p["row"], p["code"]) for p in problems] == [(3, "player_name_taken")]
    assert Player.objects.filter(club=club).count() == 1  # nothing kept


def test_the_entries_page_shows_a_taken_name_as_a_form_error() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], status="draft")
    club = ClubFactory.create(name="Brädgillet")
    _hidden_asa(club)
    client = Client()
    client.force_login(organiser)
    page = client.post(
        reverse("web:tournament_player_add", args=[tournament.pk]),
        {"name": "Åsa Öberg", "club": club.pk},
    )
    assert page.status_code == 200
    assert "Brädgillet har redan en spelare som heter ”Åsa Öberg”" in page.content.decode()
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_the_admin_shows_a_taken_name_as_a_form_error() -> None:
    staff = UserFactory.create(is_superuser=True, is_staff=True)
    club = ClubFactory.create(name="Brädgillet")
    PlayerFactory.create(name="Åsa Öberg", club=club)
    per = PlayerFactory.create(name="Per Ek", club=club)
    client = Client()
    client.force_login(staff)
    add = client.post(
        "/admin/tournaments/player/add/", {"name": "ÅSA ÖBERG", "club": club.pk, "rating": ""}
    )
    assert add.status_code == 200
    assert "Brädgillet har redan en spelare som heter ”ÅSA ÖBERG”" in add.content.decode()
    change = client.post(
        f"/admin/tournaments/player/{per.pk}/change/",
        {"name": "åsa öberg", "club": club.pk, "rating": ""},
    )
    assert change.status_code == 200
    assert Player.objects.filter(club=club).count() == 2
    per.refresh_from_db()
    assert per.name == "Per Ek"
