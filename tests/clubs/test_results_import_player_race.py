"""Imports at the same moment, each a different event naming the same new player, through
the API on real threads: every import succeeds and the club has that player once, each
import's match his.

The imports go to two seasons of one club. Every import has looked the name up (and
found nobody) before any writes: a barrier holds them after the lookup. Then:

- on PostgreSQL the writes run at once: the two seasons' imports insert the same name
  together, the constraint makes one wait for the other and refuses it, and it takes the
  winner's player (imports of one season take turns on the season's row);
- on SQLite, the test database is in memory and shared between the threads, where a
  second writer fails at once ("table is locked") instead of waiting as it does on a
  database file; so the writes take turns (a lock here, as SQLite's own file lock would
  make them). The lookups are still all stale, so each writer but the first finds the
  name new when looked up and added when writing.
"""

from __future__ import annotations

import datetime
import threading
from typing import Any

import pytest
from django.db import connection, connections

from clubs import results_import
from clubs.models import ImportedMatch
from clubs.season_services import season_create
from tests.api.conftest import client_for
from tests.clubs.test_results_import import keeper
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Player

pytestmark = pytest.mark.urls("tests.api.urls")

IMPORTS = 20


@pytest.mark.django_db(transaction=True)
def test_imports_at_once_naming_one_new_player_add_him_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = ClubFactory.create(name="Brädgillet")
    superuser = UserFactory.create(is_superuser=True)
    seasons = [
        season_create(
            club=club,
            name=str(year),
            start_date=datetime.date(year, 1, 1),
            end_date=datetime.date(year, 12, 31),
            by=superuser,
        )
        for year in (2024, 2025)
    ]
    clients = [client_for(keeper()) for _ in range(IMPORTS)]  # tokens made before
    barrier = threading.Barrier(IMPORTS)
    real_players = results_import._players

    def looked_up_by_all(*args: Any, **kwargs: Any) -> Any:
        found = real_players(*args, **kwargs)
        barrier.wait(timeout=60)  # no import writes before every import has looked
        return found

    monkeypatch.setattr(results_import, "_players", looked_up_by_all)
    if connection.vendor == "sqlite":
        real_write = results_import._write
        turns = threading.Lock()

        def in_turn(*args: Any, **kwargs: Any) -> Any:
            with turns:
                return real_write(*args, **kwargs)

        monkeypatch.setattr(results_import, "_write", in_turn)

    answers: list[Any] = [None] * IMPORTS

    def send(index: int) -> None:
        season = seasons[index % 2]
        year = season.start_date.year
        data = (
            "date;event;player1;player2;winner\n"
            f"{year}-05-{index + 1:02d};Kväll {index + 1};Nils Ny;Gäst {index + 1};1\n"
        )
        try:
            r = clients[index].post(
                f"/api/seasons/{season.pk}/imports/", {"csv": data}, format="json"
            )
            answers[index] = (r.status_code, r.json())
        except Exception as err:  # collected and checked below
            answers[index] = err
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(IMPORTS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()

    assert [a[0] if isinstance(a, tuple) else a for a in answers] == [201] * IMPORTS, answers
    assert sum(a[1]["players_created"] for a in answers) == IMPORTS + 1  # the guests, Nils
    nils = Player.objects.filter(name="Nils Ny")
    assert nils.count() == 1, list(nils.values("pk", "club"))
    assert nils.get().club == club
    matches = ImportedMatch.objects.all()
    assert matches.count() == IMPORTS
    assert {m.player1_id for m in matches} == {nils.get().pk}
