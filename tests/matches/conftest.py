"""Markers for the tests that need real services (reported by ``-ra`` when skipped):

- ``redis``: a real Redis at ``REDIS_URL`` and a real ``celery -A config worker``;
- ``postgres``: PostgreSQL at ``DATABASE_URL`` (concurrent writers, a database
  another process can reach by name).

Select them with ``pytest -m "redis or postgres"``.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "redis: needs a real Redis (REDIS_URL) and a worker")
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (DATABASE_URL)")
