"""Every answer under ``/api/`` is the API's JSON error; pages keep their HTML pages.

A client of the API reads one shape of error whatever went wrong and wherever::

    {"error": {"code": "not_found", "message": "Not found, or not visible to you."}}

The API's views answer so themselves (``tournaments.api_base.exception_handler``). What
happens before or beside them is answered so here, in the API's language:

- the site's error handlers (``handler400``, ``handler403``, ``handler404``,
  ``handler500``): Django calls them for what it raises itself, outside any view of the
  API: a body past ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``RequestDataTooBig``), more fields
  than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` (``TooManyFieldsSent``), a host not allowed
  (``DisallowedHost``), a path no route matches, an unexpected exception;
- ``ApiErrorBodyMiddleware``: any other answer of 400 or more under ``/api/`` whose body
  is not that JSON (a 405 of a view with its own renderer, such as the OpenAPI schema's
  YAML, or DRF's ``{"detail": …}``) gets the JSON body of its status, its status and
  headers (``Allow``, ``Retry-After``) kept.

Outside ``/api/`` each handler is Django's own page (the site's 400/403/404/500
templates); with ``DEBUG`` on, Django's debug pages stay. Decisions: a request too large
keeps Django's status, 400, with the code ``request_too_large`` (the schema's 400 covers
it); the 500's message says nothing of the error (it is logged, as always).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults

from web.middleware import API_PREFIX, api_language

__all__ = [
    "ApiErrorBodyMiddleware",
    "api_error_body",
    "bad_request",
    "not_found",
    "permission_denied",
    "server_error",
]

# The code of each status's error, as the API's views name them (DRF's default codes).
_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "request_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
    503: "unavailable",
}


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _message(request: HttpRequest, status: int) -> str:
    """The words of a status, in the language active (the caller chooses it)."""
    if status == 400:
        return _("The request is not valid.")
    if status == 403:
        return _("You do not have permission to do this.")
    if status == 404:
        return _("Not found, or not visible to you.")
    if status == 405:
        return _("The method %(method)s is not allowed here.") % {"method": request.method}
    if status >= 500:
        return _("Something went wrong on the server; it has been logged. Try again later.")
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return _("The request is not valid.")


def api_error_body(
    request: HttpRequest, status: int, *, code: str | None = None, message: str | None = None
) -> dict[str, Any]:
    """``{"error": {"code": …, "message": …}}`` for ``status``, in the API's language."""
    with translation.override(api_language(request)):
        text = message if message is not None else _message(request, status)
        return {"error": {"code": code or _CODES.get(status, "error"), "message": str(text)}}


def _api_error(
    request: HttpRequest, status: int, *, code: str | None = None, message: str | None = None
) -> JsonResponse:
    return JsonResponse(api_error_body(request, status, code=code, message=message), status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's ``handler400``: what Django refuses before a view (``SuspiciousOperation``)."""
    if not _is_api(request):
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
    with translation.override(api_language(request)):
        if isinstance(exception, RequestDataTooBig):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return _api_error(
                request,
                400,
                code="request_too_large",
                message=_("The request body is larger than the %(limit)s bytes the API takes.")
                % {"limit": limit},
            )
        if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
            return _api_error(
                request,
                400,
                code="too_many_fields",
                message=_("The request sends more fields or files than the API takes."),
            )
        return _api_error(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's ``handler403``."""
    if _is_api(request):
        return _api_error(request, 403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's ``handler404``: a path under ``/api/`` that matches no route
    (``/api/matches/abc/``) is answered as the API answers an unknown object."""
    if _is_api(request):
        return _api_error(request, 404)
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 of an unexpected exception (``config.unavailable.server_error`` first
    tells the database being down apart)."""
    if _is_api(request):
        return _api_error(request, 500)
    return defaults.server_error(request)


def _is_api_error(response: HttpResponseBase) -> bool:
    """Is the body already the API's JSON error (``{"error": {...}}``)?"""
    if response.get("Content-Type", "").split(";")[0].strip() != "application/json":
        return False
    try:
        body = json.loads(response.content)  # type: ignore[attr-defined]  # not streaming
    except ValueError:
        return False
    return isinstance(body, dict) and isinstance(body.get("error"), dict)


class ApiErrorBodyMiddleware:
    """An error answer under ``/api/`` that is not JSON gets the API's JSON error body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or settings.DEBUG  # Django's debug pages stay: they show the error
            or not _is_api(request)
            or response.streaming
            or _is_api_error(response)
        ):
            return response
        body = json.dumps(api_error_body(request, response.status_code)).encode()
        assert isinstance(response, HttpResponse)  # not streaming
        response.content = body
        response["Content-Type"] = "application/json"
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(body))
        return response
