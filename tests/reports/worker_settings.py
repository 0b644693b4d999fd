"""Settings for the Celery worker the worker tests start: the test settings, a short
visibility timeout, (SLOW_REPORT_BUILD_S, SLOW_FLEET_ITEM_S) report builds and fleet
servers slowed down on purpose, and the report of a fleet named KILLS_ITS_WORKER killing
the worker process that builds it.

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
KILLS_ITS_WORKER = "a report that kills its worker"
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


@task_prerun.connect
def _fleet_reports_that_kill_their_worker(**kwargs: Any) -> None:
    """Make the report of a fleet named KILLS_ITS_WORKER end the pool process that builds
    it, as the kernel's out-of-memory killer would: no exception, no cleanup."""
    from advisor.fleets import reporting

    context = reporting.report_context
    if hasattr(context, "__wrapped__"):
        return

    @functools.wraps(context)
    def killing_context(fleet: Any) -> Any:
        if fleet.name == KILLS_ITS_WORKER:
            os._exit(137)
        return context(fleet)

    reporting.report_context = killing_context
