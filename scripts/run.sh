#!/usr/bin/env bash
# Run the app on the embedded default: SQLite in the project, Celery tasks in-process.
# Serves on http://127.0.0.1:8000 (ADDR=host:port to change it) with a demo organisation,
# a demo user (demo / demo-password) and three example assessments.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_uv.sh
export DEBUG="${DEBUG:-1}"
uv run python manage.py migrate --noinput
uv run python manage.py seed_demo --address "${ADDR:-127.0.0.1:8000}"
exec uv run python manage.py runserver "${ADDR:-127.0.0.1:8000}"
