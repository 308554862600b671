"""A season's results import and the players it names: one player per name per club, so
an import that looked a name up as new while another import added that player uses the
other import's player (the loser of the race, simulated here one step at a time; the
real threads are in ``test_results_import_player_race``)."""

from __future__ import annotations

import datetime
import unicodedata
from typing import Any

import pytest

from clubs import results_import
from clubs.models import ImportedMatch
from clubs.results_import import season_results_import
from clubs.season_services import season_create
from tests.clubs.test_results_import import keeper
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import players
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Any:
    return season_create(
        club=ClubFactory.create(name="Brädgillet"),
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
        by=UserFactory.create(is_superuser=True),
    )


NILS = "date;event;player1;player2;winner\n2025-05-01;Majkvällen;Nils Ny;Per Ek;1\n"


def test_a_player_added_after_the_lookup_is_used_not_added_again(
    season: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race as it happens: the import finds no Nils, another import adds him (and
    commits) before this one writes. This one takes that Nils."""
    real = results_import._players
    winner: list[Player] = []

    def then_another_import_adds_him(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        winner.append(Player.objects.create(name="Nils Ny", club=season.club))
        return found

    monkeypatch.setattr(results_import, "_players", then_another_import_adds_him)
    summary = season_results_import(season=season, data=NILS.encode(), by=keeper())
    assert summary.players_created == 1  # Per Ek; Nils was the other import's
    assert list(Player.objects.filter(name="Nils Ny")) == winner
    assert ImportedMatch.objects.get().player1 == winner[0]


def test_the_insert_that_meets_the_winners_row_takes_it(
    season: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race at its narrowest: the other import's Nils lands between this import's
    last check and its insert. The constraint refuses the insert, its savepoint rolls
    back, and the winner's row is read; the import goes on and succeeds."""
    real = players.player_name_holder
    winner: list[Player] = []

    def too_late(**kwargs: Any) -> Any:
        if kwargs["name"] == "Nils Ny" and not winner:
            winner.append(Player.objects.create(name="Nils Ny", club=kwargs["club"]))
            return None  # the check ran just before the other import's row landed
        return real(**kwargs)

    monkeypatch.setattr(players, "player_name_holder", too_late)
    summary = season_results_import(season=season, data=NILS.encode(), by=keeper())
    assert summary.players_created == 1
    assert list(Player.objects.filter(name="Nils Ny")) == winner
    assert ImportedMatch.objects.get().player1 == winner[0]


def test_a_name_in_another_case_form_or_spacing_is_the_clubs_player(season: Any) -> None:
    asa = PlayerFactory.create(name="Åsa Öberg", club=season.club)
    decomposed = unicodedata.normalize("NFD", "ÅSA  öberg")
    data = f"date;event;player1;player2;winner\n2025-05-01;Maj;{decomposed};Per Ek;{decomposed}\n"
    summary = season_results_import(season=season, data=data.encode(), by=keeper())
    assert summary.players_created == 1  # Per Ek only
    match = ImportedMatch.objects.get()
    assert match.player1 == asa == match.winner
    assert Player.objects.filter(club=season.club).count() == 2


def test_a_new_name_of_the_club_is_added_once_per_file(season: Any) -> None:
    data = (
        "date;event;player1;player2;winner\n"
        "2025-05-01;Maj;Nils Ny;Per Ek;1\n"
        "2025-05-01;Maj;nils  NY;Li Wu;2\n"
    )
    summary = season_results_import(season=season, data=data.encode(), by=keeper())
    assert summary.players_created == 3
    nils = Player.objects.get(club=season.club, name="Nils Ny")
    assert {m.player1 for m in ImportedMatch.objects.all()} == {nils}
