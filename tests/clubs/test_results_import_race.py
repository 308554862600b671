"""The same season file imported twice at the same moment (PostgreSQL, real threads):
one import is written (201), the other answers 409 and writes nothing. SQLite serialises
every write, so there is no race to show there."""

from __future__ import annotations

import datetime
import threading
import time
from typing import Any

import pytest
from django.db import connection, connections

from clubs import results_import
from clubs.models import ImportedEvent, ImportedMatch
from clubs.season_services import season_create
from tests.api.conftest import client_for
from tests.clubs.test_results_import import GOOD, keeper
from tests.factories import ClubFactory, UserFactory

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (set DATABASE_URL=postgres://…): SQLite has no concurrent writers",
    ),
    pytest.mark.urls("tests.api.urls"),
]


@pytest.mark.django_db(transaction=True)
def test_one_file_imported_twice_at_once_is_written_once(monkeypatch: pytest.MonkeyPatch) -> None:
    season = season_create(
        club=ClubFactory.create(name="Brädgillet"),
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
        by=UserFactory.create(is_superuser=True),
        tournament_taking_part=1,
        tournament_match_won=2,
        tournament_placings={"1": 5, "2": 3},
        club_night_taking_part=1,
        club_night_match_won=1,
    )
    real = results_import._players

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)  # widen the window between the check and the writes
        return real(*args, **kwargs)

    monkeypatch.setattr(results_import, "_players", slow)
    user = keeper()
    statuses: list[Any] = [None, None]
    barrier = threading.Barrier(2)

    def send(index: int) -> None:
        try:
            client = client_for(user)
            barrier.wait()
            r = client.post(f"/api/seasons/{season.pk}/imports/", {"csv": GOOD}, format="json")
            code = r.json()["error"]["code"] if r.status_code >= 400 else ""
            statuses[index] = (r.status_code, code)
        except Exception as err:  # collected and checked below
            statuses[index] = err
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(statuses, key=str) == [(201, ""), (409, "imported_meanwhile")], statuses
    assert ImportedEvent.objects.filter(season=season).count() == 2
    assert ImportedMatch.objects.filter(event__season=season).count() == 3
