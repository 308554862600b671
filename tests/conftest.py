"""Project-wide pytest set-up.

Hypothesis profiles (``HYPOTHESIS_PROFILE`` picks one; CI=true picks ``ci``):

- ``dev``: random examples, no deadline.
- ``ci``: the same but derandomized, so a CI run is reproducible and a red run can be
  re-run to the same failure.

No profile has a deadline or the ``too_slow`` health check: both are timings, and the
machines are shared 2-core boxes; speed is measured in ``bench/``, never asserted in tests.

Django settings are ``config.settings.test`` (pyproject.toml): Celery eager, and
``DATABASE_URL`` / ``REDIS_URL`` honoured when set.

Language: every test starts in English (``english_by_default``), so a service called
directly gives its messages as written in the code, whatever an earlier test's request
left active in the thread. Requests still choose their own language
(``web.middleware.ChosenLanguageMiddleware``: Swedish pages, English API by default).

The PostgreSQL + Redis pass (``--database-pass``, CI's second run of the suite): the
tests of the pure packages (``PURE_PACKAGES``: the engine, scoring, the stages, the games'
rules and readers, ratings, the formats' pairings) that reach no database are deselected
there (pytest's summary counts them): they ran in the embedded pass, and their outcome
does not depend on the database or the broker. So are the browser tests (``tests/e2e``):
they check what a person sees, which is the same on either database, and they ran in the
embedded pass; the server side of every page they use is tested on PostgreSQL by the
pages' and the API's own tests. Everything else runs in both passes (CI's budget: the
two passes took 876 s and 976 s on a quiet machine, with the browser tests in both).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.utils import translation
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    derandomize=True,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(autouse=True)
def english_by_default() -> Iterator[None]:
    with translation.override("en"):
        yield


# The packages whose database-free tests run in the embedded pass only (module docstring).
PURE_PACKAGES = ("engine", "scoring", "stages", "backgammon", "games", "ratings", "formats")
_DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "live_server",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
    }
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-pass",
        action="store_true",
        help="the PostgreSQL + Redis pass: leave out the browser tests and the pure "
        "packages' tests that reach no database (they ran in the embedded pass)",
    )


def _reaches_no_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return False
    return not (_DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def _in_pure_package(item: pytest.Item, root: str) -> bool:
    parts = os.path.relpath(str(item.path), root).split(os.sep)
    return len(parts) > 2 and parts[0] == "tests" and parts[1] in PURE_PACKAGES


def _in_browser_tests(item: pytest.Item, root: str) -> bool:
    parts = os.path.relpath(str(item.path), root).split(os.sep)
    return parts[:2] == ["tests", "e2e"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--database-pass"):
        return
    root = str(config.rootpath)
    left = [
        i
        for i in items
        if _in_browser_tests(i, root) or (_in_pure_package(i, root) and _reaches_no_database(i))
    ]
    if left:
        gone = set(left)
        config.hook.pytest_deselected(items=left)
        items[:] = [i for i in items if i not in gone]


def pytest_report_header(config: pytest.Config) -> str | None:
    if config.getoption("--database-pass"):
        return (
            "database pass: the browser tests and the pure packages' tests that reach no "
            f"database are left out ({', '.join(PURE_PACKAGES)}; they ran in the embedded pass)"
        )
    return None
