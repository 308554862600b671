#!/usr/bin/env bash
# Install everything and run the whole test suite (the README's second command).
# Extra arguments go to pytest, e.g. scripts/test.sh tests/engine -x
# Embedded default unless DATABASE_URL / REDIS_URL are set (CI runs both ways).
# Exits non-zero on any failure, including pytest's 5 ("no tests collected").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_venv.sh
. scripts/_venv.sh
ensure_venv requirements-dev.txt

# Browser tests drive Debian's Chromium, the score sheets' tests need Debian's fonts;
# install them when we can (root with apt-get).
scripts/ensure_system_packages.sh ||
    echo "warning: Debian packages missing; browser and score-sheet font tests will fail" >&2

# The test settings, named here too: an exported DJANGO_SETTINGS_MODULE would otherwise
# override pyproject.toml's (pytest-django reads the environment first).
export DJANGO_SETTINGS_MODULE=config.settings.test

# -n auto: one pytest worker per core (pytest-xdist).
exec .venv/bin/python -m pytest -n "${PYTEST_WORKERS:-auto}" "$@"
