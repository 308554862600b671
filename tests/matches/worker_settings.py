"""Settings for the real Celery workers started by ``test_worker.py`` (and ``bench/``).

The worker is a separate process, so it must reach the test database by name
(``BRADE_WORKER_DB_NAME``; unset, ``DATABASE_URL``'s database) and use a queue of its
own (``BRADE_QUEUE``, the same as given to ``-Q``). Time limits come from the environment as in
production (``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``, and the broker's
visibility timeout follows the hard one: ``config/settings/base.py``). Two test knobs: a
verification delay (``BRADE_VERIFY_DELAY``, seconds) lets a test kill the worker while it
is verifying, and ``BRADE_LEASE_SECONDS`` shortens the attempt's lease.
"""

from __future__ import annotations

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES

if os.environ.get("BRADE_WORKER_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["BRADE_WORKER_DB_NAME"]
CELERY_TASK_ALWAYS_EAGER = False
# The queue the worker listens on (``-Q``) is also where it sends the messages it enqueues
# itself (a record given back after running out of time).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("BRADE_QUEUE", "celery")
GAME_RECORD_VERIFY_DELAY = float(os.environ.get("BRADE_VERIFY_DELAY", "0"))
GAME_RECORD_LEASE_SECONDS = float(os.environ.get("BRADE_LEASE_SECONDS", "15"))
