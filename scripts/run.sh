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
.venv/bin/celery -A advisor worker --beat --concurrency 2 --loglevel WARNING \
  --schedule "$CELERY_BROKER_DIR/beat-schedule" &
worker=$!
trap 'kill "$worker" 2>/dev/null || true; wait "$worker" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM
# No autoreload: the worker would go on running the code the server had dropped.
.venv/bin/python manage.py runserver --noreload "${ADDR:-127.0.0.1:8000}"
