"""The crowd's polls of a live board answered before Django (``core.kept_responses``):
exactly what Django answers, never for someone signed in, never a board that is not
everyone's, never an older version than the board's."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpResponse, HttpResponseBase
from django.test import RequestFactory
from django.urls import reverse

from core.kept_responses import KeptResponseMiddleware, KeptResponses, request_key, response_keep
from scoresheets.apps import LIVE_BOARD_PATH
from scoresheets.stamps import public_key
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import Round
from tournaments.tournament_setup import tournament_update

pytestmark = pytest.mark.django_db


class Django:
    """Django's WSGI application, counting the requests that reach it."""

    def __init__(self) -> None:
        self.app = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        self.calls += 1
        return self.app(environ, start_response)


@pytest.fixture
def django_app() -> Django:
    return Django()


@pytest.fixture
def site(django_app: Django) -> KeptResponses:
    return KeptResponses(django_app)


def call(app: Any, path: str, method: str = "GET", **headers: str) -> tuple[int, dict, bytes]:
    """One request through the WSGI ``app``: its status, headers and body."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for name, value in headers.items():
        environ[f"HTTP_{name.upper()}"] = value
    started: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], *_: Any) -> None:
        started["status"] = int(status.split()[0])
        started["headers"] = dict(response_headers)

    # as Django's test client: a request's start and end must not close the connection
    # the test's transaction runs in
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        result = app(environ, start_response)
        body = b"".join(result)
        if hasattr(result, "close"):
            result.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return started["status"], started["headers"], body


@pytest.fixture
def table() -> Table:
    s = drawn(2, lengths=[3])
    cache.clear()
    table = Table(client_for(s.referee), match_of(s.tournament, 1, 0).pk)
    assert table.start().status_code == 201
    assert table.post("start", dice=[2, 5]).status_code == 201
    return table


def live(table: Table) -> str:
    return f"/api/matches/{table.match}/live/"


def test_the_registered_path_is_the_live_boards() -> None:
    import re

    path = reverse("api:match-live", args=[7])
    found = re.fullmatch(LIVE_BOARD_PATH, path)
    assert found is not None and found[1] == "7"
    assert re.fullmatch(LIVE_BOARD_PATH, reverse("api:match-live-turns", args=[7])) is None


def test_a_public_board_is_answered_from_the_cache_as_django_answered_it(
    table: Table, site: KeptResponses, django_app: Django
) -> None:
    status, headers, body = call(site, live(table), accept="application/json")
    assert status == 200 and django_app.calls == 1
    assert json.loads(body) == table.state
    # the same request again: not Django's
    again = call(site, live(table), accept="application/json")
    assert again == (status, headers, body) and django_app.calls == 1
    # a browser's CSRF cookie is nobody's identity
    cookie = call(site, live(table), accept="application/json", cookie="csrftoken=abc")
    assert cookie == (status, headers, body) and django_app.calls == 1
    # a follower holding this version: 304, with the validators and no body
    code, head, empty = call(
        site, live(table), accept="application/json", if_none_match=headers["ETag"]
    )
    assert (code, empty) == (304, b"") and django_app.calls == 1
    assert head["ETag"] == headers["ETag"] and "Content-Type" not in head
    assert head["Vary"] == headers["Vary"]


def test_a_turn_sends_the_next_poll_to_django_and_its_answer_is_kept(
    table: Table, site: KeptResponses, django_app: Django
) -> None:
    _, first, _ = call(site, live(table))
    assert table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]]).status_code == 201
    status, headers, body = call(site, live(table), if_none_match=first["ETag"])
    assert status == 200 and django_app.calls == 2
    assert json.loads(body) == table.state and json.loads(body)["seq"] == 2
    assert headers["ETag"] != first["ETag"]
    assert call(site, live(table), if_none_match=first["ETag"]) == (status, headers, body)
    assert django_app.calls == 2


def test_someone_signed_in_or_with_credentials_is_always_answered_by_django(
    table: Table, site: KeptResponses, django_app: Django
) -> None:
    call(site, live(table))
    assert django_app.calls == 1
    call(site, live(table), cookie="sessionid=whatever; csrftoken=abc")
    call(site, live(table), authorization="Token not-a-token")
    call(site, live(table), method="HEAD")
    assert django_app.calls == 4


def test_each_language_is_kept_apart(table: Table, site: KeptResponses, django_app: Django) -> None:
    _, sv, sv_body = call(site, live(table), accept_language="sv-SE,sv;q=0.9")
    _, en, en_body = call(site, live(table), accept_language="en")
    assert django_app.calls == 2
    assert sv["Content-Language"] == "sv" and en["Content-Language"] == "en"
    assert sv["ETag"] != en["ETag"] and sv_body == en_body
    assert call(site, live(table), accept_language="sv-SE,sv;q=0.9")[1] == sv
    assert call(site, live(table), accept_language="en")[1] == en
    # the language chosen with the site's switch (a cookie) is its own answer too
    _, chosen, _ = call(site, live(table), cookie="django_language=sv")
    assert chosen["Content-Language"] == "sv" and django_app.calls == 3


def test_a_tournament_made_private_stops_the_cached_answers_at_once(
    table: Table, site: KeptResponses, django_app: Django
) -> None:
    _, headers, _ = call(site, live(table))
    call(site, live(table))
    assert django_app.calls == 1
    match = match_of_table(table)
    organiser = match.tournament.organisers.get()
    tournament_update(tournament=match.tournament, by=organiser, is_public=False)
    assert call(site, live(table))[0] == 404
    assert call(site, live(table), if_none_match=headers["ETag"])[0] == 404
    assert django_app.calls == 3
    assert cache.get(public_key(table.match)) is None


def test_a_board_not_everyone_may_see_is_never_kept(
    site: KeptResponses, django_app: Django
) -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    Round.objects.filter(pk=match.round_id).update(published=False)
    table = Table(client_for(s.referee), match.pk)
    assert table.start().status_code == 201  # the staff record an unpublished round's match
    assert table.post("start", dice=[2, 5]).status_code == 201
    assert cache.get(public_key(table.match)) is None
    for _ in range(2):
        assert call(site, live(table))[0] == 404
    assert django_app.calls == 2


def test_a_failing_cache_sends_the_polls_to_django(
    table: Table, site: KeptResponses, django_app: Django, monkeypatch: pytest.MonkeyPatch
) -> None:
    call(site, live(table))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr("core.kept_responses.cache.get_many", broken)
    status, _, body = call(site, live(table))
    assert status == 200 and json.loads(body) == table.state and django_app.calls == 2


def test_other_paths_do_not_ask_the_cache(
    table: Table, site: KeptResponses, django_app: Django, monkeypatch: pytest.MonkeyPatch
) -> None:
    def asked(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the cache was asked")

    monkeypatch.setattr("core.kept_responses.cache.get_many", asked)
    for _ in range(2):
        assert call(site, f"/api/matches/{table.match}/")[0] == 200
    assert django_app.calls == 2


def test_the_middleware_keeps_only_a_marked_answer_for_nobody_in_particular() -> None:
    factory = RequestFactory()
    path = "/api/matches/5/live/"

    def kept(request: Any, response: HttpResponseBase) -> bool:
        cache.clear()
        KeptResponseMiddleware(lambda r: response)(request)
        return cache.get(request_key(request.META)) is not None

    assert kept(factory.get(path), response_keep(HttpResponse(b"{}"), version="1.0.1"))
    assert not kept(factory.get(path), HttpResponse(b"{}"))  # not marked
    with_cookie = response_keep(HttpResponse(b"{}"), version="1.0.1")
    with_cookie.set_cookie("csrftoken", "abc")
    assert not kept(factory.get(path), with_cookie)
    assert not kept(
        factory.get(path, HTTP_COOKIE="sessionid=x"),
        response_keep(HttpResponse(b"{}"), version="1.0.1"),
    )
    assert not kept(
        factory.get("/api/matches/5/"), response_keep(HttpResponse(b"{}"), version="1.0.1")
    )
    assert not kept(
        factory.get(path), response_keep(HttpResponse(b"{}", status=203), version="1.0.1")
    )


def match_of_table(table: Table) -> Any:
    from matches.models import Match

    return Match.objects.select_related("tournament").get(pk=table.match)
