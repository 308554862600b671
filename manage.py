#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

Development settings (``config.settings.base``) unless ``DJANGO_SETTINGS_MODULE`` says
otherwise, unlike the servers' entry points (``config/wsgi.py``, ``asgi.py``,
``celery.py``), which default to production. A deliberate difference: ``manage.py`` is
the command line of a developer at a checkout and of the tools the README gives to
everyone (``replay``, ``bg_moves``, ``seed_demo``, ``compilemessages``), which need no
secret key; the only server it starts is ``runserver``, Django's development server,
bound to 127.0.0.1 unless told otherwise. A production machine sets
``DJANGO_SETTINGS_MODULE=config.settings.production`` in its environment (README), so
``migrate`` and ``collectstatic`` there run on production settings.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")  # see above
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
