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
# Everything started here is stopped on SIGTERM or SIGINT, or when the web server ends: each
# runs in its own process group (job control), is sent SIGTERM, gets STOP_SECONDS (10) to
# finish (Celery's warm shutdown lets a running task end and stops its pool and beat),
# then its whole group is killed; the script exits only once all of them are gone.
# A worker that ends is restarted, after 1, 2, 4, 8 … s; past WORKER_RESTARTS (5) restarts
# within a minute it is left down, the web server stays up and the tasks wait in the broker
# folder until run.sh is started again.
set -m
server=""
worker=""
napping=""
restarts=() # when the worker was restarted, in seconds since the script started
say() { printf 'run.sh: %s\n' "$*" >&2; }
running() {
  local pid
  for pid in "$server" "$worker" "$napping"; do
    if [ -n "$pid" ]; then printf '%s\n' "$pid"; fi
  done
}
alive() {
  local pid
  for pid in $(running); do
    if kill -0 "$pid" 2>/dev/null; then return 0; fi
  done
  return 1
}
stop() {
  local status="${1:-$?}" pid waited=0
  trap - EXIT INT TERM
  for pid in $(running); do kill -TERM "$pid" 2>/dev/null || true; done
  while alive && [ "$waited" -lt "${STOP_SECONDS:-10}" ]; do
    sleep 1
    waited=$((waited + 1))
  done
  for pid in $(running); do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  exit "$status"
}
trap 'stop 143' TERM
trap 'stop 130' INT
trap 'stop' EXIT
start_worker() {
  .venv/bin/celery -A advisor worker --beat --concurrency 2 --loglevel WARNING \
    --schedule "$CELERY_BROKER_DIR/beat-schedule" &
  worker="$!"
  say "Celery worker started (process $worker)"
}
# The worker ended with status $1: its pool and beat go with it (a lone beat would go on
# sending the sweeps beside the next worker's), then it is started again after a pause
# that doubles with each restart of the last minute, unless there were too many.
restart_worker() {
  local t recent=() limit="${WORKER_RESTARTS:-5}"
  kill -KILL -- "-$worker" 2>/dev/null || true
  worker=""
  for t in "${restarts[@]}"; do
    if [ $((SECONDS - t)) -lt 60 ]; then recent+=("$t"); fi
  done
  restarts=("${recent[@]}")
  if [ "${#restarts[@]}" -ge "$limit" ]; then
    say "the Celery worker ended (status $1) and has reached its restart limit" \
      "(WORKER_RESTARTS=$limit within a minute): left down; the web server stays up, and" \
      "reports, fleets and the sweeps wait in $CELERY_BROKER_DIR until run.sh is started" \
      "again (the worker's errors are above)"
    return
  fi
  local delay=$((1 << ${#restarts[@]}))
  say "the Celery worker ended (status $1); restarting it in ${delay}s"
  sleep "$delay" &
  napping="$!"
  wait "$napping" || true
  napping=""
  restarts+=("$SECONDS")
  start_worker
}
start_worker
# No autoreload: the worker would go on running the code the server had dropped.
.venv/bin/python manage.py runserver --noreload "${ADDR:-127.0.0.1:8000}" &
server="$!"
while :; do
  ended=""
  status=0
  wait -n -p ended || status=$?
  if [ -n "$worker" ] && [ "$ended" = "$worker" ]; then
    restart_worker "$status"
  else
    exit "$status" # the server ended (or nothing is left to wait for): the EXIT trap stops all
  fi
done
