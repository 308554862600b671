"""The site's icon: named by every page's head and found at /favicon.ico, where browsers
ask whatever a page names (no 404 per page view)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_icon_which_is_served() -> None:
    client = Client()
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    icon = client.get(answer["Location"])
    assert icon.status_code == 200
    body = b"".join(icon.streaming_content)  # type: ignore[attr-defined]
    assert body.startswith(b"<svg") and "Bräde Arena" in body.decode()


def test_pages_name_the_icon() -> None:
    page = Client().get("/").content.decode()
    assert 'rel="icon"' in page and "web/favicon.svg" in page
