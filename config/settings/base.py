"""Base settings, read from the environment (cookiecutter-django style).

Environment variables (all optional here; ``production.py`` makes some required):

- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/name``. Default: the SQLite file
  ``db.sqlite3`` in the project folder (the *embedded default*).
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``. With it, Redis is Celery's broker and
  result backend and tasks run on workers (``celery -A config worker``). Without it, Celery
  tasks run in-process, at the moment they are enqueued (eager).
- ``DJANGO_SECRET_KEY``: default: a development key that must never be used in production.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated host names. Default: ``127.0.0.1,localhost``.
- ``DJANGO_DEBUG``: ``true``/``false``. Default: true here, false in production.
- ``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``: seconds per task.
"""

from __future__ import annotations

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

SECRET_KEY: str = env.str("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me")
DEBUG: bool = env.bool("DJANGO_DEBUG", default=True)
ALLOWED_HOSTS: list[str] = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "tournaments",
    "matches",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "web.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# Sign-in for organisers and referees on the pages (players too, to upload records).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "web:tournament_list"
LOGOUT_REDIRECT_URL = "web:tournament_list"

# --- Database -------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Keep PostgreSQL connections open between requests (SQLite ignores this).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Language, time -------------------------------------------------------------------
LANGUAGE_CODE = "sv"
LANGUAGES = [("sv", "Svenska"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Stockholm"
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise) ----------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# --- Celery ---------------------------------------------------------------------------
# With REDIS_URL, Redis is broker and result backend; without it, tasks run in-process
# (eager), so the embedded default needs no broker and no worker.
REDIS_URL: str | None = env.str("REDIS_URL", default="") or None
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Our tasks only look an id up and call a service, and are written to be idempotent, so
# they are acknowledged after they ran: a task whose worker dies is delivered again.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# With late acks a worker should hold only the task it is running.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Soft limit raises SoftTimeLimitExceeded inside the task (it can record the failure);
# the hard limit kills the worker process.
CELERY_TASK_SOFT_TIME_LIMIT: int = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT: int = env.int("CELERY_TASK_TIME_LIMIT", default=150)
# An unacknowledged task is redelivered by Redis after this many seconds; it must be
# longer than the hard time limit, or a slow task would run twice at the same time.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_RESULT_EXPIRES = 60 * 60 * 24
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_TRACK_STARTED = True

# --- Django REST framework, OpenAPI ---------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Bräde Arena API",
    "DESCRIPTION": "Tournaments, matches and verified game records of bräde.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's Swagger UI comes from our own static files (no CDN): it works on a
    # closed network and leaks nothing to third parties.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Shared choice sets get one name each, so `manage.py spectacular --fail-on-warn` passes.
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "matches.models.SideChoice.choices",
        "MatchStateEnum": "matches.models.MatchState.choices",
        "RecordStateEnum": "matches.models.RecordState.choices",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus.choices",
    },
}

# --- Logging: everything to stderr, the process manager keeps it ----------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    # runserver prints its own reload notices; don't repeat them.
    "loggers": {"django.utils.autoreload": {"level": "WARNING"}},
}
