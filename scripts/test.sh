#!/usr/bin/env bash
# Run the test suite. Uses PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379 when
# they are there (CI provides them; with CI=true a missing service fails the run).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_uv.sh
# axe-core, the browser tests' accessibility check, from npm at the version package-lock.json pins.
if [ ! -f node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --silent
fi
exec uv run pytest "$@"
