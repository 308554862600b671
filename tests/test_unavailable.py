"""The database down: 503 with ``Retry-After`` (config/unavailable.py), never a bare 500.

Most tests simulate the outage (the connection's ``cursor`` raises ``OperationalError``,
as in ``test_health.py``), so they run on every database; one runs the site against
PostgreSQL's real driver pointed at a closed port.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from config import urls as site_urls
from config.unavailable import RETRY_AFTER_SECONDS
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parent.parent


def _boom(request: HttpRequest) -> HttpResponse:
    raise OperationalError("no such table: tournaments_tournament")


def _session_write(request: HttpRequest) -> HttpResponse:
    request.session["seen"] = True  # saved by SessionMiddleware, after the view
    return HttpResponse("ok")


# A URLconf of this module's own (``pytest.mark.urls``): a view whose query fails, and
# one whose session is saved after it; errors handled as the site's URLconf says.
urlpatterns = [
    path("boom/", _boom),
    path("api/boom/", _boom),
    path("session/", _session_write),
]
handler500 = site_urls.handler500


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query, and the outage check's ``SELECT 1``, fails as with PostgreSQL down."""

    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "cursor", refuse)


def _is_outage(response: Any) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_a_page_is_a_swedish_503_in_the_sites_look(client: Client, database_down: None) -> None:
    response = client.get("/")

    _is_outage(response)
    page = response.content.decode()
    assert '<html lang="sv">' in page
    assert "Tillfälligt otillgänglig" in page and "når inte sin databas" in page
    assert "web/site.css" in page and 'class="site"' in page  # the site's header and style
    assert f'http-equiv="refresh" content="{RETRY_AFTER_SECONDS}"' in page
    assert "Server Error" not in page
    assert "sparades inte" not in page  # nothing was sent


@pytest.mark.django_db
def test_a_form_sent_is_told_it_was_not_saved(client: Client, database_down: None) -> None:
    response = client.post("/accounts/login/", {"username": "anna", "password": "x"})

    _is_outage(response)
    assert "Det du nyss skickade sparades inte" in response.content.decode()


@pytest.mark.django_db
def test_a_page_follows_the_language_cookie(client: Client, database_down: None) -> None:
    client.cookies["django_language"] = "en"

    response = client.get("/tournaments/1/")

    _is_outage(response)
    assert "Temporarily unavailable" in response.content.decode()


@pytest.mark.django_db
def test_the_api_answers_json(client: Client, database_down: None) -> None:
    response = client.get("/api/tournaments/")

    _is_outage(response)
    error = response.json()["error"]
    assert error["code"] == "database_unavailable"
    assert error["message"].startswith("The database is not available")
    swedish = client.get("/api/tournaments/", HTTP_ACCEPT_LANGUAGE="sv")
    assert swedish.json()["error"]["message"].startswith("Databasen är inte tillgänglig")


@pytest.mark.django_db
def test_a_signed_in_visitor_gets_the_page_and_keeps_the_session(
    client: Client, database_down: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session lives in the database: loading it fails, and its cookie stays."""
    monkeypatch.undo()
    client.force_login(UserFactory.create())
    session = client.cookies["sessionid"].value

    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})

    _is_outage(response)
    assert "sessionid" not in response.cookies  # neither deleted nor replaced
    assert client.cookies["sessionid"].value == session


@pytest.mark.django_db
@pytest.mark.urls("tests.test_unavailable")
def test_a_failed_query_while_the_database_answers_stays_a_500() -> None:
    """Only the database being down is a 503: a bug is not hidden behind 'try again'."""
    client = Client(raise_request_exception=False)

    assert client.get("/boom/").status_code == 500
    assert client.get("/api/boom/").status_code == 500


@pytest.mark.django_db
@pytest.mark.urls("tests.test_unavailable")
def test_the_same_view_is_a_503_when_the_database_is_down(database_down: None) -> None:
    client = Client(raise_request_exception=False)

    _is_outage(client.get("/boom/"))
    assert client.get("/api/boom/").json()["error"]["code"] == "database_unavailable"


@pytest.mark.django_db
@pytest.mark.urls("tests.test_unavailable")
def test_an_outage_met_outside_the_view_is_a_503_too(
    database_down: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session is saved by its middleware after the view: the site's ``handler500``
    turns that failure into the outage's 503 as well."""

    def refuse(self: SessionStore, must_create: bool = False) -> NoReturn:
        raise OperationalError("connection refused")

    monkeypatch.setattr(SessionStore, "save", refuse)
    client = Client(raise_request_exception=False)

    _is_outage(client.get("/session/"))


def test_postgresql_at_a_closed_port_answers_503(tmp_path: Path) -> None:
    """The real driver (psycopg) against a port nobody listens on: pages, the API and
    sign-in answer 503 with Retry-After; ``/healthz`` its own 503."""
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "c = Client(raise_request_exception=False)\n"
        "login = {'username': 'domare', 'password': 'brade-demo'}\n"
        "for method, url in [('get', '/'), ('get', '/tournaments/1/'),\n"
        "                    ('get', '/api/tournaments/'), ('post', '/accounts/login/'),\n"
        "                    ('post', '/api/token/'), ('get', '/healthz')]:\n"
        "    r = getattr(c, method)(url, login) if method == 'post' else c.get(url)\n"
        "    print(method, url, r.status_code, r.get('Retry-After'))\n"
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": "postgres://brade@127.0.0.1:1/brade",  # nothing listens on port 1
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    assert lines == [
        "get / 503 30",
        "get /tournaments/1/ 503 30",
        "get /api/tournaments/ 503 30",
        "post /accounts/login/ 503 30",
        "post /api/token/ 503 30",
        "get /healthz 503 None",
    ], done.stderr[-3000:]


@pytest.fixture
def starting_up(monkeypatch: pytest.MonkeyPatch, django_db_blocker: Any) -> Any:
    """The next connection the site opens is refused as PostgreSQL refuses one while it
    starts (the driver's own ``OperationalError``, which Django wraps); the one after
    succeeds, so the outage check that follows finds the database up."""
    conn: Any = connections["default"]
    real = conn.get_new_connection
    refused: list[bool] = []

    def first_refused(params: dict[str, Any]) -> Any:
        if not refused:
            refused.append(True)
            raise conn.Database.OperationalError(
                "connection failed: FATAL:  the database system is starting up"
            )
        return real(params)

    with django_db_blocker.unblock():
        # No connection open, as in a web process after the database went away; the
        # test database's own connection is put back afterwards.
        monkeypatch.setattr(conn, "connection", None)
        monkeypatch.setattr(conn, "get_new_connection", first_refused)
        yield refused
        opened = conn.connection
        monkeypatch.undo()
        if opened is not None:
            opened.close()


@pytest.mark.parametrize("url", ["/tournaments/1/", "/api/tournaments/"])
def test_a_connection_refused_while_starting_up_is_a_503_though_the_database_is_up_next(
    starting_up: list[bool], url: str
) -> None:
    """The connection itself failed: the database was unreachable, even if it answers
    the check that follows (it had finished starting)."""
    client = Client(raise_request_exception=False)

    response = client.get(url)

    assert starting_up == [True]  # the connection was refused, then the check found it up
    _is_outage(response)
    if url.startswith("/api/"):
        assert response.json()["error"]["code"] == "database_unavailable"
    else:
        assert "Tillfälligt otillgänglig" in response.content.decode()
