"""Webhook test set-up: a local receiver on 127.0.0.1:8113 (this branch's test port) and
private addresses allowed for it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.webhooks.receiver import Receiver

# This branch's ports: 8113 for the first (or only) test process, 8111 for a second
# under pytest-xdist; more processes take a free port the system gives.
# WEBHOOKS_TEST_PORT=N moves them to N, N+1, ... (two checkouts testing at once).
RECEIVER_PORTS = (8113, 8111)


def receiver_port() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw"))
    base = os.environ.get("WEBHOOKS_TEST_PORT")
    if base:
        return int(base) + index
    return RECEIVER_PORTS[index] if index < len(RECEIVER_PORTS) else 0


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOKS_TIMEOUT = 0.5
    server = Receiver(receiver_port()).start()
    yield server
    server.stop()


def pytest_configure(config: pytest.Config) -> None:
    # As tests/matches/conftest.py: the marks of the tests that need real services.
    config.addinivalue_line("markers", "redis: needs a real Redis (REDIS_URL) and a worker")
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (DATABASE_URL)")
