#!/bin/sh
# tests/pg/cluster.sh start DIR | stop DIR | restart DIR — a throwaway
# PostgreSQL 15 cluster for the tests: initdb in DIR (C locale, trust on a
# Unix socket in DIR, no TCP), started with pg_ctl, stopped by its PID file.
# `start` prints the connection string of a fresh database "parapet";
# `restart` starts a stopped cluster again (the restart test). As root, the
# server runs as the unprivileged `postgres` user (initdb refuses root).
set -eu
cmd=$1 dir=$2
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || { echo "cluster.sh: PostgreSQL 15 is not installed (scripts/deps.sh)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
run_server() {
  # fsync stays on: the durability tests need real commits
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses= -c unix_socket_directories=$dir -c max_connections=300 -c shared_buffers=64MB" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
}
case $cmd in
start)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_owner "$bin/initdb" -D "$dir/data" --locale=C -E UTF8 -A trust -U parapet >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  run_server
  as_owner "$bin/createdb" -h "$dir" -U parapet parapet
  echo "postgresql:///parapet?host=$dir&user=parapet"
  ;;
restart)
  run_server
  ;;
stop)
  [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
*) echo "usage: cluster.sh start|stop|restart DIR" >&2; exit 2 ;;
esac
