"""A real Celery worker over Redis builds a report; a killed worker's job is finished by the next.

Needs PostgreSQL and Redis (CI provides both; REDIS_URL_FOR_TESTS names the Redis database,
default db 14). The workers are separate processes pointed at pytest-django's test
database, so these tests use a transactional database: the rows must really be committed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from advisor.celery import app
from advisor.core import words
from advisor.core.results import result_of
from advisor.models import Assessment, Report
from advisor.reports.services import report_request
from rules.sources import PAPERS
from tests.conftest import ROOT, require_service
from tests.reports.test_pdf import ARTIFACTS, pdf_text, require_poppler

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

REDIS_URL = os.environ.get("REDIS_URL_FOR_TESTS", "redis://127.0.0.1:6379/14")
VISIBILITY_S = 4
WAIT_S = 180  # a cold worker on a busy 2-core machine takes a while to start
Worker = Callable[..., subprocess.Popen[bytes]]


def _reset_broker_pools() -> None:
    # Drop the app's references only: kombu keeps the pools per URL and may hand them back.
    app._pool = None
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None


@contextmanager
def redis_app() -> Iterator[str]:
    """The app sending over Redis (an empty database of its own) instead of running tasks
    in-process, for as long as the block lasts."""
    require_service("Redis", "127.0.0.1", 6379)
    redis.Redis.from_url(REDIS_URL).flushdb()
    keys = ("broker_url", "task_always_eager", "broker_transport_options")
    saved = {key: app.conf[key] for key in keys}
    app.conf.update(
        broker_url=REDIS_URL,
        task_always_eager=False,
        broker_transport_options={"visibility_timeout": VISIBILITY_S},
    )
    _reset_broker_pools()
    try:
        yield REDIS_URL
    finally:
        app.conf.update(saved)
        _reset_broker_pools()
        redis.Redis.from_url(REDIS_URL).flushdb()


@pytest.fixture
def redis_broker() -> Iterator[str]:
    with redis_app() as url:
        yield url


def _database_url() -> str:
    db = settings.DATABASES["default"]
    user, host, port = db["USER"] or "postgres", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


class Workers:
    """Celery worker processes on the test database and `broker`, stopped together."""

    def __init__(self, broker: str) -> None:
        self.broker = broker
        self.started: list[subprocess.Popen[bytes]] = []

    def start(
        self, name: str, *, delay_s: float = 0, item_s: float = 0, **env: str
    ) -> subprocess.Popen[bytes]:
        """A worker named `name`; `delay_s` slows each report build, `item_s` each fleet
        server (worker_settings), `env` adds to its environment."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "REDIS_URL": self.broker,
            "SECRET_KEY": "worker-test-secret",
            "DJANGO_SETTINGS_MODULE": "tests.reports.worker_settings",
            "SLOW_REPORT_BUILD_S": str(delay_s),
            "SLOW_FLEET_ITEM_S": str(item_s),
            "CELERY_VISIBILITY": str(VISIBILITY_S),
            **env,
        }
        log = (ARTIFACTS / f"worker-{name}.log").open("wb")
        argv = [sys.executable, "-m", "celery", "-A", "advisor", "worker", "--pool=prefork",
                "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-n", f"reports-{name}@%h"]  # fmt: skip
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.started:
            stop(proc, signal.SIGTERM)


@pytest.fixture
def start_worker(redis_broker: str) -> Iterator[Worker]:
    workers = Workers(redis_broker)
    yield workers.start
    workers.stop_all()


def stop(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """Signal the worker's whole process group (the main process and its pool child)."""
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def watch(report: Report, until: Callable[[Report], bool]) -> list[str]:
    """Poll the report row; return the distinct statuses seen, in order."""
    seen: list[str] = []
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        report.refresh_from_db()
        if not seen or seen[-1] != report.status:
            seen.append(report.status)
        if until(report):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"report {report.pk} stuck: statuses {seen}, error {report.error!r}")


def test_worker_builds_report_queued_running_done(
    start_worker: Worker, user: User, lemans: dict[str, Any], api: APIClient,
    outsider_api: APIClient,
) -> None:  # fmt: skip
    require_poppler()
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(user=user, document=lemans)
    start_worker("one", delay_s=2)
    report = report_request(assessment=assessment, user=user)
    seen = watch(report, lambda r: r.status in ("done", "failed"))
    assert seen == ["queued", "running", "done"], report.error
    assert report.attempts == 1
    path = ARTIFACTS / "worker-report.pdf"
    path.write_bytes(bytes(report.pdf))
    text = pdf_text(path)
    assert_holds_the_advice(text, assessment)
    url = f"/api/v1/assessments/{assessment.pk}/reports/{report.pk}/pdf"
    assert outsider_api.get(url).status_code == 404
    owner = api.get(url)
    assert owner.status_code == 200 and owner.getvalue().startswith(b"%PDF")


def assert_holds_the_advice(text: str, assessment: Assessment) -> None:
    cpucount = result_of(assessment).value_of("CPUCOUNT")
    memsize = result_of(assessment).value_of("MEMSIZE")
    assert assessment.hostname in text
    assert f"CPUCOUNT = {cpucount}" in text and f"MEMSIZE = {memsize}" in text
    cited = {s for r in assessment.result["recommendations"] for s in r["sources"]}
    assert cited & set(PAPERS)
    for paper in cited & set(PAPERS):  # cited as people cite them
        assert words.short_name(paper) in text


def test_killed_worker_job_is_finished_by_the_next_worker(
    start_worker: Worker, user: User, lemans: dict[str, Any], outsider_api: APIClient
) -> None:
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(user=user, document=lemans)
    doomed = start_worker("doomed", delay_s=60)
    report = report_request(assessment=assessment, user=user)
    watch(report, lambda r: r.status == "running")
    stop(doomed, signal.SIGKILL)
    assert doomed.returncode == -signal.SIGKILL
    report.refresh_from_db()
    assert report.status == "running" and report.attempts == 1
    start_worker("rescuer")
    seen = watch(report, lambda r: r.status in ("done", "failed"))
    assert seen[-1] == "done", report.error
    assert report.attempts == 2 and bytes(report.pdf).startswith(b"%PDF")
    url = f"/api/v1/assessments/{assessment.pk}/reports/{report.pk}/pdf"
    assert outsider_api.get(url).status_code == 404
