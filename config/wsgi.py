"""WSGI entry point (gunicorn ``config.wsgi``).

Production settings unless ``DJANGO_SETTINGS_MODULE`` says otherwise: a server started
without it refuses to run without ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``
rather than serve debug pages with the public development key
(``config/settings/production.py``). Development opts in with
``DJANGO_SETTINGS_MODULE=config.settings.base``.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_wsgi_application()
