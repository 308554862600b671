"""The port from matches to the apps that follow a changing match (``matches.match_changes``).

``matches`` does not import ``clubs`` to keep the ratings in step (the apps' layers);
the clubs app registers its watcher at start-up, and ``lock_match`` tells the watchers.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clubs.rating_services import ratings_sync_on_commit
from matches import match_changes
from matches.match_changes import match_changing, match_watcher_register, match_watchers


@pytest.fixture
def watchers() -> Iterator[None]:
    saved = match_changes._watchers.all()
    yield
    match_changes._watchers.replace(saved)


def test_the_clubs_app_registers_the_ratings_watcher_at_start_up() -> None:
    assert ratings_sync_on_commit in match_watchers()


@pytest.mark.usefixtures("watchers")
def test_every_watcher_hears_of_a_change_once_each() -> None:
    heard: list[tuple[str, int]] = []

    def first(*, match_id: int) -> None:
        heard.append(("first", match_id))

    def second(*, match_id: int) -> None:
        heard.append(("second", match_id))

    match_changes._watchers.replace([])
    match_watcher_register(first)
    match_watcher_register(second)
    match_watcher_register(first)  # a second ready() changes nothing
    match_changing(match_id=7)
    assert heard == [("first", 7), ("second", 7)]
    assert match_watchers() == (first, second)
