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
# One pytest-xdist worker per CPU (at most 4; TEST_WORKERS=N to choose), each with its own
# test database, Redis database and media directory (tests/parallel.py). Arguments come
# after these, so `scripts/test.sh -n 0` runs the tests one after the other in this process.
workers="${TEST_WORKERS:-$(nproc 2>/dev/null || echo 2)}"
[ "$workers" -le 4 ] || workers=4
parallel=(-n "$workers" --dist loadscope)
for arg in "$@"; do
  case "$arg" in -pno:xdist | no:xdist) parallel=() ;; esac
done
exec uv run pytest "${parallel[@]}" "$@"
