"""Two referees enter or correct the same game at the same moment (PostgreSQL, real threads).

Runs when ``DATABASE_URL`` points at PostgreSQL (CI's PostgreSQL + Redis pass);
SQLite serialises every write, so there is no race to show there. One referee
succeeds; the other gets a ``ConflictError`` carrying the current state: never two
results, never a server error. The second test removes the row lock to show the
partial unique constraints alone still stop a second result. The third has 20 pairs
of referees correct the same game at once, both naming the same version: per pair one
correction wins and the other gets a ``stale_version`` conflict with the winner's result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from core.errors import ConflictError
from matches import results as match_results
from matches.models import Game, GameResult, Match
from matches.services import game_result_correct, game_result_enter
from tests.factories import UserFactory
from tests.results import won
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
                result=won("W" if index == 0 else "B", "hemspel"),
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
    # Either way (the row lock, or the constraint alone) the loser hears which game exists.
    assert conflicts[0].code == "game_exists" and conflicts[0].extra["match"]["games"]
    assert Game.objects.filter(match=match).count() == 1
    assert GameResult.objects.filter(game__match=match, confirmed=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_referees_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    s = drawn(2, lengths=[3])
    second = UserFactory.create()
    s.tournament.referees.add(second)
    match = match_of(s.tournament, 1, 0)
    monkeypatch.setattr(match_results, "match_standing", _slow(match_results.match_standing))
    _check(match, _race(match, [s.referee, second]))


@pytest.mark.django_db(transaction=True)
def test_constraint_alone_stops_a_second_result(monkeypatch: pytest.MonkeyPatch) -> None:
    s = drawn(2, lengths=[3])
    second = UserFactory.create()
    s.tournament.referees.add(second)
    match = match_of(s.tournament, 1, 0)
    monkeypatch.setattr(match_results, "lock_match", lambda m: Match.objects.get(pk=m.pk))
    monkeypatch.setattr(match_results, "match_standing", _slow(match_results.match_standing))
    _check(match, _race(match, [s.referee, second]))


# --- corrections: no lost update -------------------------------------

PAIRS = 20


def _correct_race(match: Match, users: list[Any]) -> list[Any]:
    """Both referees correct game 1 of ``match`` at once, both naming version 1."""
    barrier = threading.Barrier(len(users))
    results: list[Any] = [None] * len(users)
    game = Game.objects.get(match=match, number=1)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = game_result_correct(
                game=Game.objects.select_related("match__tournament").get(pk=game.pk),
                result=won("B", "jan" if index == 0 else "hemspel"),
                expected_version=1,
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


@pytest.mark.django_db(transaction=True)
def test_twenty_pairs_of_referees_correct_the_same_version(monkeypatch: pytest.MonkeyPatch) -> None:
    s = drawn(64, lengths=[3] * 6)  # 32 first-round matches, no byes; 20 are raced
    second = UserFactory.create()
    s.tournament.referees.add(second)
    matches = [match_of(s.tournament, 1, slot) for slot in range(PAIRS)]
    for match in matches:
        game_result_enter(match=match, number=1, result=won("W", "jan"), starter="W", by=s.referee)
    # Widen the window between the version check and the commit.
    monkeypatch.setattr(match_results, "match_standing", _slow(match_results.match_standing))
    for match in matches:
        results = _correct_race(match, [s.referee, second])
        saved = [r for r in results if isinstance(r, Game)]
        lost = [r for r in results if isinstance(r, ConflictError)]
        assert len(saved) == 1 and len(lost) == 1, results
        assert lost[0].code == "stale_version"
        # The loser is shown the winner's result, as it now stands.
        assert lost[0].extra["game"]["version"] == 2
        assert lost[0].extra["game"]["outcome"] == saved[0].outcome
        versions = GameResult.objects.filter(game__match=match).order_by("version")
        assert [(v.version, v.confirmed) for v in versions] == [(1, False), (2, True)]
        assert versions[1].outcome == saved[0].outcome
