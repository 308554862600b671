"""The schema is the truth: schemathesis runs every operation of ``/api/schema/``.

Each operation gets positive (schema-valid) and negative (schema-violating) requests,
generated from the schema with a fixed seed, sent in-process to the WSGI app as four
callers: the demo's organiser (``arrangor``), its referee (``domare``), a player
(``anna``) and anonymously. The path ids are the demo's own objects (a tournament of
each format, a match, an entry, a round, a player, a record, a season, a team) most of the
time, and a generated number otherwise, so most requests reach the code behind the 404.

A failure is any of: a server error (5xx); a response whose body the schema does not
describe; a status code the operation does not document; a content type it does not
declare; a schema-valid request refused. A schema-violating request accepted is counted
and printed but not failed: unknown body fields are ignored, as DRF does, on purpose.

"Refused" follows schemathesis's own rule (a positive request may get 2xx, 401, 403,
404, 409 or 429), with one decision of ours: a ``400`` whose error has no ``fields``
is a refusal by the tournament's rules, not by the request's shape (a date range
that ends before it starts, a result the match's game has no outcome for, a player not
in the match), which no schema can say; the schema documents it as the operation's
400. So is a 400 whose only field messages are DRF's "object does not exist" for an
id: the id is well formed, the object is not there. Any other 400 *with* ``fields`` is
the request's shape refused, so the schema lied: a failure.

The summary (operations, requests, failures by kind) is printed; run it alone with::

    .venv/bin/python -m pytest -p no:xdist -q -s tests/api/test_schemathesis.py

``SCHEMATHESIS_EXAMPLES`` sets the examples per operation, mode and path id (default 3,
about a thousand test cases; more for a deeper run); the seed is fixed, so a run repeats
the last one.
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from clubs import season_services
from matches.models import GameRecordSubmission, Match
from teams.rosters import roster_player_add
from teams.team_services import team_captains_set, team_create
from tournaments.models import Club, Entry, Player, Round, Tournament, TournamentFormat
from web.demo import demo_build

# The site's own URLs: a path the API does not have answers as the site answers it.
pytestmark = [pytest.mark.django_db, pytest.mark.urls("config.urls")]

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "3"))
ROLES = ("arrangor", "domare", "anna", None)
ACCEPTED_NEGATIVE = "Schema-violating request accepted"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
]


# DRF's answer to an id of no object: the id is well formed, the object is not there.
_MISSING = re.compile(r'Invalid pk "[^"]*" - object does not exist\.')


def _messages(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [m for v in value.values() for m in _messages(v)]
    if isinstance(value, list):
        return [m for v in value for m in _messages(v)]
    return [str(value)]


def _is_rule_refusal(response: Any) -> bool:
    """A 400 from the tournament's rules or the data (no per-field messages, or only
    "no such object" for ids), not from the request's shape."""
    if response.status_code != 400:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return False
    fields = error.get("fields")
    return not fields or all(_MISSING.fullmatch(m) for m in _messages(fields))


