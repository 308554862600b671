"""Base settings, read from the environment (cookiecutter-django style).

Environment variables (all optional here; ``production.py`` makes some required):

- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/name``. Default: the SQLite file
  ``db.sqlite3`` in the project folder (the *embedded default*).
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``. With it, Redis is Celery's broker and
  result backend and tasks run on workers (``celery -A config worker``). Without it, Celery
  tasks run in-process, at the moment they are enqueued (eager).
- ``DJANGO_SECRET_KEY``: default: a development key that must never be used in production.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated host names. Default: ``127.0.0.1,localhost``.
- ``DJANGO_DEBUG``: ``true``/``false``. Default: true here; refused in production.
- ``DJANGO_TRUSTED_PROXIES``: comma-separated addresses or networks of the reverse proxies
  whose ``X-Forwarded-For`` is believed (``127.0.0.1,10.0.0.0/8``). Default: none, the
  client's address is the connection's (``accounts/client_address.py``).
- ``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``: seconds per task.
- ``WEBHOOKS_ALLOW_PRIVATE``: ``true`` lets webhooks deliver to private, loopback and
  link-local addresses (a receiver on this machine or network). Default: false (refused).
- ``WEBHOOKS_TIMEOUT``, ``WEBHOOKS_BACKOFF_BASE``, ``WEBHOOKS_MAX_ATTEMPTS``,
  ``WEBHOOKS_QUEUE``: webhook delivery (seconds to connect/read, first retry's delay,
  attempts in all, the Celery queue; empty: the default one).
- ``EMAIL_URL``: where notification mails go (django-environ's form:
  ``smtp+tls://user:password@mail.example.org:587``). Default: ``consolemail://``, the mails
  printed on the console (the demo's).
- ``DEFAULT_FROM_EMAIL``: the mails' sender. Default: ``Bräde Arena <noreply@localhost>``.
- ``SITE_URL``: the site's address, for the links in mails. Default: ``http://127.0.0.1:8000``.
- ``SQLITE_BUSY_TIMEOUT_SECONDS``: how long a writer waits for SQLite's write lock before
  "database is locked" (the embedded default only). Default: 20.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from config.sqlite_options import SQLITE_ENGINE, sqlite_server_options

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
    "accounts",
    "tournaments",
    "matches",
    "clubs",
    "teams",
    "webhooks",
    "notifications",
    "scoresheets",
    "web",
    "push",
]

MIDDLEWARE = [
    # Outermost: keeps the answers a crowd polls as they leave (core/kept_responses.py).
    "core.kept_responses.KeptResponseMiddleware",
    # Under /api/ an error answer not in the API's JSON shape gets it (config/errors.py).
    "config.errors.ApiErrorBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "web.middleware.ChosenLanguageMiddleware",
    # The database down: 503 with Retry-After instead of a bare 500 (config/unavailable.py).
    "config.unavailable.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.SignInLockoutMiddleware",
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
# Signed in without a page to return to: the person's home (what waits for them).
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:tournament_list"

# --- Signing in: one limit on failed sign-ins for every way in (accounts/signin_limit.py) --
# Django's ModelBackend behind the limit: the only backend, so every password check counts.
AUTHENTICATION_BACKENDS = ["accounts.backends.LimitedModelBackend"]
SIGNIN_FAILURES_PER_ACCOUNT = 10  # failures of one user name within the window lock it
SIGNIN_FAILURES_PER_ADDRESS = 30  # failures from one client address lock the address
SIGNIN_FAILURE_WINDOW = 15 * 60  # seconds
# Passwords chosen on the site (sign-up, reset): Django's four checks (at least 8
# characters, not a common one, not all digits, not like the user name or e-mail).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Reverse proxies whose X-Forwarded-For is believed (accounts/client_address.py); none by
# default: the client's address is REMOTE_ADDR whatever the header says.
TRUSTED_PROXIES: list[str] = env.list("DJANGO_TRUSTED_PROXIES", default=[])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy.strip(), strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(
            f"DJANGO_TRUSTED_PROXIES: {_proxy!r} is not an address or network."
        ) from _error

# --- Database -------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Keep PostgreSQL connections open between requests (SQLite ignores this).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# SQLite set up for a server: WAL, write lock taken at a transaction's start, a busy timeout
# (config/sqlite_options.py).
SQLITE_BUSY_TIMEOUT_SECONDS: float = env.float("SQLITE_BUSY_TIMEOUT_SECONDS", default=20.0)
if DATABASES["default"]["ENGINE"] == SQLITE_ENGINE:
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        sqlite_server_options(busy_timeout_seconds=SQLITE_BUSY_TIMEOUT_SECONDS)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Language, time -------------------------------------------------------------------
LANGUAGE_CODE = "sv"
# Swedish, the site's default; English; Danish for the Danish backgammon players. Every
# language of this list has a catalogue (locale/<code>/LC_MESSAGES), the switch on every
# page offers each, and the API answers in each (web.middleware).
LANGUAGES = [("sv", "Svenska"), ("en", "English"), ("da", "Dansk")]
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

# --- Push (push/__init__.py, README "Push") ----------------------------------------------
# The pages ask for a stream of their changes only where the site serves them: an ASGI
# server (uvicorn, config/asgi.py) answering /push/. Off by default: the embedded default
# (gunicorn, WSGI) keeps polling as it always did.
PUSH_STREAMS: bool = env.bool("DJANGO_PUSH", default=False)
# The bus: Redis pub/sub on REDIS_URL (else within the process), on one channel named after
# the database, so two sites or test runs sharing one Redis do not hear each other.
PUSH_CHANNEL = f"brade-push:{Path(str(DATABASES['default'].get('NAME') or 'default')).name}"
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
# the hard limit kills the worker process. The only source of the limits: the tasks set
# none of their own, so a worker applies these (and a record's messages quote them).
CELERY_TASK_SOFT_TIME_LIMIT: int = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT: int = env.int("CELERY_TASK_TIME_LIMIT", default=150)
# A worker process that dies mid-task: its parent hands the message back at once
# (reject_on_worker_lost). A whole worker that dies (SIGKILL, power cut) never hands it
# back: Redis keeps it as unacknowledged, and a live worker puts it back in the queue
# once it is ``visibility_timeout`` seconds old, checking every ``unacked_restore_interval``
# seconds (throttle 1: every check scans). The timeout must exceed the longest a live
# worker holds a message, the hard time limit (with prefetch 1 it holds no more than it
# runs), or a running task would be delivered a second time (harmless, the record's
# lease makes the copy stand back, but wasted); close to it, so that such a record is
# verified again within about the hard limit + 15 s (kombu's default is one hour).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 10,
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
}
CELERY_RESULT_EXPIRES = 60 * 60 * 24
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_TRACK_STARTED = True

# --- E-mail (notifications: ``notifications/services.py``) ------------------------------
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL: str = env.str("DEFAULT_FROM_EMAIL", default="Bräde Arena <noreply@localhost>")
SITE_URL: str = env.str("SITE_URL", default="http://127.0.0.1:8000")

# --- Cache ----------------------------------------------------------------------------
# The live pages' rendered fragments (``web/live.py``): in Redis when REDIS_URL is set,
# shared by every process; else each process's own memory. Redis is shared with Celery's
# broker, so nothing may call ``cache.clear()`` (it would empty the broker's database too).
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- Game-record verification (matches/records.py, record_queue.py) ---------------------
# A verifying attempt's lease: renewed every third of it by its worker; an attempt whose
# lease ran out is dead, and the record is taken over at once. Keep it well under the
# soft time limit (a redelivered task waits up to this long inside its own time limit).
GAME_RECORD_LEASE_SECONDS = 15.0
# A record's broker message expires after this long (and the sweep may then send another):
# longer than a message can wait legitimately (queue, redelivery after a dead worker).
GAME_RECORD_MESSAGE_TTL = 900.0
# Beat's sweep sends a new message to a record whose message Redis no longer holds (lost in
# a restart); it reads Redis twice this many seconds apart before it believes a message lost.
GAME_RECORD_BROKER_RECHECK = 2.0
# The sweep leaves a record submitted less than this ago to its own on-commit enqueue.
GAME_RECORD_PENDING_GRACE = 30.0

# --- Score sheets' fonts (clubs/pdf_fonts.py) -----------------------------------------
# Folders searched for DejaVu Sans (fonts-dejavu-core) and WenQuanYi Micro Hei
# (fonts-wqy-microhei): Debian's, then Fedora's and Arch's names for them.
PDF_FONT_DIRS: list[str] = env.list(
    "PDF_FONT_DIRS",
    default=[
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/truetype/wqy",
        "/usr/share/fonts/dejavu-sans-fonts",
        "/usr/share/fonts/wqy-microhei",
        "/usr/share/fonts/TTF",
        "/usr/share/fonts/wenquanyi/wqy-microhei",
    ],
)

# --- Django REST framework, OpenAPI ---------------------------------------------------
REST_FRAMEWORK = {
    # Session and token only (the API's own views set the same): no HTTP Basic, so a
    # password is sent only to the sign-in pages and POST /api/token/.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # A JSON body is an object of bounded depth and valid text, else 400 (core/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONObjectParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Bräde Arena API",
    # The API docs page's introduction (Markdown): how to get a token, with curl.
    "DESCRIPTION": """Tournaments, matches and verified game records of bräde.

