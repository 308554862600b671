"""gunicorn's settings for the embedded default, the server ``scripts/run.sh`` starts.

``gunicorn -c config/gunicorn_embedded.py config.wsgi``: a real WSGI server for a club's
evening, in place of Django's development server (which is not made to hold one: it grew
without bound under an evening's load and died).

- **One process, several threads** (``gthread``; ``GUNICORN_THREADS``, default 8). One
  process because the embedded default keeps its cache in the process's memory (no
  ``REDIS_URL``: ``config/settings/base.py``): the live boards' kept answers and versions,
  the sign-in limit. Two processes would each keep their own and answer from a stale one.
  Threads let a slow request (a PDF, a draw) not hold up the phones; SQLite is set up for
  them (``config/sqlite_options.py``). With ``REDIS_URL`` set, run the production way
  (README: several workers, a Celery worker and beat).
- **The in-process beat** (``config/embedded_beat.py``) starts in that one process after
  it has loaded the site: the sweep that retries a game record whose verification failed.
- **Where gunicorn does not run** (Windows without WSL: it needs a Unix), run the project
  in WSL; ``python manage.py runserver`` still serves for development, without the beat.
- ``ADDR`` in ``runserver``'s forms (``8000``, ``0.0.0.0:8000``, ``[::]:8000``); errors on
  the console, no line per request (``GUNICORN_ACCESS_LOG=-`` prints them).
"""

from __future__ import annotations

import os
from typing import Any

from config.serve_address import bind_address_for

bind = [bind_address_for(os.environ.get("ADDR", "127.0.0.1:8000"))]
workers = 1
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# A request may take a while on a slow laptop (a season's PDF), never a minute.
timeout = 60
graceful_timeout = 10
# gunicorn 27's control socket sits at one fixed path per user (~/.gunicorn/gunicorn.ctl):
# a second server on the machine (a bench, another club's copy) would take it over. The
# embedded default has no use for it.
control_socket_disable = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = "info"


def post_worker_init(worker: Any) -> None:
    """The worker has loaded the site: start the in-process beat in it (one process)."""
    from config.embedded_beat import embedded_beat_start

    embedded_beat_start()
