"""The Celery application (``celery -A config worker``).

Configuration comes from Django settings, the ``CELERY_*`` names (``config/settings/base.py``):
JSON only, late acknowledgement with ``reject_on_worker_lost`` (tasks are idempotent), soft
and hard time limits (``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``, which
every task uses), and a Redis visibility timeout just over the hard limit, so that the task
of a worker killed outright is delivered again within about the hard limit + 15 s. Tasks
are found in each installed app's ``tasks.py``.

Without ``REDIS_URL`` tasks run in-process (eager); with it, Redis is broker and result
backend and one or more workers run the tasks.

Beat (``celery -A config beat``, or ``--beat`` on exactly one worker) runs
``matches.requeue_game_records`` every 30 seconds, the safety net: game records submitted
while Redis was down stay pending in the database and are enqueued once it is back, and a
record whose message the broker lost (Redis restarted empty: it keeps nothing on disk) is
sent a new one, found by comparing the records waiting for their message with what Redis
holds (``matches/record_broker.py``), so it is verified within a minute of Redis being
back rather than when its message would have expired (``GAME_RECORD_MESSAGE_TTL``).
A record whose worker died mid-verification does not wait for beat: its message comes back
from the broker and takes the record over once the dead attempt's lease has run out
(``matches/record_queue.py``); the attempt counter bounds the retries.
"""

import os

from celery import Celery

from matches.task_names import REQUEUE_GAME_RECORDS

# Workers and beat are servers: production settings unless DJANGO_SETTINGS_MODULE says
# otherwise (as config/wsgi.py); development and the tests name theirs.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("brade_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

REQUEUE_EVERY_SECONDS = 30.0
app.conf.beat_schedule = {
    "requeue-game-records": {
        "task": REQUEUE_GAME_RECORDS,
        "schedule": REQUEUE_EVERY_SECONDS,
    },
}
