"""The site's "not found" answer: the API's JSON error under ``/api/``, the page elsewhere.

A path under ``/api/`` that matches no route (``/api/matches/abc/``) is answered as the
API answers an unknown object, ``{"error": {"code": "not_found", "message": …}}``, so a
client reads one shape of error whatever it sent.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        body: dict[str, Any] = {
            "error": {"code": "not_found", "message": "Not found, or not visible to you."}
        }
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)  # type: ignore[arg-type]
