"""Two referees enter the same game at the same moment (PostgreSQL, real threads).

Runs when ``DATABASE_URL`` points at PostgreSQL (CI's PostgreSQL + Redis pass);
SQLite serialises every write, so there is no race to show there. One referee
succeeds; the other gets a ``ConflictError`` carrying the current state: never two
results, never a server error. The second test removes the row lock to show the
partial unique constraints alone still stop a second result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from matches import services
from matches.errors import ConflictError
from matches.models import Game, GameResult, Match
from matches.services import game_result_enter
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (set DATABASE_URL=postgres://…): SQLite has no concurrent writers",
    ),
]


def _race(match: Match, users: list[Any]) -> list[Any]:
    barrier = threading.Barrier(len(users))
    results: list[Any] = [None] * len(users)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = game_result_enter(
                match=Match.objects.select_related("tournament").get(pk=match.pk),
                number=1,
                winner="W" if index == 0 else "B",
                outcome="hemspel",
                starter="W",
                by=users[index],
            )
        except Exception as err:  # collected and checked below
            results[index] = err
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(users))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _slow(func: Callable[..., Any]) -> Callable[..., Any]:
    """Widen the window between reading the games and writing the new one."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return func(*args, **kwargs)

    return wrapper


def _check(match: Match, results: list[Any]) -> None:
    games = [r for r in results if isinstance(r, Game)]
    conflicts = [r for r in results if isinstance(r, ConflictError)]
    assert len(games) == 1 and len(conflicts) == 1, results
    assert conflicts[0].extra["match"]["games"] or conflicts[0].code == "game_exists"
    assert Game.objects.filter(match=match).count() == 1
    assert GameResult.objects.filter(game__match=match, confirmed=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_referees_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    s = drawn(2, lengths=[3])
    second = UserFactory.create()
    s.tournament.referees.add(second)
    match = match_of(s.tournament, 1, 0)
    monkeypatch.setattr(services, "_score", _slow(services._score))
    _check(match, _race(match, [s.referee, second]))


@pytest.mark.django_db(transaction=True)
def test_constraint_alone_stops_a_second_result(monkeypatch: pytest.MonkeyPatch) -> None:
    s = drawn(2, lengths=[3])
    second = UserFactory.create()
    s.tournament.referees.add(second)
    match = match_of(s.tournament, 1, 0)
    monkeypatch.setattr(services, "_lock", lambda m: Match.objects.get(pk=m.pk))
    monkeypatch.setattr(services, "_score", _slow(services._score))
    _check(match, _race(match, [s.referee, second]))
