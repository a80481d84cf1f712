#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for trying team mode, and prints its DSN.
#
#   scripts/dev-postgres.sh            # start; prints the DSN and how to stop it
#   scripts/dev-postgres.sh stop DIR   # stop the cluster started in DIR and remove DIR
#
# Uses the system's PostgreSQL binaries (Debian: apt-get install postgresql). The cluster
# lives in a temporary folder, listens on a free TCP port of 127.0.0.1 and on a unix socket
# in that folder, and trusts local connections (for trying things out only). initdb refuses
# to run as root, so as root the server runs as the `postgres` system user.
set -euo pipefail

bindir=""
for candidate in "${PG_BINDIR:-}" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) \
                 "$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/x)")"; do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
        bindir=$candidate; break
    fi
done
if [ -z "$bindir" ]; then
    echo "No PostgreSQL binaries (initdb, pg_ctl) found: install PostgreSQL" \
         "(Debian: apt-get install postgresql) or set PG_BINDIR." >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "${1:-}" = "stop" ]; then
    dir=${2:?usage: $0 stop DIR}
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    rm -rf "$dir"
    echo "stopped and removed $dir"
    exit 0
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/gateway-console-pg.XXXXXX")
chmod 755 "$dir"
[ "$(id -u)" = "0" ] && chown postgres: "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
echo "postgresql://postgres@127.0.0.1:$port/postgres"
echo "# unix socket: host=$dir port=$port; stop with: $0 stop $dir" >&2
