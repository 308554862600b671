"""``/healthz`` (config/health.py) and the placeholder start page."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any, NoReturn

import pytest
from django.db import OperationalError, connections
from django.test import Client
from pytest_django.fixtures import Settings

from config import health

# Nothing listens on port 1: connecting is refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def no_redis(settings: Settings) -> None:
    settings.REDIS_URL = None


@pytest.fixture(autouse=True)
def no_cached_worker_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_worker_cache", None, raising=False)


@pytest.fixture
def workers(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> list[int | Exception]:
    """Redis configured and answering, tasks sent to workers (not eager); each control
    ping takes the next answer of the list this returns (a count of workers, or an
    exception to raise), and a ping with none left fails the test."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(health, "check_redis", lambda url: {"ok": True, "configured": True})
    answers: list[int | Exception] = []

    def ping(timeout: float) -> int:
        assert answers, "the worker was pinged once too often"
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(health, "ping_workers", ping)
    return answers


@pytest.mark.django_db
def test_healthy_on_the_embedded_default(client: Client, no_redis: None) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == {"ok": True, "vendor": connections["default"].vendor}
    assert body["checks"]["redis"] == {"ok": True, "configured": False}
    assert body["checks"]["worker"] == {"ok": True, "configured": False, "mode": "in-process"}


@pytest.mark.django_db
def test_reports_the_worker_that_answers(client: Client, workers: list[int | Exception]) -> None:
    workers.append(1)

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["worker"] == {"ok": True, "configured": True, "workers": 1}


@pytest.mark.django_db
def test_degraded_but_200_when_redis_answers_and_no_worker_does(
    client: Client, workers: list[int | Exception]
) -> None:
    workers.append(0)

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["worker"] == {"ok": False, "configured": True, "workers": 0}


@pytest.mark.django_db
def test_503_when_celery_cannot_use_the_broker(
    client: Client, workers: list[int | Exception]
) -> None:
    # What a venv without kombu's Redis extra gave: redis-py answers, the transport fails.
    workers.append(ModuleNotFoundError("No module named 'packaging'"))

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["worker"] == {
        "ok": False,
        "configured": True,
        "error": "ModuleNotFoundError",
    }


@pytest.mark.django_db
def test_the_worker_is_not_asked_while_redis_is_down(
    client: Client, workers: list[int | Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    down = {"ok": False, "configured": True, "error": "ConnectionError"}
    monkeypatch.setattr(health, "check_redis", lambda url: down)  # no answer queued: no ping

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["worker"] == {
        "ok": False,
        "configured": True,
        "error": "RedisUnavailable",
    }


@pytest.mark.django_db
def test_the_worker_check_is_kept_for_a_while(
    client: Client, workers: list[int | Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    workers.extend([1, 0])
    clock = [1000.0]
    monkeypatch.setattr(health, "time", SimpleNamespace(monotonic=lambda: clock[0]))

    first = client.get("/healthz").json()["checks"]["worker"]
    clock[0] += health.WORKER_CACHE_SECONDS - 1
    kept = client.get("/healthz").json()["checks"]["worker"]
    clock[0] += 2
    later = client.get("/healthz").json()["checks"]["worker"]

    assert first["workers"] == kept["workers"] == 1
    assert later["workers"] == 0
    assert workers == []


@pytest.mark.django_db
def test_503_when_the_database_is_down(
    client: Client, no_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "cursor", refuse)

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"]["ok"] is False
    assert body["checks"]["database"]["error"] == "OperationalError"
    assert body["checks"]["redis"]["ok"] is True


@pytest.mark.django_db
def test_503_when_redis_is_configured_but_down(client: Client, settings: Settings) -> None:
    settings.REDIS_URL = DEAD_REDIS

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"] == {"ok": False, "configured": True, "error": "ConnectionError"}


@pytest.mark.django_db
def test_errors_do_not_leak_credentials(client: Client, settings: Settings) -> None:
    settings.REDIS_URL = "redis://:s3cret-pass@127.0.0.1:1/0"

    response = client.get("/healthz")

    assert response.status_code == 503
    assert b"s3cret-pass" not in response.content
    assert b"127.0.0.1" not in response.content


@pytest.mark.django_db
@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs a real Redis: runs in CI's PostgreSQL + Redis pass (REDIS_URL set)",
)
def test_healthy_with_a_real_redis(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["checks"]["redis"] == {"ok": True, "configured": True}


@pytest.mark.django_db
def test_answers_head_and_refuses_post(client: Client, no_redis: None) -> None:
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_is_never_cached(client: Client, no_redis: None) -> None:
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_start_page_is_served(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "Bräde Arena" in response.content.decode()
