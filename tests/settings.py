"""Test settings: the app's settings with test-only defaults.

Tests run against PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/advisor).
Outside CI, when that server is not reachable and DATABASE_URL is unset, they fall back to
SQLite so a fresh checkout can still run the suite; in CI (CI=true) nothing falls back.
"""

from __future__ import annotations

import os
import socket

from tests.parallel import isolate_worker

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("DEBUG", "0")
# Built reports go to a directory of this run (of this xdist worker, which also gets a
# Redis database of its own); the worker processes the tests start inherit the variables,
# so they write where the tests read.
isolate_worker()

_PG = "postgres://postgres@127.0.0.1:5432/advisor"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


if "DATABASE_URL" not in os.environ and (os.environ.get("CI") or _reachable("127.0.0.1", 5432)):
    os.environ["DATABASE_URL"] = _PG

from advisor.settings import *  # noqa: E402,F403

STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405
# WhiteNoise warns on every request handler built when STATIC_ROOT is missing; tests serve
# static files through the finders, so an empty directory is all it needs.
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405
