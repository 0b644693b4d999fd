#!/bin/sh
# Restore a dump made by scripts/backup.sh into a database that is empty or absent.
#
#   scripts/restore.sh [--force] DUMP TARGET_DATABASE_URL
#
# An absent target database is created on the URL's server. A target that already has tables
# in schema public is refused, so a mistyped URL cannot overwrite live data; --force drops and
# recreates it (closing its connections). The restore runs in a single transaction: it either
# completes or leaves the target empty. The password in the URL is never printed.
set -eu

die() {
  printf 'restore: %s\n' "$*" >&2
  exit 1
}

usage() {
  die "usage: scripts/restore.sh [--force] DUMP TARGET_DATABASE_URL"
}

# shellcheck source=scripts/_pgurl.sh
. "$(dirname "$0")/_pgurl.sh"

# Split TARGET into the database name and a URL of the same server's maintenance database,
# which createdb and dropdb connect to (a database cannot be dropped from inside itself).
parse_target() {
  case $1 in
    postgres://* | postgresql://*) ;;
    *) die "TARGET_DATABASE_URL must be a postgres:// or postgresql:// URL" ;;
  esac
  _scheme=${1%%://*}
  _rest=${1#*://}
  _authority=${_rest%%/*}
  _path=${_rest#"$_authority"}
  _query=
  case $_path in *\?*) _query="?${_path#*\?}" ;; esac
  dbname=${_path#/}
  dbname=${dbname%%\?*}
  [ -n "$dbname" ] || die "TARGET_DATABASE_URL names no database: $(redacted "$1")"
  case $dbname in
    *[!A-Za-z0-9_-]*) die "database name '$dbname' must be letters, digits, _ or - only" ;;
  esac
  maintenance="$_scheme://$_authority/${MAINTENANCE_DB:-postgres}$_query"
}

database_exists() {
  _found=$(psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$maintenance" \
    --set=ON_ERROR_STOP=1 --set=name="$dbname" <<'SQL'
SELECT 1 FROM pg_database WHERE datname = :'name';
SQL
  ) || die "cannot reach the server of $(redacted "$target")"
  [ "$_found" = 1 ]
}

public_tables() {
  psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$target" --set=ON_ERROR_STOP=1 \
    --command="SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'"
}

# Create the target, or check that it is empty (or drop and recreate it under --force).
prepare_target() {
  if database_exists; then
    _tables=$(public_tables) || die "cannot connect to $(redacted "$target")"
    [ "$_tables" -gt 0 ] || return 0
    [ "$force" = 1 ] || die "$(redacted "$target") already has $_tables tables in schema public;
restore only into an empty or absent database, or pass --force to drop and recreate it"
    printf 'restore: dropping %s (--force)\n' "$(redacted "$target")"
    dropdb --force --if-exists --maintenance-db="$maintenance" -- "$dbname"
  fi
  printf 'restore: creating %s\n' "$(redacted "$target")"
  createdb --maintenance-db="$maintenance" -- "$dbname"
}

# Row counts of the tables that show whether the data came back; the names are fixed here.
report_counts() {
  for _table in advisor_assessment advisor_organisation django_migrations; do
    _count=$(psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$target" \
      --set=ON_ERROR_STOP=1 --command="SELECT count(*) FROM public.$_table") \
      || die "the restored database has no table $_table: is the dump from this app?"
    printf 'restore: %s %s rows\n' "$_table" "$_count"
  done
}

main() {
  force=0
  dump=
  target=
  for arg in "$@"; do
    case $arg in
      --force) force=1 ;;
      -*) usage ;;
      *)
        if [ -z "$dump" ]; then dump=$arg
        elif [ -z "$target" ]; then target=$arg
        else usage
        fi ;;
    esac
  done
  if [ -z "$dump" ] || [ -z "$target" ]; then usage; fi
  if [ ! -f "$dump" ] || [ ! -r "$dump" ]; then die "cannot read dump file $dump"; fi
  # Read the dump before touching any database: a bad file must not cost the target.
  pg_restore --list "$dump" >/dev/null || die "$dump is not a pg_dump custom-format archive"
  parse_target "$target"
  prepare_target

  printf 'restore: restoring %s into %s\n' "$dump" "$(redacted "$target")"
  pg_restore --no-owner --no-privileges --exit-on-error --single-transaction \
    --dbname="$target" -- "$dump" || die "pg_restore failed; nothing was restored"
  report_counts
}

main "$@"
