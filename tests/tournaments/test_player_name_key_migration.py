"""The migration that makes one name one player per club (``0016_player_name_key``) on a
database that has players already: it fills every key, and it refuses (changing nothing)
a database where players of one club share a name, naming them all, rather than
merging or renaming them itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0015_paired_round_kind")]
AFTER = [("tournaments", "0016_player_name_key")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.fixture
def before() -> Iterator[MigrationExecutor]:
    """The database as it was before the migration; the latest state again afterwards."""
    executor = _migrate(BEFORE)
    yield executor
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    _migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_the_keys_are_filled_and_the_constraint_holds(before: MigrationExecutor) -> None:
    old = before.loader.project_state(BEFORE).apps
    club = old.get_model("tournaments", "Club").objects.create(name="Brädgillet")
    players = old.get_model("tournaments", "Player").objects
    players.create(name="Åsa  ÖBERG", club=club)
    players.create(name="Per Ek")
    players.create(name="per ek")  # of no club: may share a name
    players.create(name="Per Ek", club=club)

    after = _migrate(AFTER).loader.project_state(AFTER).apps
    keys = after.get_model("tournaments", "Player").objects.order_by("pk")
    assert list(keys.values_list("name_key", flat=True)) == [
        "åsa öberg",
        "per ek",
        "per ek",
        "per ek",
    ]


@pytest.mark.django_db(transaction=True)
def test_players_of_one_club_sharing_a_name_stop_it_and_are_named(
    before: MigrationExecutor,
) -> None:
    old = before.loader.project_state(BEFORE).apps
    clubs = old.get_model("tournaments", "Club").objects
    gillet, other = clubs.create(name="Brädgillet"), clubs.create(name="Andra klubben")
    players = old.get_model("tournaments", "Player").objects
    first = players.create(name="Åsa Öberg", club=gillet)
    second = players.create(name="åsa  öberg ", club=gillet)
    players.create(name="Åsa Öberg", club=other)  # another club's: no clash
    players.create(name="Åsa Öberg")  # of no club: no clash

    with pytest.raises(CommandError) as err:
        _migrate(AFTER)
    message = str(err.value)
    assert f"Brädgillet (club #{gillet.pk}): #{first.pk} “Åsa Öberg”, #{second.pk}" in message
    assert "Andra klubben" not in message and "rename one" in message
    # nothing changed: the migration is not applied, and runs once the pair is told apart
    assert ("tournaments", "0016_player_name_key") not in (
        MigrationExecutor(connection).loader.applied_migrations
    )
    players.filter(pk=second.pk).update(name="Åsa Öberg d.y.")
    _migrate(AFTER)
