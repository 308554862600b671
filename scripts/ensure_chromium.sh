#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium, for the Playwright browser tests.
# Playwright never downloads a browser here ("playwright install" is not used).
# Exit 0 when Chromium is there (or was installed), 1 when it cannot be installed.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "Chromium missing: install Debian's package 'chromium' (apt-get install chromium)" >&2
    exit 1
fi
echo "==> installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
test -x /usr/bin/chromium
