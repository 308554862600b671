"""API test set-up: the API's URLs under /api/, and a token-authenticated client."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def pytest_collection_modifyitems(items: list[Any]) -> None:
    for item in items:
        if "tests/api/" in str(item.fspath) and item.get_closest_marker("urls") is None:
            item.add_marker(pytest.mark.urls("tests.api.urls"))


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
