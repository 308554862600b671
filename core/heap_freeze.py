"""A web process's long-lived objects kept out of the way of Python's full collections.

Python's cyclic garbage collector walks every object it tracks in a full (generation 2)
collection. A gunicorn worker tracks about 170,000 objects that live as long as it does
once ``config.wsgi`` and the URL conf are imported: Django's apps and models, every view
and serializer, the translation catalogues, then compiled templates and the engine's
tables. Measured in-process on the live board's turns (PostgreSQL, 480 turns of 8
tables): a full collection took about 110 ms, one came every 35 turns or so, and the
turn that met one took 120–140 ms instead of about 15 ms, with every request queued
behind it in a sync worker waiting as long.
``gc.freeze()`` moves the objects tracked so far into the permanent generation, which
collections do not walk: after it a full collection took about 13 ms, and the slowest
turn of a game 32 ms.

``HeapFrozenAfterWarmup`` wraps the WSGI application (``config/wsgi.py``). A worker
makes most of its long-lived objects on its first requests (Django imports the URL conf,
the views and the serializers on the first, and compiles a template the first time it is
shown), so it collects and freezes at the start of the process's requests number
``FREEZE_AT``: the 2nd (what the first request loaded), the 101st and the 1,001st (what
the first pages used). At the start of a request, so that in a sync worker no other
request is in flight: the full collection before the freeze (about 100 ms, the first
time) is paid by those three requests, once in the process's life.

Decided (cost): an object alive at a freeze that later becomes garbage held in a
reference cycle is never collected (objects freed by their reference count go as
always). A freeze follows a full collection, so what can stay behind is what was alive
at that moment between two requests: the process's caches, such as the live games kept
replayed between their turns (``scoresheets.services``, at most 256). Three times in a
process's life, a few megabytes at most.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable
from typing import Any

from core.wsgi_types import StartResponse, Wsgi

__all__ = ["FREEZE_AT", "HeapFrozenAfterWarmup"]

# The requests (counted from 1 in each process) at whose start the heap is frozen.
FREEZE_AT = frozenset({2, 101, 1001})


class HeapFrozenAfterWarmup:
    """The WSGI application ``app``, freezing the process's heap at the start of its
    requests number ``FREEZE_AT`` (module doc)."""

    def __init__(self, app: Wsgi) -> None:
        self.app = app
        self.requests = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        with self._lock:
            self.requests += 1
            if self.requests in FREEZE_AT:
                gc.collect()
                gc.freeze()
        return self.app(environ, start_response)
