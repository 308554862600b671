"""A number past what the database stores, in a path or a query, is a 404 or a 400,
never a server error (core/path_converters.py, core.bounds.parse_db_id).

Scans rather than samples: every route of the site (pages and API) with each of its
numbers at the largest its converter takes and one past it, and every integer query
parameter of the API's schema (its filters, pagination and the views' own) with values
past every column. Runs against the demo, so the other numbers of a path name real
objects and the request reaches the lookup of the number under test. Run it on
PostgreSQL too (``DATABASE_URL``): there an ``integer`` column past 2³¹ fails where
SQLite's 64 bits do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from drf_spectacular.generators import SchemaGenerator

from core.bounds import DB_ID_MAX, DB_INT_MAX
from core.path_converters import IdConverter
from matches.models import Game, GameRecordSubmission, Match
from tournaments.models import Club, Entry, Player, Round, Tournament
from web.demo import demo_build

pytestmark = [pytest.mark.django_db, pytest.mark.urls("config.urls")]

# Past an ``integer`` column, past a ``bigint``, past SQLite's 64 bits by far.
HUGE = (DB_INT_MAX + 1, DB_ID_MAX + 1, 15732293594263865786368)
# A value for a path's text parts (``<str:fmt>``, ``<str:game>``).
TEXT = {"fmt": "csv", "game": "brade", "token": "x", "action": "confirm"}


def _routes(
    patterns: list[URLPattern | URLResolver] | None = None, prefix: str = ""
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every route of the site: its full route text and its converters."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        converters = dict(getattr(entry.pattern, "converters", {}))
        if isinstance(entry, URLResolver):
            for sub, sub_converters in _routes(entry.url_patterns, route):
                yield sub, {**converters, **sub_converters}
        else:
            yield route, converters


@pytest.fixture
def demo() -> dict[str, int]:
    """The demo; the id of an object of each kind a path names."""
    demo_build(log=lambda _line: None)

    def first(model: Any) -> int:
        pk = model.objects.order_by("pk").values_list("pk", flat=True).first()
        return 1 if pk is None else int(pk)

    return {
        "tournaments": first(Tournament),
        "matches": first(Match),
        "entries": first(Entry),
        "rounds": first(Round),
        "players": first(Player),
        "records": first(GameRecordSubmission),
        "clubs": first(Club),
        "games": first(Game),
    }


@pytest.fixture
def admin_client() -> Client:
    """A superuser, so that no permission check stops a request before its lookups."""
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.get(username="admin"))
    return client


def _fill(route: str, values: dict[str, int], demo: dict[str, int]) -> str:
    """The route with ``values`` for the numbers named, a demo object's id for the
    other numbers (by the word before them) and a plausible word for text."""

    def part(match: re.Match[str]) -> str:
        converter, name = match.group(1), match.group(2)
        if name in values:
            return str(values[name])
        if converter in ("id", "num", "int"):
            before = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
            return str(demo.get(before, 1))
        return TEXT.get(name, "x")

    return "/" + re.sub(r"<(\w+):(\w+)>", part, route).lstrip("^").rstrip("$")


def test_no_route_takes_an_unbounded_number() -> None:
    """Django's ``<int:…>`` takes any digits: each route bounds its numbers instead."""
    unbounded = [
        route
        for route, converters in _routes()
        if any(isinstance(c, IntConverter) for c in converters.values())
    ]
    assert unbounded == []
    numbers = [
        c for _route, converters in _routes() for c in converters.values() if c.regex == "[0-9]+"
    ]
    assert numbers and all(isinstance(c, IdConverter) for c in numbers)


def test_a_number_past_its_column_in_any_path_is_a_404(
    demo: dict[str, int], admin_client: Client
) -> None:
    """Each number of each route at its converter's largest value answers below 500, read
    (GET) and sent to (POST, an empty form: the view looks the number up first), and one
    past it is the site's 404: no route matches. The admin's own catch-all route answers
    for its pages instead (a redirect: no such object)."""
    failures: list[str] = []
    checked = 0
    for route, converters in _routes():
        for name, converter in converters.items():
            if not isinstance(converter, IdConverter):
                continue
            checked += 1
            largest = _fill(route, {name: converter.maximum}, demo)
            for method in ("get", "post"):
                response = getattr(admin_client, method)(largest)
                if response.status_code >= 500:
                    failures.append(f"{method} {largest} → {response.status_code}")
            for value in (converter.maximum + 1, *HUGE):
                if value <= converter.maximum:
                    continue
                url = _fill(route, {name: value}, demo)
                response = admin_client.get(url)
                if url.startswith("/admin/"):
                    if response.status_code >= 500:
                        failures.append(f"get {url} → {response.status_code}")
                elif response.status_code != 404:
                    failures.append(f"get {url} → {response.status_code}")
                elif url.startswith("/api/"):
                    assert response.json()["error"]["code"] == "not_found"
    assert checked > 100
    assert failures == []


def _query_integers() -> Iterator[tuple[str, str]]:
    """Every GET operation's integer (or number) query parameter in the API's schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        for parameter in operation.get("parameters", []):
            kind = parameter.get("schema", {}).get("type")
            if parameter["in"] == "query" and kind in ("integer", "number"):
                yield path, parameter["name"]


def test_a_number_past_every_column_in_any_query_of_the_api_is_refused(
    demo: dict[str, int], admin_client: Client
) -> None:
    """A filter's id, ``limit``, ``offset`` and the views' own numbers (the ratings'
    ``club``): 400 with the API's error past any id (an ``offset`` up to it may be an
    empty page), never a 500."""
    failures: list[str] = []
    found = list(_query_integers())
    assert {("/api/ratings/", "club"), ("/api/matches/", "round")} <= set(found)
    for path, name in found:
        route = re.sub(r"\{(\w+)\}", r"<id:\1>", path.lstrip("/"))
        # a round is named by its number in a path (the first round), not by its id
        base = _fill(route, {"number": 1}, demo)
        extra = "&game=brade" if "ratings" in path else ""
        for value in HUGE:
            url = f"{base}?{name}={value}{extra}"
            response = admin_client.get(url)
            if response.status_code == 400:
                assert response.json()["error"]["code"] == "invalid", url
            # An ``offset`` past the rows is an empty page; past any id, it is refused too.
            elif value > DB_ID_MAX or response.status_code != 200:
                failures.append(f"{url} → {response.status_code}")
    assert failures == []


@pytest.mark.parametrize(
    "url",
    [
        "/ratings/?club={n}",
        "/ratings/?game=backgammon&club={n}",
        "/ratings/export.csv?club={n}",
        "/ratings/?page={n}",
    ],
)
def test_a_number_past_every_column_in_a_pages_query_is_not_a_server_error(
    url: str, demo: dict[str, int], admin_client: Client
) -> None:
    """A page's filter by an unknown club is its 404 (as a club that is not a number)."""
    for value in HUGE:
        response = admin_client.get(url.format(n=value))
        assert response.status_code in (200, 404), (url, value, response.status_code)
        if "club" in url:
            assert response.status_code == 404
