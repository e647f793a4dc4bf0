#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for CI and local checks, the way the test suite does:
# initdb into a temporary folder owned by the postgres user (initdb refuses to run as root),
# on a free port of 127.0.0.1. Prints the connection URL on stdout.
#
#   url=$(Scripts/postgres-server.sh start)     # also writes the folder to $STRATA_PG_FOLDER_FILE
#   Scripts/postgres-server.sh stop FOLDER
set -euo pipefail

bin=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$candidate/initdb" ] && { bin="$candidate"; break; }
done
[ -n "$bin" ] || bin="$(dirname "$(command -v initdb)")"

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    folder="$(mktemp -d /tmp/strata-ci-postgres-XXXXXX)"
    [ "$(id -u)" = 0 ] && chown postgres "$folder"
    chmod 700 "$folder"
    as_postgres "$bin/initdb" -D "$folder/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$folder/initdb.log" 2>&1 \
        || { cat "$folder/initdb.log" >&2; exit 1; }
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_postgres "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
        -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
        || { cat "$folder/server.log" >&2; exit 1; }
    [ -n "${STRATA_PG_FOLDER_FILE:-}" ] && echo "$folder" >"$STRATA_PG_FOLDER_FILE"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    folder="$2"
    as_postgres "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
*)
    echo "usage: $0 start | stop FOLDER" >&2
    exit 64
    ;;
esac
