"""The Celery application (``celery -A config worker``).

Configuration comes from Django settings, the ``CELERY_*`` names (``config/settings/base.py``):
JSON only, late acknowledgement with ``reject_on_worker_lost`` (tasks are idempotent), soft
and hard time limits. Tasks are found in each installed app's ``tasks.py``.

Without ``REDIS_URL`` tasks run in-process (eager); with it, Redis is broker and result
backend and one or more workers run the tasks.

Beat (``celery -A config beat``, or ``--beat`` on exactly one worker) runs
``matches.requeue_game_records`` every minute: game records submitted while Redis was
down stay pending in the database and are enqueued once it is back, and records whose
worker died mid-verification are retried (their attempt counter bounds the retries).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("brade_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

REQUEUE_EVERY_SECONDS = 60.0
app.conf.beat_schedule = {
    "requeue-game-records": {
        "task": "matches.requeue_game_records",
        "schedule": REQUEUE_EVERY_SECONDS,
    },
}
