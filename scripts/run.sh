#!/usr/bin/env bash
# Run the app on the embedded default: SQLite in the project, Celery tasks in-process.
# Opens http://127.0.0.1:8000 with a demo organisation and user (demo / demo-password).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_uv.sh
export DEBUG="${DEBUG:-1}"
uv run python manage.py migrate --noinput
uv run python manage.py seed_demo
exec uv run python manage.py runserver "${ADDR:-127.0.0.1:8000}"
