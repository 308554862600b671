#!/usr/bin/env bash
# Install, migrate and serve the Bräde Arena demo on http://127.0.0.1:8000/ (the README's
# first command), debug off, as a club would run it on its own machine.
# Embedded default: SQLite file db.sqlite3, Celery tasks in-process. Set DATABASE_URL /
# REDIS_URL to use PostgreSQL / Redis instead (README.md). ADDR=host:port changes the address.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_venv.sh
. scripts/_venv.sh
ensure_venv requirements.txt

# The demo settings, chosen here (the servers' entry points, config/wsgi.py, asgi.py,
# celery.py, default to production): debug off, so errors show the site's own pages; a
# secret key made on the first start and kept in .secret-key (git-ignored, mode 600);
# static files served by WhiteNoise; host names fitting ADDR (config/settings/demo.py).
export DJANGO_SETTINGS_MODULE=config.settings.demo
export ADDR="${ADDR:-127.0.0.1:8000}"

# The score sheets' fonts (Debian packages); without them the sheets use a built-in font.
scripts/ensure_system_packages.sh fonts-dejavu-core fonts-wqy-microhei ||
    echo "warning: score sheets will print names outside Windows-1252 as '?'" >&2

py=.venv/bin/python
"$py" manage.py migrate --noinput
# Demo data: a 16-player club championship in progress, with demo logins. Safe to run
# again: an existing demo is left as it is; the logins and the README's API example are
# printed every time.
"$py" manage.py seed_demo
# A real WSGI server, one process with threads, and the in-process beat
# (config/gunicorn_embedded.py says why one process and what runs where gunicorn does not).
exec .venv/bin/gunicorn -c config/gunicorn_embedded.py config.wsgi
