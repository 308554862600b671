#!/usr/bin/env bash
# Make sure the Debian packages the project uses from the system are installed:
#   chromium            /usr/bin/chromium, for the Playwright browser tests (Playwright never
#                       downloads a browser here: "playwright install" is not used)
#   fonts-dejavu-core   DejaVu Sans, the PDF score sheets' font (clubs/pdf_fonts.py)
#   fonts-wqy-microhei  WenQuanYi Micro Hei, the score sheets' font for Chinese, Japanese, Korean
# Arguments name the packages to ensure (default: all three); scripts/run.sh asks for the
# fonts only. Each is checked by the file it brings, and installed with apt-get when that
# is missing and we are root. Exit 0 when all are there (or were installed), 1 otherwise.
set -euo pipefail

declare -A FILE=(
    [chromium]=/usr/bin/chromium
    [fonts-dejavu-core]=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    [fonts-wqy-microhei]=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
)
wanted=("$@")
if [ ${#wanted[@]} -eq 0 ]; then
    wanted=(chromium fonts-dejavu-core fonts-wqy-microhei)
fi

missing=()
for package in "${wanted[@]}"; do
    if [ -z "${FILE[$package]:-}" ]; then
        echo "unknown package: $package" >&2
        exit 2
    fi
    if [ ! -e "${FILE[$package]}" ]; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "missing: install Debian's ${missing[*]} (apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "==> installing Debian's ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
for package in "${missing[@]}"; do
    test -e "${FILE[$package]}"
done
