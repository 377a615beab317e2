#!/bin/sh
# First start: a cluster owned by POSTGRES_USER, with POSTGRES_DB, password authentication over the
# network (the password from POSTGRES_PASSWORD_FILE, a mounted secret, or POSTGRES_PASSWORD); inside
# the container the socket trusts its own users. A first start cut short is done again from scratch:
# the marker is written last.
set -eu
user=${POSTGRES_USER:-payspec}
database=${POSTGRES_DB:-payspec}
marker="$PGDATA/.payspec-initialised"
if [ ! -e "$marker" ]; then
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then password=$(cat "$POSTGRES_PASSWORD_FILE"); else password=${POSTGRES_PASSWORD:-}; fi
  if [ -z "$password" ]; then
    echo "payspec-postgres: set POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) for the first start." >&2
    exit 2
  fi
  find "$PGDATA" -mindepth 1 -delete
  pwfile=$(mktemp)
  printf '%s\n' "$password" > "$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -q -c "CREATE DATABASE \"$database\""
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  touch "$marker"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
