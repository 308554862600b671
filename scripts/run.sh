#!/usr/bin/env bash
# Install, migrate and serve Bräde Arena on http://127.0.0.1:8000/ (the README's first command).
# Embedded default: SQLite file db.sqlite3, Celery tasks in-process. Set DATABASE_URL /
# REDIS_URL to use PostgreSQL / Redis instead (README.md). ADDR=host:port changes the address.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_venv.sh
. scripts/_venv.sh
ensure_venv requirements.txt

# The demo runs on the development settings, chosen here: the servers' entry points
# (config/wsgi.py, asgi.py, celery.py) default to production (README, Configuration).
export DJANGO_SETTINGS_MODULE=config.settings.base

# The score sheets' fonts (Debian packages); without them the sheets use a built-in font.
scripts/ensure_system_packages.sh fonts-dejavu-core fonts-wqy-microhei ||
    echo "warning: score sheets will print names outside Windows-1252 as '?'" >&2

py=.venv/bin/python
"$py" manage.py migrate --noinput
# Demo data: a 16-player club championship in progress, with demo logins (it prints them).
# Safe to run again: an existing demo tournament is left as it is.
"$py" manage.py seed_demo
exec "$py" manage.py runserver "${ADDR:-127.0.0.1:8000}"
