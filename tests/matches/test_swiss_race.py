"""Two organisers press "pair next round" of a Swiss at the same moment (PostgreSQL, real
threads): one round is paired, the other press gets a ``ConflictError``.
SQLite serialises every write, so there is no race to show there."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, connections

import formats.swiss
import stages.swiss
from core.errors import ConflictError
from matches import swiss_progression
from matches.models import Match
from tests.factories import UserFactory
from tests.tournaments.test_swiss import swiss

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (set DATABASE_URL=postgres://…): SQLite has no concurrent writers",
    ),
]


@pytest.mark.django_db(transaction=True)
def test_two_organisers_pairing_at_once_make_one_round(monkeypatch: pytest.MonkeyPatch) -> None:
    t, organiser, _ = swiss(8)
    second = UserFactory.create()
    t.organisers.add(second)
    real = stages.swiss.pair_round

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)  # widen the window between the check and the writes
        return real(*args, **kwargs)

    monkeypatch.setattr(formats.swiss, "pair_round", slow)  # what the Swiss format calls
    outcomes: list[Any] = [None, None]
    barrier = threading.Barrier(2)

    def press(index: int, user: Any) -> None:
        try:
            barrier.wait()
            outcomes[index] = swiss_progression.swiss_round_pair(tournament=t, by=user)
        except Exception as err:  # collected and checked below
            outcomes[index] = err
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=press, args=(i, u)) for i, u in enumerate((organiser, second))
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    conflicts = [o for o in outcomes if isinstance(o, ConflictError)]
    assert len(conflicts) == 1, outcomes
    assert Match.objects.filter(tournament=t).values("round_id").distinct().count() == 1
    assert Match.objects.filter(tournament=t).count() == 4
