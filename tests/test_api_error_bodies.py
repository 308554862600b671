"""Every answer under ``/api/`` is the API's JSON error, whatever raised it
(config/errors.py); pages keep their HTML pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path
from django.views.decorators.http import require_POST

from config import urls as site_urls
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory

pytestmark = pytest.mark.django_db

FIELDS = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
TOO_BIG = '{"name": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + '"}'


def _crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


def _refuse(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def _suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("odd")


@require_POST
def _post_only(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


# This module's URLconf (``pytest.mark.urls``): the site's, plus plain Django views under
# /api/ and beside the pages that fail in each way; errors handled as the site's say.
urlpatterns = [
    path("api/crash/", _crash),
    path("api/refuse/", _refuse),
    path("api/suspicious/", _suspicious),
    path("api/post-only/", _post_only),
    path("crash/", _crash),
    path("", include("config.urls")),
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500


def _api_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    return error


def _page(response: Any, status: int) -> None:
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")


@pytest.fixture
def anonymous() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.urls("config.urls")
def test_a_body_too_large_is_the_apis_400() -> None:
    client = client_for(OrganiserFactory.create())

    response = client.post("/api/clubs/", TOO_BIG, content_type="application/json")

    error = _api_error(response, 400, "request_too_large")
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in error["message"]


@pytest.mark.urls("config.urls")
def test_too_many_fields_is_the_apis_400(anonymous: Client) -> None:
    form = "&".join(f"f{i}=1" for i in range(FIELDS + 1))

    response = anonymous.post("/api/token/", form, content_type="application/x-www-form-urlencoded")

    _api_error(response, 400, "too_many_fields")


@pytest.mark.urls("config.urls")
def test_a_host_not_allowed_is_the_apis_400(anonymous: Client) -> None:
    _api_error(anonymous.get("/api/", HTTP_HOST="elsewhere.example"), 400, "bad_request")


@pytest.mark.urls("config.urls")
def test_no_route_and_a_method_not_allowed_are_the_apis_404_and_405(anonymous: Client) -> None:
    _api_error(anonymous.get("/api/nothing/here/"), 404, "not_found")
    response = anonymous.put("/api/schema/")  # the schema's view renders YAML itself
    _api_error(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]


@pytest.mark.urls("tests.test_api_error_bodies")
def test_what_plain_views_under_the_api_raise_is_the_apis_error(anonymous: Client) -> None:
    _api_error(anonymous.get("/api/crash/"), 500, "server_error")
    _api_error(anonymous.get("/api/refuse/"), 403, "permission_denied")
    _api_error(anonymous.get("/api/suspicious/"), 400, "bad_request")
    _api_error(anonymous.get("/api/post-only/"), 405, "method_not_allowed")


@pytest.mark.urls("tests.test_api_error_bodies")
def test_the_apis_errors_speak_its_language(anonymous: Client) -> None:
    english = _api_error(anonymous.get("/api/crash/"), 500, "server_error")
    swedish = _api_error(
        anonymous.get("/api/crash/", HTTP_ACCEPT_LANGUAGE="sv"), 500, "server_error"
    )
    assert english["message"] != swedish["message"]


@pytest.mark.urls("tests.test_api_error_bodies")
def test_pages_keep_their_html_pages(anonymous: Client) -> None:
    _page(anonymous.get("/crash/"), 500)
    _page(anonymous.get("/nothing/here/"), 404)
    too_big = "a=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = anonymous.post(
        "/accounts/login/", too_big, content_type="application/x-www-form-urlencoded"
    )
    _page(response, 400)
