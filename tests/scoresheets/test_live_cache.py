"""The live board's caches: the state kept per (live game, version) and the stamp kept
for the crowd's 304s show a viewer exactly what the selectors build without them, and
never an older version's state for a newer one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.cache import cache

from matches.models import Match
from scoresheets import selectors
from scoresheets.stamps import state_key
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table, random_turn
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    s = drawn(2, lengths=[3])
    table = Table(client_for(s.referee), match_of(s.tournament, 1, 0).pk)
    assert table.start().status_code == 201
    return table


def fresh(match: int) -> dict[str, Any]:
    """The live state as the selectors build it with nothing kept in the cache."""
    cache.clear()
    live = selectors.live_latest(match=Match.objects.select_related("tournament").get(pk=match))
    assert live is not None
    return selectors.live_state(live)


def test_every_version_a_viewer_is_shown_equals_a_fresh_build(
    table: Table, django_capture_on_commit_callbacks: Any
) -> None:
    viewer = client_for(None)
    url = f"/api/matches/{table.match}/live/"
    rng = random.Random(11)
    tag = viewer.get(url)["ETag"]
    versions = set()
    with django_capture_on_commit_callbacks(execute=True):
        while table.state["game_number"] == 1:
            assert random_turn(table, rng).status_code == 201
            polled = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
            assert polled.status_code == 200  # a new version
            tag = polled["ETag"]
            assert viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
            shown = polled.json()
            assert shown == table.state  # the poster's answer is what the crowd is shown
            assert shown == fresh(table.match)
            versions.add(shown["version"])
    assert table.state["game_number"] == 2 and len(versions) > 10  # a whole game, and on


def test_a_state_kept_for_an_older_version_is_never_shown_for_a_newer_one(table: Table) -> None:
    table.post("start", dice=[2, 5])
    old = selectors.live_stamp(pk=table.match)
    assert old is not None
    # whatever is kept under the older version stays with that version
    cache.set(state_key(old.live_id, old.started_at, old.version), {"seq": -1}, 60)
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    shown = client_for(None).get(f"/api/matches/{table.match}/live/").json()
    assert shown["seq"] == 2 and shown == fresh(table.match)


def test_an_older_stamp_left_in_the_cache_keys_no_body(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were the cached stamp older than the database (a writer that did not keep it),
    it could answer 304 to the ETag it names, but every body and ETag sent comes from the
    database's stamp."""
    viewer = client_for(None)
    url = f"/api/matches/{table.match}/live/"
    table.post("start", dice=[2, 5])
    first = viewer.get(url)
    assert viewer.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # kept
    monkeypatch.setattr("scoresheets.services.board_stamp_keep", lambda **kw: None)
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    assert selectors.live_stamp_cached(pk=table.match) != selectors.live_stamp(pk=table.match)
    for sent in ("", 'W/"api-live-1-v1-en-0000"'):
        shown = viewer.get(url, HTTP_IF_NONE_MATCH=sent) if sent else viewer.get(url)
        assert shown.status_code == 200 and shown.json()["seq"] == 2
        assert shown["ETag"] != first["ETag"]
        assert viewer.get(url, HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304


def test_a_turn_keeps_the_new_stamp_before_anyone_polls(table: Table) -> None:
    viewer = client_for(None)
    url = f"/api/matches/{table.match}/live/"
    table.post("start", dice=[2, 5])
    tag = viewer.get(url)["ETag"]
    assert viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    assert selectors.live_stamp_cached(pk=table.match) == selectors.live_stamp(pk=table.match)
    changed = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["seq"] == 2


def test_a_state_is_built_from_the_turns_of_its_own_version(table: Table) -> None:
    """A turn committed after the live game's row was read belongs to the next version."""
    table.post("start", dice=[2, 5])
    match = Match.objects.select_related("tournament").get(pk=table.match)
    live = selectors.live_latest(match=match)
    assert live is not None
    table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    cache.clear()
    state = selectors.live_state(live)
    assert state["seq"] == 1 and [t["seq"] for t in state["turns"]] == [1]


def test_a_board_not_everyone_may_see_is_never_sent_from_the_cache(table: Table) -> None:
    """The state kept for a version is sent as it is only where everyone sees the match:
    an unpublished round's board (or a private tournament's) asks who the reader is."""
    table.post("start", dice=[2, 5])
    url = f"/api/matches/{table.match}/live/"
    viewer = client_for(None)
    assert viewer.get(url).status_code == 200  # the state is kept, and the stamp
    match = Match.objects.select_related("round", "tournament").get(pk=table.match)
    Round.objects.filter(pk=match.round_id).update(published=False)
    assert viewer.get(url).status_code == 404
    assert viewer.get(url, HTTP_IF_NONE_MATCH='W/"other"').status_code == 404
    assert table.client.get(url).status_code == 200  # the referee sees it
    Round.objects.filter(pk=match.round_id).update(published=True)
    Tournament.objects.filter(pk=match.tournament_id).update(is_public=False)
    assert viewer.get(url).status_code == 404
