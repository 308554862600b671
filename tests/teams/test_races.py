"""Captains and keepers at the same moment, on real threads: the database's constraints and
the team's row lock decide, and nobody gets a server error.

- Two captains add one player to two teams of the season at once: both have looked and
  found the player in no team (a barrier holds them after the lookup) before either
  writes; one gets the place, the other ``player_in_a_team`` — the constraint
  ``team_player_once_per_season`` decided, not the lookup.
- Two captains add two players to one team at once: both get a board, 1 and 2 (the team's
  row lock: without it both would take board 1).
- Two keepers create one name at once: one team, one ``team_name_taken``.

On PostgreSQL the writes run at once. On SQLite the test database is in memory and
shared between the threads, where a second writer fails at once ("table is locked")
instead of waiting as it does on a database file; so the writes take turns (a lock here,
as SQLite's own file lock would make them), while the lookups are still all made before
any write (tests/clubs/test_results_import_player_race.py does the same).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from core.errors import ConflictError
from teams import rosters, team_services
from teams.models import Team, TeamMember
from teams.team_services import team_captains_set, team_create
from tests.factories import UserFactory
from tests.teams.helpers import boards, keeper, squad
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            results[index] = calls[index]()
        except Exception as err:  # collected and checked below
            results[index] = err
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _in_turn(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    """On SQLite, the writes of ``module.name`` take turns (see the module text)."""
    if connection.vendor != "sqlite":
        return
    real = getattr(module, name)
    turns = threading.Lock()

    def in_turn(*args: Any, **kwargs: Any) -> Any:
        with turns:
            return real(*args, **kwargs)

    monkeypatch.setattr(module, name, in_turn)


def _lookups_first(monkeypatch: pytest.MonkeyPatch, parties: int) -> None:
    """Every adder looks the player up before anyone writes: each thread's first lookup
    waits for the others' (a later lookup, after a refusal, does not)."""
    barrier = threading.Barrier(parties)
    waited: set[int] = set()
    real = rosters.team_of

    def looked_up_by_all(**kwargs: Any) -> Any:
        found = real(**kwargs)
        if threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            barrier.wait(timeout=60)
        return found

    monkeypatch.setattr(rosters, "team_of", looked_up_by_all)


def test_one_player_added_to_two_teams_at_once_gets_one_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = squad()
    other = team_create(season=s.season, name="Lag 2", by=s.keeper)
    other_captain = UserFactory.create()
    team_captains_set(team=other, captains=[other_captain], by=s.keeper)
    _lookups_first(monkeypatch, 2)
    _in_turn(monkeypatch, rosters, "_add")
    player_id = s.players[0].pk

    def add(team_id: int, by: Any) -> Any:
        team = Team.objects.get(pk=team_id)
        return rosters.roster_player_add(team=team, player=Player.objects.get(pk=player_id), by=by)

    results = _at_once([lambda: add(s.team.pk, s.captain), lambda: add(other.pk, other_captain)])

    conflicts = [r for r in results if isinstance(r, ConflictError)]
    rosters_made = [r for r in results if isinstance(r, list)]
    assert (len(rosters_made), len(conflicts)) == (1, 1), results
    assert conflicts[0].code == "player_in_a_team"
    member = TeamMember.objects.get(player_id=player_id)
    assert conflicts[0].extra == {"team": {"id": member.team_id}}


def test_two_players_added_to_one_team_at_once_get_two_boards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = squad(("1500", "1500"))
    second_captain = UserFactory.create()
    team_captains_set(team=s.team, captains=[s.captain, second_captain], by=s.keeper)
    _lookups_first(monkeypatch, 2)
    _in_turn(monkeypatch, rosters, "_add")

    def add(player_id: int, by: Any) -> Any:
        team = Team.objects.get(pk=s.team.pk)
        return rosters.roster_player_add(team=team, player=Player.objects.get(pk=player_id), by=by)

    a, b = s.players
    results = _at_once([lambda: add(a.pk, s.captain), lambda: add(b.pk, second_captain)])

    assert all(isinstance(r, list) for r in results), results
    assert sorted(board for board, _name, _reserve in boards(s.team)) == [1, 2]


def test_one_name_created_twice_at_once_is_one_team(monkeypatch: pytest.MonkeyPatch) -> None:
    s = squad()
    keepers = [keeper(), keeper()]
    _in_turn(monkeypatch, team_services, "team_create")
    barrier = threading.Barrier(2)

    def create(by: Any) -> Any:
        barrier.wait(timeout=60)
        return team_services.team_create(season=s.season, name="Lag 2", by=by)

    results = _at_once([lambda: create(keepers[0]), lambda: create(keepers[1])])

    conflicts = [r for r in results if isinstance(r, ConflictError)]
    assert len(conflicts) == 1 and conflicts[0].code == "team_name_taken", results
    assert Team.objects.filter(season=s.season, name="Lag 2").count() == 1
