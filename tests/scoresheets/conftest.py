"""Scoresheet test set-up: the API under /api/ (as tests/api does)."""

from __future__ import annotations

from typing import Any

import pytest


def pytest_collection_modifyitems(items: list[Any]) -> None:
    for item in items:
        if "tests/scoresheets/" in str(item.fspath) and item.get_closest_marker("urls") is None:
            item.add_marker(pytest.mark.urls("tests.api.urls"))