**Reading** public tournaments, brackets, matches and players needs no sign-in:

    curl https://brade.example.org/api/
    curl https://brade.example.org/api/tournaments/

**Writing** (and reading private tournaments) needs a token, sent as
`Authorization: Token <key>`. Get yours on the site, signed in, at
[/account/token/](/account/token/) (the key is shown once), or from a script:

    curl -X POST https://brade.example.org/api/token/ -d username=anna -d password='…'
    # {"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "username": "anna", "created": true}

    curl -H "Authorization: Token 9944b091…" https://brade.example.org/api/matches/12/
    curl -X POST -H "Authorization: Token 9944b091…" -H "Content-Type: application/json" \\
         -d '{"number": 1, "winner": "W", "outcome": "jan", "starter": "W"}' \\
         https://brade.example.org/api/matches/12/games/

A user has one token; asking again returns the same key (200), a new one is 201.
Revoke it with `curl -X DELETE -H "Authorization: Token …" https://brade.example.org/api/token/`
(or on the page). A signed-in browser session works too (with its CSRF token).

**Errors** are JSON: `{"error": {"code": "…", "message": "…"}}`, with `fields` for
invalid input and the current `match` for conflicts (409).
""",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A PATCH body is described as the view's serializer reads it (its required fields
    # are required), not as a copy with every field optional.
    "COMPONENT_SPLIT_PATCH": False,
    # The path's numbers (core/path_converters.py): an id up to the largest bigint, a
    # round's or a game's number up to the largest integer (core.bounds' DB_ID_MAX and
    # DB_INT_MAX; settings cannot import it); a larger one matches no route (404).
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "num": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
    },
    # Every operation's error answers, with the one error body (tournaments/api_schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api_schema.error_responses",
    ],
    # The docs page's Swagger UI comes from our own static files (no CDN): it works on a
    # closed network and leaks nothing to third parties.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Shared choice sets get one name each, so `manage.py spectacular --fail-on-warn` passes.
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "matches.models.SideChoice.choices",
        "OutcomeEnum": "matches.models.OUTCOMES",
        "GameTypeEnum": "matches.models.GAME_TYPES",
        "GameEnum": "tournaments.models.game_choices",
        "MatchStateEnum": "matches.models.MatchState.choices",
        "RecordStateEnum": "matches.models.RecordState.choices",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus.choices",
        "SeasonEventKindEnum": "clubs.models.EventKind.choices",
        "DiceModeEnum": "scoresheets.models.DiceMode.choices",
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
    # fontTools logs every glyph subset of a score sheet's fonts at INFO; keep its warnings.
    "loggers": {
        "django.utils.autoreload": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# --- Webhooks (webhooks/sending.py, services.py) ----------------------------------------
# Deliveries to private, loopback and link-local addresses are refused unless this is on
# (every address the host resolves to is checked at each attempt: SSRF).
WEBHOOKS_ALLOW_PRIVATE: bool = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
# Seconds to connect and for each read; the answer's first characters kept in the log.
WEBHOOKS_TIMEOUT: float = env.float("WEBHOOKS_TIMEOUT", default=5.0)
WEBHOOKS_LOG_BODY_CHARS = 500
# Retries: base · 2^(n−1) seconds after failed attempt n, at most WEBHOOKS_BACKOFF_MAX
# (below the broker's visibility timeout, so Redis never hands a waiting retry to a
# second worker); WEBHOOKS_MAX_ATTEMPTS attempts in all (8: about 8½ minutes of retries).
WEBHOOKS_BACKOFF_BASE: float = env.float("WEBHOOKS_BACKOFF_BASE", default=10.0)
WEBHOOKS_BACKOFF_MAX: float = float(min(120, CELERY_TASK_TIME_LIMIT))
WEBHOOKS_MAX_ATTEMPTS: int = env.int("WEBHOOKS_MAX_ATTEMPTS", default=8)
# The Celery queue of deliveries; empty: the default queue (every worker takes them). A
# delivery waits on the network: give it a queue of its own and a thread-pool worker
# (``celery -A config worker -Q webhooks --pool threads --concurrency 16``), so a slow
# receiver never holds up the verification of game records.
WEBHOOKS_QUEUE: str = env.str("WEBHOOKS_QUEUE", default="")
