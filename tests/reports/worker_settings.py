"""Settings for the Celery worker the worker tests start: the test settings plus knobs.

REPORT_BUILD_DELAY_S makes a build slow enough to watch and to kill mid-job; a visibility
timeout of a few seconds and a 1 s restore sweep make Redis hand an unacknowledged job to
the next worker within seconds instead of minutes.
"""

from __future__ import annotations

import os

from tests.settings import *  # noqa: F403

REPORT_BUILD_DELAY_S = float(os.environ.get("REPORT_BUILD_DELAY_S", "0"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY", "4")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
