"""Test settings: fast password hashing, Celery eager even when REDIS_URL is set.

``REDIS_URL`` stays as given, so the health check and tests that need a real broker or
worker can use it; such a test switches eagerness off itself (``settings`` fixture).
With ``DATABASE_URL`` set to PostgreSQL, pytest-django creates ``test_<name>`` databases
(``test_<name>_gw0`` ... under pytest-xdist) and drops them afterwards.
"""

import os

from .base import *  # noqa: F403
from .base import DATABASES, PUSH_CHANNEL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_STORE_EAGER_RESULT = False

# Tests run with DEBUG=False and no collectstatic: WhiteNoise finds files through the
# staticfiles finders, as under runserver.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# Every test sees a fresh connection state; persistent connections only add noise here.
DATABASES["default"]["CONN_MAX_AGE"] = 0

# pytest-xdist's workers each test on a database of their own (``test_<name>_gw0`` ...) but
# share the machine's Redis: each hears only its own push messages (push.broker), as two
# sites on one Redis do. A server a test starts inherits the worker's name.
PUSH_CHANNEL = f"{PUSH_CHANNEL}:{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
