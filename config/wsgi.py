"""WSGI entry point (gunicorn ``config.wsgi``).

Production settings unless ``DJANGO_SETTINGS_MODULE`` says otherwise: a server started
without it refuses to run without ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``
rather than serve debug pages with the public development key
(``config/settings/production.py``). Development opts in with
``DJANGO_SETTINGS_MODULE=config.settings.base``.

Django's application is wrapped by ``core.kept_responses.KeptResponses``: what a crowd
polls (a live board) is answered from the cache while it has not changed; and that by
``core.heap_freeze.HeapFrozenAfterWarmup``: the worker's long-lived objects are frozen
after its first requests, so Python's full garbage collections stay short.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_application = get_wsgi_application()

from core.heap_freeze import HeapFrozenAfterWarmup  # noqa: E402
from core.kept_responses import KeptResponses  # noqa: E402  (Django is set up above)

application = HeapFrozenAfterWarmup(KeptResponses(django_application))
