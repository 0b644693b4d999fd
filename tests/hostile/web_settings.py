"""The production settings with static files collected into the suite's own directory
(HOSTILE_STATIC_ROOT), as the image's build collects them (Dockerfile): the pages' manifest
lookups then work with DEBUG off, and the checkout's staticfiles/ is left alone."""

from __future__ import annotations

import os
from pathlib import Path

from advisor.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["HOSTILE_STATIC_ROOT"])
# Hashed names and a manifest, as in production, without WhiteNoise's gzip and Brotli copies
# of every file (minutes of CPU on a shared 2-CPU machine, and no request here reads them).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
