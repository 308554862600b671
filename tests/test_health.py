"""``/healthz`` (config/health.py) and the placeholder start page."""

from __future__ import annotations

import os
from typing import Any, NoReturn

import pytest
from django.db import OperationalError, connections
from django.test import Client
from pytest_django.fixtures import Settings

# Nothing listens on port 1: connecting is refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def no_redis(settings: Settings) -> None:
    settings.REDIS_URL = None


@pytest.mark.django_db
def test_healthy_on_the_embedded_default(client: Client, no_redis: None) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == {"ok": True, "vendor": connections["default"].vendor}
    assert body["checks"]["redis"] == {"ok": True, "configured": False}


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
