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