@pytest.fixture
def world() -> dict[str, Any]:
    """The demo (three formats, records, users in every role) and a season."""
    summary = demo_build(log=lambda _line: None)
    users = {
        name: get_user_model().objects.get(username=name)
        for name in ("arrangor", "domare", "anna", "admin")
    }
    club = Club.objects.order_by("pk").first()
    assert club is not None
    season = season_services.season_create(
        by=users["admin"],
        club=club,
        name="Säsong 2026",
        start_date=summary.tournament.start_date,
        end_date=summary.tournament.start_date.replace(month=12, day=31),
        tournament_taking_part=1,
        tournament_match_won=1,
        tournament_placings={"1": 5},
        club_night_taking_part=1,
        club_night_match_won=1,
        club_night_placings={},
    )
    # A team of the season, captained by the demo's player, with two of the club's players.
    team = team_create(season=season, name="Lag 1", by=users["admin"])
    team_captains_set(team=team, captains=[users["anna"]], by=users["admin"])
    on_roster = list(Player.objects.filter(club=club).order_by("pk")[:2])
    for player in on_roster:
        roster_player_add(team=team, player=player, by=users["admin"])
    tokens = {
        name: (users[name], Token.objects.get_or_create(user=users[name])[0].key)
        for name in ("arrangor", "domare", "anna")
    }
    tournaments = {
        fmt: Tournament.objects.filter(format=fmt).order_by("pk").values_list("pk", flat=True)[:1]
        for fmt in (TournamentFormat.KNOCKOUT, TournamentFormat.ROUND_ROBIN, TournamentFormat.SWISS)
    }
    ids = {
        "tournament": [pk for values in tournaments.values() for pk in values],
        "match": list(Match.objects.order_by("pk").values_list("pk", flat=True)[:2]),
        "entry": list(Entry.objects.order_by("pk").values_list("pk", flat=True)[:1]),
        "round": list(Round.objects.order_by("pk").values_list("pk", flat=True)[:1]),
        "player": list(Player.objects.filter(user=users["anna"]).values_list("pk", flat=True)[:1]),
        "record": list(
            GameRecordSubmission.objects.order_by("pk").values_list("pk", flat=True)[:1]
        ),
        "season": [season.pk],
        "club": [club.pk],
        "team": [team.pk],
        "team_player": [on_roster[0].pk],  # a team's path's {player}
    }
    return {"tokens": tokens, "ids": ids}


def _kind(path: str) -> str | None:
    """Which demo object the path's ``{id}`` names."""
    first = path.split("/")[2]
    return {
        "tournaments": "tournament",
        "matches": "match",
        "entries": "entry",
        "rounds": "round",
        "players": "player",
        "records": "record",
        "seasons": "season",
        "clubs": "club",
        "teams": "team",
    }.get(first)


@pytest.fixture(scope="module")
def api_schema() -> Any:
    from django.urls import clear_url_caches

    clear_url_caches()
    # Without the database: the handler's connection check would touch a connection an
    # earlier (transactional) test of this process left open, outside any test's access.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        return schemathesis.openapi.from_wsgi("/api/schema/?format=json", WSGIHandler())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def connections_kept() -> Iterator[None]:
    # The WSGI handler closes the database connection after each request; inside the
    # test's transaction that would end it (PostgreSQL). Django's test client does this too.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def quiet_request_log() -> Iterator[None]:
    # Thousands of 4xx answers are the point here, not news.
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL if not os.environ.get("SCHEMATHESIS_LOG") else level)
    yield
    logger.setLevel(level)


@pytest.fixture(autouse=True)
def fresh_throttle() -> Iterator[None]:
    # The token endpoint's password limit counts per address; only its key is cleared
    # (the cache may be Redis shared with Celery: never clear() it).
    cache.delete("throttle_api_token_password_127.0.0.1")
    yield
    cache.delete("throttle_api_token_password_127.0.0.1")


def _strategy(operation: Any, mode: GenerationMode, ids: dict[str, list[int]]) -> Any:
    path_names = [p.name for p in operation.path_parameters]
    fixed: list[dict[str, Any]] = []
    kind = _kind(operation.path)
    if "id" in path_names and kind is not None:
        for pk in ids[kind]:
            params: dict[str, Any] = {"id": pk}
            if "number" in path_names:
                params["number"] = 1
            if "game" in path_names:
                params["game"] = "brade"
            if "player" in path_names:
                params["player"] = ids["team_player"][0]
            fixed.append(params)
    strategies = [operation.as_strategy(mode, path_parameters=params) for params in fixed]
    strategies.append(operation.as_strategy(mode))
    return st.one_of(*strategies)


