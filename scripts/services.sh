#!/usr/bin/env bash
# Make sure the local PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer,
# starting them if they are down (Debian packages, as on the CI machines), and wait for
# them. Used by .ci/run before the PostgreSQL + Redis pass of the test suite.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }

wait_for() {
    local name="$1" check="$2"
    for _ in $(seq 1 60); do
        if "$check"; then
            echo "$name is up"
            return 0
        fi
        sleep 0.5
    done
    echo "error: $name did not come up" >&2
    return 1
}

if ! pg_up; then
    echo "==> starting PostgreSQL"
    for version in $(ls /etc/postgresql); do
        pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
fi
wait_for PostgreSQL pg_up

if ! redis_up; then
    echo "==> starting Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for Redis redis_up
