"""While the database is down: 503 with ``Retry-After``, never a bare 500.

Every page and API call needs the database, so while it does not answer each request
ends in Django's ``OperationalError`` (or ``InterfaceError``, a connection that broke).
Such a request gets 503 with ``Retry-After`` (``RETRY_AFTER_SECONDS``), as ``/healthz``
answers 503 then:

- a page: a short page in the site's look and language (Swedish unless the language
  cookie says English), rendered without the database (no signed-in user, no messages:
  both live in the database), which reloads itself after ``Retry-After`` so a bracket on a
  screen comes back by itself;
- under ``/api/``: ``{"error": {"code": "database_unavailable", "message": …}}`` in the
  API's language.

An ``OperationalError`` raised while *connecting* (Django's ``connect``: the server
refused the connection, is starting up or shutting down, the password was refused) is
the database being unreachable, whatever the moment after says: PostgreSQL answers
"the database system is starting up" for a second or so and is up by the time anyone
looks again. Any other ``OperationalError`` (or ``InterfaceError``) is asked of the
database, with ``/healthz``'s own check (``SELECT 1``): a query that failed while the
database answers (a missing table, say) is a bug and stays a 500. Two ways in:
``DatabaseUnavailableMiddleware`` for errors raised by a view or while rendering its
response, and ``server_error`` (the site's ``handler500``) for those raised in another
middleware (a session saved after the view).

Decisions: ``Retry-After`` is 30 seconds, the time PostgreSQL typically needs to restart;
the response is never cached; with ``DEBUG`` on, errors outside views still show Django's
debug page.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.html import escape
from django.utils.translation import gettext as _

from config.errors import server_error as error_500
from config.health import check_database
from web.middleware import API_PREFIX, api_language, page_language

__all__ = [
    "RETRY_AFTER_SECONDS",
    "DatabaseUnavailableMiddleware",
    "database_down",
    "server_error",
    "unavailable_response",
]

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30

# The code of Django's connection step, whatever the backend (none overrides it).
_CONNECT_CODE = inspect.unwrap(BaseDatabaseWrapper.connect).__code__


def raised_while_connecting(exc: BaseException) -> bool:
    """Was ``exc`` raised inside Django's ``connect`` (opening a connection), rather than
    by a query on a connection already open? Read from the frames it passed through."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is _CONNECT_CODE:
            return True
        tb = tb.tb_next
    return False


def database_down(exc: BaseException) -> bool:
    """Is ``exc`` the database being unreachable, rather than a query that failed?

    A connection refused is, whatever a second look finds; any other error is when
    the database does not answer ``SELECT 1`` now."""
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    if isinstance(exc, OperationalError) and raised_while_connecting(exc):
        return True
    return not check_database()["ok"]


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 for ``request``: JSON under ``/api/``, else the short page."""
    response: HttpResponse
    if request.path_info.startswith(API_PREFIX):
        with translation.override(api_language(request)):
            message = _("The database is not available just now; try again in %(seconds)s seconds.")
            response = JsonResponse(
                {
                    "error": {
                        "code": "database_unavailable",
                        "message": message % {"seconds": RETRY_AFTER_SECONDS},
                    }
                },
                status=503,
            )
    else:
        with translation.override(page_language(request)):
            response = HttpResponse(_page(request), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    return response


def _page(request: HttpRequest) -> str:
    """The page in the site's look; a bare one should the templates fail too."""
    context = {
        "request": request,
        "csrf_token": get_token(request),
        "retry_after": RETRY_AFTER_SECONDS,
        # a form sent (a result, a sign-in) was not saved: say so; a page read needs no word
        "sent": request.method not in ("GET", "HEAD"),
    }
    try:
        # No request given: the context processors would ask the database for the user.
        return render_to_string("503.html", context)
    except Exception:  # the page about the outage must not fail in turn
        log.exception("could not render the page for the database outage")
        title = escape(_("Temporarily unavailable"))
        text = escape(_("The site cannot reach its database just now. Try again in a minute."))
        return (
            f'<!doctype html><html lang="{translation.get_language()}"><meta charset="utf-8">'
            f"<title>{title}</title><h1>{title}</h1><p>{text}</p></html>"
        )


class DatabaseUnavailableMiddleware:
    """503 instead of 500 for a view (or its response's rendering) that found the
    database down."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_down(exception):
            return None
        log.warning("database unavailable (%s): 503 for %s", type(exception).__name__, request.path)
        return unavailable_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's ``handler500``: the outage's 503 when the error being handled is the
    database being down (raised outside a view, e.g. by a middleware), else the 500
    (``config.errors.server_error``: the API's JSON error under ``/api/``, else the page)."""
    exc = sys.exc_info()[1]
    if exc is not None and database_down(exc):
        return unavailable_response(request)
    return error_500(request)
