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

A worker killed outright (SIGKILL, power cut) loses only what it was running. The standard
pair Celery documents for this, late acknowledgement (``task_acks_late``) with a prefetch
multiplier of 1 (``worker_prefetch_multiplier``), makes a worker take from Redis no more
messages than it has processes, each acknowledged only once its task has returned; a
message with a countdown it holds (a webhook's retry) raises its prefetch by one and
takes that one place itself. So the records still queued stay in Redis's list, where a
restarted worker (or any other) takes them up at once; only the messages of the attempts
that were running sit in kombu's ``unacked`` hash until the visibility timeout (the hard
limit + 10 s), when a live worker puts them back (``config/settings/base.py``).
``bench/reliability.py``'s worker kill measures both: the queued records' first attempt
within 10 s of the restart, with no pause as long between them, and the running ones'
verdicts within the hard limit + 30 s.
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
