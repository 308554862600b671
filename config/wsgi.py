"""WSGI entry point (gunicorn ``config.wsgi``).

Production settings unless ``DJANGO_SETTINGS_MODULE`` says otherwise: a server started
without it refuses to run without ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``
rather than serve debug pages with the public development key
(``config/settings/production.py``). Development opts in with
``DJANGO_SETTINGS_MODULE=config.settings.base``.

Django's application is wrapped by ``core.kept_responses.KeptResponses``: what a crowd
polls (a live board) is answered from the cache while it has not changed.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_application = get_wsgi_application()

from core.kept_responses import KeptResponses  # noqa: E402  (Django is set up above)

application = KeptResponses(django_application)
