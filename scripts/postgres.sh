#!/usr/bin/env bash
# A throw-away PostgreSQL server (Debian's `postgresql` package) for the store tests:
#
#   url="$(bash scripts/postgres.sh start DIR)"   # a new cluster in DIR; prints its URL
#   BOARDLAB_TEST_POSTGRES="$url" pytest -q tests/test_store.py
#   bash scripts/postgres.sh stop DIR             # stops it (DIR is left for the caller)
#
# DIR: an empty directory (e.g. from mktemp -d); as root it is handed to the `postgres` user,
# who runs the server (it refuses root). The cluster listens on 127.0.0.1 only, on a free
# port, with its socket in DIR, and asks for a random password (in the URL). The URL names a database `boardlab`; tests make one schema each in it.
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: bash scripts/postgres.sh start|stop DIR" >&2
    exit 2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "postgres.sh: no PostgreSQL server (apt-get install postgresql)" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    password="$("${PYTHON:-python3}" -c 'import secrets; print(secrets.token_hex(16))')"
    port="$("${PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    printf '%s\n' "$password" > "$dir/pwfile"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pwfile"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
        --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c fsync=off" \
        >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    PGPASSWORD="$password" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
        -c "CREATE DATABASE boardlab" >/dev/null
    echo "postgresql://postgres:$password@127.0.0.1:$port/boardlab"
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    fi
    ;;
*)
    echo "usage: bash scripts/postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
