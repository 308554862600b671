"""The API docs page works without the internet: Swagger UI comes from our static files."""

from __future__ import annotations

import re

import pytest
from django.test import Client


@pytest.mark.django_db
def test_docs_page_loads_only_local_assets(client: Client) -> None:
    page = client.get("/api/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any("swagger-ui" in a for a in assets)
    assert all(a.startswith("/") for a in assets), assets
    for asset in assets:
        if asset.startswith("/static/"):
            assert client.get(asset).status_code == 200, asset
