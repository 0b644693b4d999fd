#!/usr/bin/env bash
# Run the app on the embedded default: SQLite in the project and a Celery worker beside the
# web server, over a broker made of files in var/broker (no Redis). Reports and fleets are
# built on the worker, as on the full stack; the worker also runs the minute's sweeps.
# Serves on http://127.0.0.1:8000 (ADDR=host:port to change it) with a demo organisation,
# a demo user (demo / demo-password) and three example assessments.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_uv.sh
export DEBUG="${DEBUG:-1}"
export CELERY_BROKER_DIR="${CELERY_BROKER_DIR:-var/broker}"
mkdir -p "$CELERY_BROKER_DIR/messages" "$CELERY_BROKER_DIR/control"
uv run python manage.py migrate --noinput
uv run python manage.py seed_demo --address "${ADDR:-127.0.0.1:8000}"
# Everything started here is stopped on SIGTERM or SIGINT, or when either one ends: each
# runs in its own process group (job control), is sent SIGTERM, gets STOP_SECONDS (10) to
# finish (Celery's warm shutdown lets a running task end and stops its pool and beat),
# then its whole group is killed; the script exits only once all of them are gone.
set -m
started=()
alive() {
  local pid
  for pid in "${started[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then return 0; fi
  done
  return 1
}
stop() {
  local status="${1:-$?}" pid waited=0
  trap - EXIT INT TERM
  for pid in "${started[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  while alive && [ "$waited" -lt "${STOP_SECONDS:-10}" ]; do
    sleep 1
    waited=$((waited + 1))
  done
  for pid in "${started[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  exit "$status"
}
trap 'stop 143' TERM
trap 'stop 130' INT
trap 'stop' EXIT
.venv/bin/celery -A advisor worker --beat --concurrency 2 --loglevel WARNING \
  --schedule "$CELERY_BROKER_DIR/beat-schedule" &
started+=("$!")
# No autoreload: the worker would go on running the code the server had dropped.
.venv/bin/python manage.py runserver --noreload "${ADDR:-127.0.0.1:8000}" &
started+=("$!")
wait -n || true # the first of them to end (or a signal) ends the others
