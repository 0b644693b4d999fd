"""Settings for the Celery worker the worker tests start: the test settings, a short
visibility timeout, and (SLOW_REPORT_BUILD_S, SLOW_FLEET_ITEM_S) report builds and fleet
servers slowed down on purpose.

A slow build is one the tests can watch `running` and kill mid-job. The slowness is added
here, around the service's rendering step, so production code has no knob for it. A
visibility timeout of a few seconds and a 1 s restore sweep make Redis hand an
unacknowledged job to the next worker within seconds instead of minutes.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any

from celery.signals import task_prerun

from tests.settings import *  # noqa: F403

SLOW_REPORT_BUILD_S = float(os.environ.get("SLOW_REPORT_BUILD_S", "0"))
SLOW_FLEET_ITEM_S = float(os.environ.get("SLOW_FLEET_ITEM_S", "0"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY", "4")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}


@task_prerun.connect
def _slow_report_builds(**kwargs: Any) -> None:
    """Make the build's rendering step sleep first, once `report_build` marked it running.

    Connected in the worker's pool process, where tasks run; the services are imported
    here, once Django is set up, and wrapped only once per process.
    """
    from advisor.reports import services

    render = services.render_report_html
    if SLOW_REPORT_BUILD_S <= 0 or hasattr(render, "__wrapped__"):
        return

    @functools.wraps(render)
    def slow_render(*args: Any, **kw: Any) -> str:
        time.sleep(SLOW_REPORT_BUILD_S)
        return render(*args, **kw)

    services.render_report_html = slow_render


@task_prerun.connect
def _slow_fleet_items(**kwargs: Any) -> None:
    """Make each fleet server take SLOW_FLEET_ITEM_S to advise, so a worker can be killed
    in the middle of a chunk."""
    from advisor.fleets import services

    advise = services._advise
    if SLOW_FLEET_ITEM_S <= 0 or hasattr(advise, "__wrapped__"):
        return

    @functools.wraps(advise)
    def slow_advise(*args: Any, **kw: Any) -> Any:
        time.sleep(SLOW_FLEET_ITEM_S)
        return advise(*args, **kw)

    services._advise = slow_advise
