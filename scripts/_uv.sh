# shellcheck shell=bash
# Sourced by the scripts: make sure uv exists and the environment matches uv.lock.
# uv uses the machine's Python 3.11 and never downloads an interpreter.
export UV_PYTHON="${UV_PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
export UV_PYTHON_DOWNLOADS=never
if ! command -v uv >/dev/null 2>&1; then
  python3 -m pip install --quiet uv
fi
uv sync --frozen --quiet
