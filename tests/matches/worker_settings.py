"""Settings for the real Celery worker started by ``test_worker.py``.

The worker is a separate process, so it must use the test database by name
(``BRADE_WORKER_DB_NAME``) and a queue of its own (given on its command line). A
verification delay lets the test kill the worker while it is verifying; a short
staleness lets the requeue sweep take the record over after the kill.
"""

from __future__ import annotations

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES

DATABASES["default"]["NAME"] = os.environ["BRADE_WORKER_DB_NAME"]
CELERY_TASK_ALWAYS_EAGER = False
GAME_RECORD_VERIFY_DELAY = float(os.environ.get("BRADE_VERIFY_DELAY", "0"))
GAME_RECORD_STALE_SECONDS = float(os.environ.get("BRADE_STALE_SECONDS", "300"))
