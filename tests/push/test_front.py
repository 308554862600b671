"""The push streams' own door in the ASGI server (``push.front`` through ``config.asgi``):
what Django's stack did for a stream, done without it, and no thread per stream."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import OperationalError
from django.test import AsyncClient, override_settings

from config import unavailable
from push import hub as hub_module
from push import views
from push.hub import hub
from tests.push.front_client import WAIT, Answer, push_get
from tests.push.test_streams import follow, run
from tests.tournaments.helpers import Setup, drawn, match_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_crowd_of_streams_starts_no_thread_each() -> None:
    """Through Django's handler each stream held a thread of its own for its whole life
    (module doc of ``push.front``); here twenty streams start at most the reading
    thread and the parts' renderers, the same for two streams as for twenty."""
    s: Setup = drawn(4)
    url = f"/push/tournaments/{s.tournament.pk}/?body=bracket"

    async def scenario() -> None:
        first = [await follow(AsyncClient(), url) for _ in range(2)]
        for stream in first:
            await stream.next()
        threads = threading.active_count()
        crowd = [await follow(AsyncClient(), url) for _ in range(20)]
        for stream in crowd:
            assert [e for e, _ in await stream.next()] == ["hello"]
        assert threading.active_count() == threads
        assert hub().followers == 22

    run(scenario)


def test_a_reader_who_leaves_leaves_the_hub_at_once() -> None:
    """Not at the next change or keep-alive: the disconnect itself ends the stream."""
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)

    async def scenario() -> None:
        page = await push_get(None, f"/push/tournaments/{s.tournament.pk}/")
        board = await push_get(None, f"/push/matches/{match.pk}/")
        for answer in (page, board):
            assert b"event: hello" in await anext(answer.streaming_content)
        assert hub().followers == 2
        await page.streaming_content.aclose()  # type: ignore[attr-defined]
        await _until(lambda: hub().followers == 1)
        await board.streaming_content.aclose()  # type: ignore[attr-defined]
        await _until(lambda: hub().followers == 0)
        assert hub().task is None  # the last one gone: the subscription ended

    run(scenario)


async def _until(condition: object) -> None:
    async def wait() -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), WAIT)


def test_a_stream_answers_as_an_event_stream() -> None:
    s: Setup = drawn(4)

    async def scenario() -> None:
        answer = await push_get(None, f"/push/tournaments/{s.tournament.pk}/")
        assert (answer.status_code, answer["content-type"], answer["cache-control"]) == (
            200,
            "text/event-stream",
            "no-cache",
        )
        assert answer["x-accel-buffering"] == "no"

    run(scenario)


def _answer(url: str, method: str = "GET", **headers: str) -> Answer:
    found: list[Answer] = []

    async def scenario() -> None:
        found.append(await push_get(None, url, method, **headers))

    run(scenario)
    return found[0]


def test_what_is_no_stream_is_answered_in_short_plain_text() -> None:
    s: Setup = drawn(4, is_public=False)
    match = match_of(s.tournament, 1, 0)
    answers = {
        "private": _answer(f"/push/tournaments/{s.tournament.pk}/"),
        "private match": _answer(f"/push/matches/{match.pk}/"),
        "no such match": _answer("/push/matches/999999/"),
        "no such address": _answer("/push/elsewhere/"),
        "a POST": _answer(f"/push/tournaments/{s.tournament.pk}/", "POST"),
    }
    assert {k: a.status_code for k, a in answers.items()} == {
        "private": 404,
        "private match": 404,
        "no such match": 404,
        "no such address": 404,
        "a POST": 405,
    }
    assert {a["content-type"] for a in answers.values()} == {"text/plain; charset=utf-8"}
    assert answers["a POST"]["allow"] == "GET"


def test_a_host_not_allowed_is_refused_as_django_refuses_it() -> None:
    s: Setup = drawn(4)
    with override_settings(ALLOWED_HOSTS=["arena.example"]):
        refused = _answer(f"/push/tournaments/{s.tournament.pk}/")
    assert refused.status_code == 400


def test_plain_http_is_sent_to_https_when_the_site_says_so() -> None:
    s: Setup = drawn(4)
    url = f"/push/tournaments/{s.tournament.pk}/?body=bracket"
    with override_settings(SECURE_SSL_REDIRECT=True, SECURE_PROXY_SSL_HEADER=None):
        sent = _answer(url)
    assert (sent.status_code, sent["location"]) == (301, f"https://testserver{url}")
    proxy = ("HTTP_X_FORWARDED_PROTO", "https")
    with override_settings(SECURE_SSL_REDIRECT=True, SECURE_PROXY_SSL_HEADER=proxy):
        served = _answer(url, x_forwarded_proto="https")
    assert served.status_code == 200


def test_the_database_down_answers_503_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    s: Setup = drawn(4)

    async def down(*_args: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(views, "read_with", down)
    monkeypatch.setattr(unavailable, "check_database", lambda: {"ok": False})
    answer = _answer(f"/push/tournaments/{s.tournament.pk}/")
    assert (answer.status_code, answer["retry-after"]) == (503, "30")


def test_the_rest_of_the_site_is_django_behind_the_same_application() -> None:
    assert _answer("/healthz").status_code == 200


def test_a_quiet_stream_is_sent_a_comment_so_proxies_keep_it_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One timer for the hub's every follower sends it (``Hub._keepalive``)."""
    monkeypatch.setattr(hub_module, "KEEPALIVE_SECONDS", 0.2)
    s: Setup = drawn(4)

    async def scenario() -> None:
        answers = [await push_get(None, f"/push/tournaments/{s.tournament.pk}/") for _ in range(3)]
        for answer in answers:
            assert b"event: hello" in await anext(answer.streaming_content)
        for answer in answers:
            chunk = await asyncio.wait_for(anext(answer.streaming_content), WAIT)
            assert chunk == b":\n\n"
        assert hub().followers == 3

    run(scenario)
