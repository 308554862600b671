"""Demo settings, the ones ``scripts/run.sh`` serves with: a club's evening on one machine.

The development settings (``base.py``) with what a club's own machine needs, rather than
the production settings with their HTTPS parts switched off. Production assumes HTTPS
(secure-only cookies, an HTTPS redirect, HSTS): over the demo's plain HTTP on 127.0.0.1
its cookies would never come back and nobody could sign in, so a demo on production
settings would be production with most of it undone. Here, on top of ``base.py``:

- ``DEBUG`` off, always (``DJANGO_DEBUG`` is not read): errors show the site's own 404,
  403 and 500 pages, never Django's technical page with settings and code.
- ``SECRET_KEY``: ``DJANGO_SECRET_KEY`` if set; else a random key made on the first start
  and kept in ``.secret-key`` in the project folder (``DJANGO_SECRET_KEY_FILE`` names
  another file; git-ignored, mode 600, ``config/secret_key_file.py``), reused after.
- ``ALLOWED_HOSTS``: ``DJANGO_ALLOWED_HOSTS`` if set; else what fits ``ADDR``, the address
  ``run.sh`` serves on (``config/serve_address.py``).
- ``SITE_URL``: ``SITE_URL`` if set; else the address phones use for ``ADDR`` (the
  machine's address on its network for ``0.0.0.0``: ``config/serve_address.py``).
- Static files: served by WhiteNoise (already in ``MIDDLEWARE``) from the apps' own
  folders through the staticfiles finders. No ``collectstatic`` step: a restart serves
  at once, and a changed file is served as it is now. The price, files without hashed
  names or compressed copies, is nothing on one machine; a public server runs
  ``collectstatic`` with production settings (README).
"""

from pathlib import Path

from config.secret_key_file import secret_key_from_file
from config.serve_address import allowed_hosts_for, public_url_for

from .base import *  # noqa: F403
from .base import BASE_DIR, LOGGING, env

DEBUG = False

SECRET_KEY_FILE = Path(env.str("DJANGO_SECRET_KEY_FILE", default=str(BASE_DIR / ".secret-key")))
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or secret_key_from_file(SECRET_KEY_FILE)

ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS", default=allowed_hosts_for(env.str("ADDR", default="127.0.0.1:8000"))
)

WHITENOISE_USE_FINDERS = True

# The one address of every link that leaves its page (slips, QR codes, mails:
# ``core/site_address.py``): ``SITE_URL`` if set, else what ``ADDR`` serves, with this
# machine's address on the club's network for ``0.0.0.0`` (``run.sh`` prints it).
SITE_URL = env.str("SITE_URL", default="") or public_url_for(
    env.str("ADDR", default="127.0.0.1:8000")
)

# The console is the club's: tasks run in the server's own process (eager, and the
# in-process beat every 30 seconds, config/embedded_beat.py), and Celery would print a
# line for each; their warnings and errors still show.
_loggers: dict[str, dict[str, str]] = {
    **LOGGING["loggers"],  # type: ignore[dict-item]
    "celery.app.trace": {"level": "WARNING"},
}
LOGGING = {**LOGGING, "loggers": _loggers}

# Mails (notifications, password resets) to a folder, one line each on the console
# (config/mail_backends.py), unless EMAIL_URL names a real server.
if not env.str("EMAIL_URL", default=""):
    EMAIL_BACKEND = "config.mail_backends.MailFolderBackend"
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(BASE_DIR / "mail"))
