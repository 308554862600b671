"""Production settings: refuse to start without a secret key and host names.

The default of every server entry point: ``config/wsgi.py`` (gunicorn), ``config/asgi.py``
and ``config/celery.py`` (workers, beat) start with these settings unless
``DJANGO_SETTINGS_MODULE`` names others, so a server started without it refuses to run
without a secret key instead of serving debug pages with the public development key.
The demo (``scripts/run.sh``), ``manage.py`` (a developer's command line), the tests
(``pyproject.toml``) and CI choose the development settings, ``config.settings.base``,
explicitly. Required environment:
``DJANGO_SECRET_KEY`` (50+ random characters) and ``DJANGO_ALLOWED_HOSTS``; normally also
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (see ``base.py``). Passes
``manage.py check --deploy --fail-level WARNING``.

``DJANGO_DEBUG=true`` is refused: debug pages show settings, code and the request to
anyone, which a public server must never do (debug a copy with the development settings).

The site is assumed to be served over HTTPS, usually behind a proxy that sets
``X-Forwarded-Proto``. HSTS (``Strict-Transport-Security``):

- ``DJANGO_SECURE_HSTS_SECONDS`` starts at 60 s, a trial that a broken certificate
  outlives within a minute; raise it to a year (31536000) once HTTPS is known to work
  for every host name.
- ``includeSubDomains`` (``DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS``) and ``preload``
  (``DJANGO_SECURE_HSTS_PRELOAD``) default to off while max-age is under a year and to on
  from a year up: both are commitments for every subdomain and, with preload, for the
  browsers' built-in list, which accepts only max-age of a year or more with
  includeSubDomains. Asking for preload with a shorter max-age or without
  includeSubDomains is refused at start, since the list would reject it. While max-age is
  under a year, the deployment check's two warnings about these headers (security.W005,
  security.W021) are silenced: they are off by this decision, not by oversight.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

_DEV_KEY = "dev-only-insecure-key-change-me"

# Required: a missing or empty key is refused below.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY.strip() or SECRET_KEY == _DEV_KEY:
    raise ImproperlyConfigured(
        "Set DJANGO_SECRET_KEY to a long random value for production (for development, "
        "DJANGO_SETTINGS_MODULE=config.settings.base)."
    )

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set DJANGO_ALLOWED_HOSTS (comma-separated host names).")

DEBUG = False
if env.bool("DJANGO_DEBUG", default=False):
    raise ImproperlyConfigured(
        "DJANGO_DEBUG=true is refused in production: debug pages show settings and code to "
        "anyone. Debug with DJANGO_SETTINGS_MODULE=config.settings.base on a copy."
    )

# --- HTTPS and cookies ----------------------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Load balancers and process monitors probe /healthz over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60)
# What the browsers' preload list asks for (hstspreload.org): a year or more.
HSTS_PRELOAD_MIN_SECONDS = 31536000
_a_year_or_more = SECURE_HSTS_SECONDS >= HSTS_PRELOAD_MIN_SECONDS
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool(
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_a_year_or_more
)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=_a_year_or_more)
if SECURE_HSTS_PRELOAD and not (_a_year_or_more and SECURE_HSTS_INCLUDE_SUBDOMAINS):
    raise ImproperlyConfigured(
        "DJANGO_SECURE_HSTS_PRELOAD needs DJANGO_SECURE_HSTS_SECONDS of at least "
        f"{HSTS_PRELOAD_MIN_SECONDS} (a year) and includeSubDomains: the preload list "
        "refuses anything less."
    )
if not _a_year_or_more:
    # Off by decision while HSTS is on trial (see the module text), not by oversight.
    SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# --- Static files: compressed, with hashed names (run collectstatic on deploy) ---------
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