def _run(
    operation: Any,
    mode: GenerationMode,
    world: dict[str, Any],
    record: Callable[..., None],
    cases: Counter[str],
) -> None:
    headers = {
        role: ({"Authorization": f"Token {world['tokens'][role][1]}"} if role else {})
        for role in ROLES
    }

    def restore_tokens() -> None:
        # ``DELETE /api/token/`` revokes them: each example starts with every caller's own.
        for user, key in world["tokens"].values():
            Token.objects.filter(user=user).exclude(key=key).delete()
            Token.objects.get_or_create(key=key, defaults={"user": user})

    @seed(20)
    @settings(
        max_examples=EXAMPLES * (len(world["ids"].get(_kind(operation.path) or "", [])) + 1),
        phases=[Phase.explicit, Phase.generate],
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=_strategy(operation, mode, world["ids"]))
    def check(case: Any) -> None:
        cases[mode.value] += 1
        restore_tokens()
        for role in ROLES:
            cache.delete("throttle_api_token_password_127.0.0.1")
            response = case.call(headers=headers[role])
            record(operation, response, None)
            if mode is GenerationMode.POSITIVE and _is_rule_refusal(response):
                checks = [c for c in CHECKS if c is not positive_data_acceptance]
            else:
                checks = CHECKS
            try:
                case.validate_response(response, checks=checks)
            except FailureGroup as group:
                for failure in group.exceptions:
                    record(operation, response, failure, role=role, case=case)
            except Failure as failure:
                record(operation, response, failure, role=role, case=case)

    try:
        check()
    except Unsatisfiable:
        # Nothing to violate (no parameters, no body): the negative mode has no request.
        assert mode is GenerationMode.NEGATIVE, operation.label


def test_every_operation_answers_as_its_schema_says(api_schema: Any, world: dict[str, Any]) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    requests: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    failures: dict[str, set[str]] = defaultdict(set)
    cases: Counter[str] = Counter()

    def record(
        operation: Any,
        response: Any,
        failure: Failure | None,
        *,
        role: Any = None,
        case: Any = None,
    ) -> None:
        if failure is None:
            requests[operation.label] += 1
            statuses[response.status_code] += 1
            return
        body = response.text[:300].replace("\n", " ")
        detail = failure.message.replace("\n", " ")[:300]
        failures[failure.title].add(
            f"{operation.label} as {role or 'anonymous'}: {response.status_code} {body}"
            f" [{detail}]"
            f" ← {case.method} {case.formatted_path} query={case.query} body={case.body!r:.200}"
        )

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _run(operation, mode, world, record, cases)

    # Accepting more than the schema says is DRF's leniency, kept on purpose: unknown
    # body fields and query parameters are ignored, a limit out of range is clamped.
    # Counted and printed, not failed.
    lenient = {ACCEPTED_NEGATIVE: failures.pop(ACCEPTED_NEGATIVE, set())}
    total = sum(len(found) for found in failures.values())
    print(
        f"\nschemathesis: {len(operations)} operations, {sum(cases.values())} test cases "
        f"({cases['positive']} positive, {cases['negative']} negative), "
        f"{sum(requests.values())} requests (each case as 4 callers)"
    )
    print(f"statuses: {dict(sorted(statuses.items()))}")
    print(f"failures: {total}")
    for title, found in sorted({**failures, **lenient}.items()):
        print(f"  {title}: {len(found)}")
        for line in sorted(found)[:40]:
            print(f"    {line}")
    assert total == 0, (
        f"{total} distinct failures: {dict((t, len(f)) for t, f in failures.items())}"
    )


def test_every_bracket_section_answers_as_its_schema_says(api_schema: Any) -> None:
    """The demo has no consolation or double elimination: their brackets (a main bracket
    and sections in one shape, a section's place the byes emptied as null) are read here
    and checked against the schema the same way."""
    from tests.tournaments.test_elimination_formats import drawn

    operation = api_schema["/api/tournaments/{id}/bracket/"]["GET"]
    formats: list[tuple[str, dict[str, Any]]] = [
        ("consolation", {"progressive_consolation": True, "consolation_third_place": True}),
        ("double_elimination", {}),
    ]
    for format, options in formats:
        t, _referee, _players = drawn(5, format, **options)
        case = operation.Case(path_parameters={"id": t.pk})
        response = case.call()
        assert response.status_code == 200
        body = response.json()
        rounds = [r for section in body["sections"] for r in section["rounds"]]
        assert any(m is None for r in rounds for m in r["matches"]), format
        case.validate_response(response, checks=[response_schema_conformance])
