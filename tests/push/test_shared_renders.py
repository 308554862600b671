"""A shared part is rendered once for every serving process at a version (``push.renders``):
two processes' hubs (two hubs on one loop here, each with its own subscription to the
bus: Redis where ``REDIS_URL`` is set, the in-process bus and store otherwise) asking for
the same bracket at the same version render it once, and both hold the same answer; a
hub that finds it kept takes it; and when the sharing fails — the claimer never answers,
it renders no answer, the store is down — each hub renders it itself, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client

from push import hub as hub_module
from push import renders
from push.hub import Follower, Hub, Key, hub_close
from push.renders import part_name
from tests.tournaments.helpers import Setup, drawn
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20.0  # a guard against a hang, not a measure
ORIGIN = {"HTTP_HOST": "testserver", "wsgi.url_scheme": "http"}


def _version(pk: int) -> int:
    return int(Tournament.objects.values_list("version", flat=True).get(pk=pk))


class Counted:
    """``push.hub._rendered`` counted: how many renders this process made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[Any, ...]] = []
        real = hub_module._rendered

        def rendered(*args: Any) -> Any:
            self.calls.append(args[:2])
            return real(*args)

        monkeypatch.setattr(hub_module, "_rendered", rendered)


async def _hubs(n: int, tournament: int) -> list[Hub]:
    """``n`` hubs, each subscribed to the bus with a bracket follower of ``tournament``."""
    out = []
    for _ in range(n):
        found = Hub()
        follower = Follower(
            tournament_id=tournament,
            bodies={"part": "bracket"},
            languages={"part": "en"},
            origin=ORIGIN,
        )
        await found.join(follower)
        out.append(found)
    return out


async def _close(hubs: list[Hub]) -> None:
    for found in hubs:
        for task in [found.task, found.ticker, *found.rendering.values()]:
            if task is not None:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    async def main() -> None:
        try:
            await asyncio.wait_for(scenario(), WAIT)
        finally:
            await hub_close()  # forgets the renders shared

    async_to_sync(main)()


def _bracket(pk: int) -> tuple[str, str]:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(
        f"/tournaments/{pk}/bracket/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    return response["ETag"], response.content.decode()


def _bracket_of(public: bool = True) -> tuple[int, int, Key]:
    """A tournament's id, its version, and its bracket's key (in English)."""
    s: Setup = drawn(4)
    t = s.tournament.pk
    if not public:
        Tournament.objects.filter(pk=t).update(is_public=False)
    return t, _version(t), ("bracket", t, "en")


def _with_hubs(n: int, t: int, check: Callable[[list[Hub]], Awaitable[None]]) -> None:
    """``check`` run with ``n`` hubs following ``t``'s bracket (``_hubs``)."""

    async def scenario() -> None:
        hubs = await _hubs(n, t)
        try:
            await check(hubs)
        finally:
            await _close(hubs)

    _run(scenario)


def test_two_processes_asking_for_a_part_at_one_version_render_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, version, key = _bracket_of()
    counted = Counted(monkeypatch)
    expected = _bracket(t)

    async def check(hubs: list[Hub]) -> None:
        a, b = await asyncio.gather(*(h.current(key, version, ORIGIN) for h in hubs))
        assert a is not None
        assert b is not None
        assert (a.etag, a.text) == (b.etag, b.text) == expected
        assert (a.whole, dict(a.changes)) == (b.whole, dict(b.changes))
        assert counted.calls == [(key, version)]
        # a third process coming later takes the answer kept: no render
        (c,) = await _hubs(1, t)
        hubs.append(c)
        found = await c.current(key, version, ORIGIN)
        assert found is not None
        assert (found.etag, found.text) == expected
        assert len(counted.calls) == 1

    _with_hubs(2, t, check)


def test_a_part_claimed_by_a_process_that_never_answers_is_rendered_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, version, key = _bracket_of()
    monkeypatch.setattr(renders, "WAIT_SECONDS", 0.3)
    counted = Counted(monkeypatch)
    assert renders.store().claim(part_name(key, version)) is None  # a process that died

    async def check(hubs: list[Hub]) -> None:
        found = await hubs[0].current(key, version, ORIGIN)
        assert found is not None
        assert (found.etag, found.text) == await asyncio.to_thread(_bracket, t)
        assert counted.calls == [(key, version)]

    _with_hubs(1, t, check)


def test_a_part_rendered_to_no_answer_is_asked_by_each_process_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A private tournament's bracket is no anonymous reader's: the claimer drops its claim
    and says so, and the other renders its own at once (the guard would end a wait for
    the long ``WAIT_SECONDS``)."""
    t, version, key = _bracket_of(public=False)
    monkeypatch.setattr(renders, "WAIT_SECONDS", 10 * WAIT)
    counted = Counted(monkeypatch)

    async def check(hubs: list[Hub]) -> None:
        got = await asyncio.gather(*(h.current(key, version, ORIGIN) for h in hubs))
        assert got == [None, None]
        assert counted.calls == [(key, version), (key, version)]
        assert renders.store().get(part_name(key, version)) is None

    _with_hubs(2, t, check)


class _Down:
    """A store whose Redis is down."""

    def __getattr__(self, name: str) -> Any:
        def failed(*args: Any) -> Any:
            raise redis.ConnectionError("down")

        return failed


def test_with_the_store_down_each_process_renders_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, version, key = _bracket_of()
    monkeypatch.setattr(renders, "store", lambda: _Down())
    counted = Counted(monkeypatch)

    async def check(hubs: list[Hub]) -> None:
        got = await asyncio.gather(*(h.current(key, version, ORIGIN) for h in hubs))
        expected = await asyncio.to_thread(_bracket, t)
        assert [(r.etag, r.text) for r in got if r is not None] == [expected, expected]
        assert counted.calls == [(key, version), (key, version)]

    _with_hubs(2, t, check)


def test_a_rendered_part_is_shared_as_it_was_made() -> None:
    from push.shared import rendered_dumps, rendered_loads, rendered_make

    made = rendered_make(7, 'W/"b7"', '<p>"new" é</p>' * 2000, ())
    assert made.changes  # a big part: its changes from itself
    assert rendered_loads(rendered_dumps(made)) == made
    with pytest.raises(ValueError):
        rendered_loads(b'{"v": 1}')
    with pytest.raises(ValueError):
        rendered_loads(b"not json")
