# shellcheck shell=bash
# Sourced by scripts/run.sh and scripts/test.sh: make .venv and install pinned requirements.
#   ensure_venv requirements.txt|requirements-dev.txt
# Needs only python3 (3.11 or newer; PYTHON=... picks another interpreter). pip runs only
# when a requirements file changed since the last install (stamp file in .venv).

ensure_venv() {
    local reqs="$1"
    local python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "error: Python 3.11 or newer is needed (tried '$python'; set PYTHON=...)" >&2
            return 1
        fi
        echo "==> creating .venv with $("$python" --version)"
        "$python" -m venv .venv
    fi
    local stamp=".venv/.installed-$(basename "$reqs" .txt)"
    local digest
    digest="$(cat requirements.txt "$reqs" | .venv/bin/python -c \
        'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        return 0
    fi
    echo "==> installing $reqs into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$reqs"
    echo "$digest" > "$stamp"
}
