#!/bin/sh
# Back up the app's PostgreSQL database (DATABASE_URL) to DIR/advisor-YYYYmmddTHHMMSSZ.dump.
#
#   scripts/backup.sh [DIR]          DIR defaults to ./backups
#   KEEP=N scripts/backup.sh [DIR]   then keep only the newest N dumps in DIR
#
# The dump is pg_dump's custom format without owners or privileges, so it restores into any
# database on any server (scripts/restore.sh). It is written to a temporary file in DIR and
# renamed only once `pg_restore --list` has read it back: a file named like a dump is a
# complete one. The password in DATABASE_URL is never printed.
set -eu

die() {
  printf 'backup: %s\n' "$*" >&2
  exit 1
}

# shellcheck source=scripts/_pgurl.sh
. "$(dirname "$0")/_pgurl.sh"

# Only a PostgreSQL URL can be dumped; say what to do for the embedded SQLite default.
check_url() {
  case $1 in
    postgres://* | postgresql://*) return 0 ;;
    sqlite:*)
      _file=${1#sqlite://}
      _file=${_file#/}
      die "DATABASE_URL is a SQLite database ($_file), which pg_dump cannot back up.
Copy the file instead while the app is stopped, or online with the sqlite3 shell:
  sqlite3 '$_file' \".backup 'backups/advisor-$(stamp).sqlite3'\"" ;;
    *) die "DATABASE_URL must be a postgres:// or postgresql:// URL (got $(redacted "$1"))" ;;
  esac
}

stamp() {
  date -u '+%Y%m%dT%H%M%SZ'
}

# Keep the newest $2 dumps in $1. The names sort by time, and a glob expands sorted.
prune() {
  _dir=$1
  _keep=$2
  set -- "$_dir"/advisor-[0-9]*T[0-9]*Z.dump
  [ -e "$1" ] || return 0
  _excess=$(($# - _keep))
  while [ "$_excess" -gt 0 ]; do
    rm -f -- "$1"
    printf 'backup: removed old dump %s\n' "$1"
    shift
    _excess=$((_excess - 1))
  done
}

main() {
  [ "$#" -le 1 ] || die "usage: scripts/backup.sh [DIR]"
  dir=${1:-./backups}
  [ -n "${DATABASE_URL:-}" ] || die "DATABASE_URL is not set: the app then uses the embedded
SQLite file db.sqlite3 in the project root; copy that file while the app is stopped, or set
DATABASE_URL to the PostgreSQL database to back up"
  check_url "$DATABASE_URL"
  keep=${KEEP:-}
  case $keep in
    '') ;;
    *[!0-9]* | 0*) die "KEEP must be a whole number of dumps, 1 or more (got '$keep')" ;;
  esac

  # The dump holds password hashes and API tokens: readable by its owner only.
  umask 077
  mkdir -p -- "$dir"
  final="$dir/advisor-$(stamp).dump"
  [ ! -e "$final" ] || die "$final already exists; run again in a second"
  tmp=$(mktemp "$dir/.advisor-dump.XXXXXX")
  trap 'rm -f -- "$tmp"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  printf 'backup: dumping %s\n' "$(redacted "$DATABASE_URL")"
  pg_dump --format=custom --no-owner --no-privileges --dbname="$DATABASE_URL" --file="$tmp" \
    || die "pg_dump failed; no dump was written"
  pg_restore --list "$tmp" >/dev/null || die "pg_restore cannot read the dump back; discarded"
  mv -- "$tmp" "$final"
  trap - EXIT

  size=$(wc -c <"$final" | tr -d ' ')
  printf 'backup: wrote %s (%s bytes)\n' "$final" "$size"
  [ -z "$keep" ] || prune "$dir" "$keep"
}

main "$@"
