"""The API's schema describes every operation on its own, and says how to get a token."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.views import APIView

from tournaments.api_base import ApiView


def _operations() -> list[tuple[str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_operation_has_its_own_summary_and_description() -> None:
    operations = _operations()
    assert len(operations) >= 39
    bases = (inspect.getdoc(ApiView), inspect.getdoc(APIView))
    base_texts = [text.split("\n", 1)[0] for text in bases if text]
    seen: dict[str, str] = {}
    for name, operation in operations:
        description = (operation.get("description") or "").strip()
        assert description, f"{name} has no description"
        assert operation.get("summary"), f"{name} has no summary"
        for base in base_texts:
            assert base not in description, f"{name} is described by a base class: {base!r}"
        assert description not in seen, f"{name} has the description of {seen[description]}"
        seen[description] = name


@pytest.mark.django_db
def test_the_docs_page_says_how_to_get_a_token_with_curl(client: Any) -> None:
    schema = client.get("/api/schema/?format=json").json()
    intro = schema["info"]["description"]
    assert "curl -X POST https://brade.example.org/api/token/ -d username=" in intro
    assert 'curl -H "Authorization: Token' in intro
    assert "/account/token/" in intro and "DELETE" in intro
