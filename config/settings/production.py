"""Production settings: refuse to start without a secret key and host names.

Use with ``DJANGO_SETTINGS_MODULE=config.settings.production``. Required environment:
``DJANGO_SECRET_KEY`` (50+ random characters) and ``DJANGO_ALLOWED_HOSTS``; normally also
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (see ``base.py``). Passes
``manage.py check --deploy --fail-level WARNING``.

The site is assumed to be served over HTTPS, usually behind a proxy that sets
``X-Forwarded-Proto``. ``DJANGO_SECURE_HSTS_SECONDS`` starts at 60; raise it (e.g. to
31536000) once HTTPS is known to work for every host name.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

_DEV_KEY = "dev-only-insecure-key-change-me"

# No default: env.str raises ImproperlyConfigured when the variable is missing.
SECRET_KEY = env.str("DJANGO_SECRET_KEY")
if not SECRET_KEY.strip() or SECRET_KEY == _DEV_KEY:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY to a long random value for production.")

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set DJANGO_ALLOWED_HOSTS (comma-separated host names).")

DEBUG = env.bool("DJANGO_DEBUG", default=False)

# --- HTTPS and cookies ----------------------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Load balancers and process monitors probe /healthz over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# --- Static files: compressed, with hashed names (run collectstatic on deploy) ---------
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
