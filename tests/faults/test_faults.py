"""Faults on services the tests start themselves: Redis killed and restarted, the database
stopped for 20 s, a worker killed mid-build. Nothing the client was told is stored may be
lost, and no report may stay queued or running once the services are back.

Everything goes over HTTP to a real gunicorn, and reports are built by real Celery
workers, on a private PostgreSQL and redis-server (tests/faults/conftest.py).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from advisor.reports.services import STALE_QUEUED_S
from tests.conftest import EXAMPLES
from tests.faults.stack import Answer, Api, Stack, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.celery_worker]

OPEN = ("queued", "running")
DB_OUTAGE_S = 20.0
# A build that meets the outage retries after 1, 2, 4, 8, 16, 32 s: one failing just before
# the database returns waits up to 32 s more, then builds in a few seconds.
DB_RECOVERY_S = 90.0
# Redis back and the reports requeued: the worker reconnects within its broker retry
# interval (2, 4, 6 … s) and builds two reports at a time, about 5 s each (2 s slowed).
REDIS_RECOVERY_S = 60.0
# Long enough for the worker's first reconnection attempts to fail too.
REDIS_OUTAGE_S = 6.0
# Reports asked for while Redis is down; with the 4 before, under the organisation's
# budget of 10 open reports (REPORTS_OPEN_PER_ORGANISATION) with the one asked for after
# the restart, so none is refused 429.
REPORTS_DURING_REDIS_OUTAGE = 3
# The rescuer starts (seconds), its restore loop (1 s) hands on the killed worker's job
# once unacknowledged for the 4 s visibility timeout, then builds it.
RESCUE_S = 60.0
VISIBILITY_S = 4


def inventory(hostname: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "lemans-aix53-etl.json").read_text())
    document["server"]["hostname"] = hostname
    return document


def post_assessment(api: Api, hostname: str) -> Answer:
    """Create one assessment; the hostname doubles as the idempotency key, so a retry
    after an unanswered or refused request can never store it twice."""
    return api.call(
        "POST", "/api/v1/assessments/", inventory(hostname), {"Idempotency-Key": hostname}
    )


def create_assessments(api: Api, hostnames: list[str]) -> list[int]:
    ids = []
    for hostname in hostnames:
        answer = post_assessment(api, hostname)
        assert answer.status == 201, answer.body
        ids.append(answer.body["id"])
    return ids


def queue_report(api: Api, assessment_id: int) -> str:
    """POST the report request; returns the path of its status URL."""
    answer = api.call("POST", f"/api/v1/assessments/{assessment_id}/reports/")
    assert answer.status == 202, answer.body
    assert answer.body["status"] in OPEN, answer.body
    return str(answer.body["status_url"]).removeprefix(api.base)


def statuses(api: Api, status_paths: list[str]) -> list[str]:
    found = []
    for path in status_paths:
        answer = api.call("GET", path)
        assert answer.status == 200, answer.body
        found.append(answer.body["status"])
    return found


def wait_all_done(api: Api, status_paths: list[str], timeout_s: float) -> float:
    def all_done() -> bool:
        seen = statuses(api, status_paths)
        assert "failed" not in seen, seen
        return all(status == "done" for status in seen)

    return wait_until("every report done", all_done, timeout_s)


def wait_running(stack: Stack, organisation: str) -> None:
    def one_running() -> bool:
        return bool(report_rows(stack, organisation, "running"))

    wait_until("a report running", one_running, 60, interval_s=0.2)


def report_rows(
    stack: Stack, organisation: str, *status: str, report_id: int | None = None
) -> list[tuple[Any, ...]]:
    """(id, status, attempts) of the organisation's reports in one of `status`."""
    rows = stack.postgres.query(
        "SELECT r.id, r.status, r.attempts FROM advisor_report r "
        "JOIN advisor_assessment a ON a.id = r.assessment_id "
        "JOIN advisor_organisation o ON o.id = a.organisation_id "
        "WHERE o.name = %s AND r.status = ANY(%s) ORDER BY r.id",
        organisation, list(status),
    )  # fmt: skip
    return [row for row in rows if report_id is None or row[0] == report_id]


def assert_settled(stack: Stack, organisation: str, hostnames: list[str]) -> None:
    """No report of the whole database waits or is being built, and each assessment the
    client was told about is stored exactly once."""
    stuck = stack.postgres.query(
        "SELECT id, status FROM advisor_report WHERE status IN ('queued', 'running')"
    )
    assert stuck == []
    rows = stack.postgres.query(
        "SELECT a.hostname, count(*) FROM advisor_assessment a "
        "JOIN advisor_organisation o ON o.id = a.organisation_id "
        "WHERE o.name = %s GROUP BY a.hostname",
        organisation,
    )
    counts = {str(hostname): int(str(count)) for hostname, count in rows}
    assert counts == {hostname: 1 for hostname in hostnames}


def busy(
    app: Stack, org: str, name: str, *, slow_build_s: float
) -> tuple[Api, list[str], list[str]]:
    """An organisation with four assessments whose reports are being built (two at a
    time, slowed) or queued: (its client, the host names, the reports' status paths)."""
    api = app.api(app.member_token(org))
    app.start_worker(name, slow_build_s=slow_build_s, concurrency=2)
    hostnames = [f"{name}-{i}" for i in range(4)]
    paths = [queue_report(api, i) for i in create_assessments(api, hostnames)]
    wait_running(app, org)
    return api, hostnames, paths


def test_redis_killed_and_restarted(app: Stack) -> None:
    org = "faults-redis"
    # Builds slowed to 2 s, two at a time: when Redis dies, reports are running and the
    # others are messages in Redis, lost with it (it keeps nothing on disk).
    api, hostnames, paths = busy(app, org, "redis", slow_build_s=2)

    app.redis.kill()
    down_at = time.monotonic()
    api.seen.clear()
    outage = redis_outage(app, api, org)
    hostnames += outage.hostnames
    paths += outage.paths
    outage_seen = Counter(api.seen)
    assert set(outage_seen) <= {200, 201, 202}, outage_seen

    app.redis.start()
    back_at = time.monotonic()
    # Asked for as soon as Redis is back, before the worker has reconnected and declared
    # its queue again: the web's message must reach the worker with no sweep's help.
    hostnames.append("redis-after-restart")
    [after] = create_assessments(api, hostnames[-1:])
    paths.append(queue_report(api, after))
    first_s = wait_all_done(api, paths[-1:], REDIS_RECOVERY_S)
    # Beat's sweep would find the lost messages' reports only once queued STALE_QUEUED_S
    # (5 min): too long for a test. The sweep's own service, run as if that time had
    # passed, is what an operator runs after a broker loss; `celery call sweep_reports`
    # would run it on the real clock and find nothing yet.
    requeued = app.requeue_stuck_ahead(STALE_QUEUED_S + 1)
    recovery_s = wait_all_done(api, paths, REDIS_RECOVERY_S)
    assert_settled(app, org, hostnames)
    print(
        f"redis: down {back_at - down_at:.1f} s, answers during outage {dict(outage_seen)}"
        f", slowest report request {outage.slowest_s:.2f} s, requeued {requeued}, "
        f"report asked after restart done in {first_s:.1f} s, the rest done {recovery_s:.1f} s"
        " after the requeue"
    )


@dataclass
class RedisOutage:
    hostnames: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    slowest_s: float = 0.0


def redis_outage(app: Stack, api: Api, organisation: str) -> RedisOutage:
    """A client's calls for REDIS_OUTAGE_S while Redis is down: token calls answer, the
    health check says degraded, and each report requested is stored, queued."""
    outage = RedisOutage()
    started = time.monotonic()
    while time.monotonic() - started < REDIS_OUTAGE_S:
        assert api.call("GET", "/api/v1/assessments/").status == 200
        health = app.anonymous().call("GET", "/api/v1/health/")
        assert (health.status, health.body["status"]) == (200, "degraded"), health.body
        if len(outage.hostnames) < REPORTS_DURING_REDIS_OUTAGE:
            outage.hostnames.append(f"redis-outage-{len(outage.hostnames)}")
            [assessment_id] = create_assessments(api, outage.hostnames[-1:])
            asked = time.monotonic()
            outage.paths.append(queue_report(api, assessment_id))
            outage.slowest_s = max(outage.slowest_s, time.monotonic() - asked)
            [(_, status, _)] = report_rows(
                app, organisation, "queued", report_id=_id(outage.paths[-1])
            )
            assert status == "queued"
        statuses(api, outage.paths)  # the status endpoint answers without Redis
        time.sleep(0.5)
    return outage


def _id(status_path: str) -> int:
    return int(status_path.rstrip("/").rsplit("/", 1)[-1])


def outage_round(api: Api, anonymous: Api, hostname: str, status_path: str) -> list[str]:
    """One round of a client's calls while the database is down: each answer as "status"
    or "status+Retry-After"."""
    answers = [
        post_assessment(api, hostname),
        api.call("GET", "/api/v1/assessments/"),
        api.call("GET", status_path),
    ]
    for answer in answers:
        assert answer.status != 500, answer.body
        if answer.status == 503:
            assert answer.headers.get("Retry-After"), answer.headers
    health = anonymous.call("GET", "/api/v1/health/")
    assert health.status == 503 and health.body["status"] == "unavailable", health.body
    return [_seen(answer) for answer in answers] + [f"health {_seen(health)}"]


def _seen(answer: Answer) -> str:
    return f"{answer.status}+Retry-After" if "Retry-After" in answer.headers else str(answer.status)


def test_database_stopped_for_20_s(app: Stack) -> None:
    org = "faults-db"
    # Two 3 s builds side by side: the stop catches at least one mid-build and leaves
    # others queued, whose first attempt meets the outage.
    api, hostnames, paths = busy(app, org, "db", slow_build_s=3)

    app.postgres.stop("fast")
    stopped_at = time.monotonic()
    seen: Counter[str] = Counter()
    attempted: list[str] = []
    anonymous = app.anonymous()
    while time.monotonic() - stopped_at < DB_OUTAGE_S:
        attempted.append(f"db-outage-{len(attempted)}")
        seen.update(outage_round(api, anonymous, attempted[-1], paths[0]))
        time.sleep(0.5)
    app.postgres.start()
    outage_s = time.monotonic() - stopped_at

    # The client retries whatever was refused, with the same key: each is stored once.
    for hostname in attempted:
        answer = post_assessment(api, hostname)
        assert answer.status in (200, 201), answer.body
    recovery_s = wait_all_done(api, paths, DB_RECOVERY_S)
    assert_settled(app, org, hostnames + attempted)
    # The build caught mid-way failed its final write, retried, and started again.
    assert max(row[2] for row in report_rows(app, org, "done")) >= 2
    print(
        f"database: down {outage_s:.1f} s, answers during outage {dict(seen)}, "
        f"all reports done {recovery_s:.1f} s after restart"
    )


def test_worker_killed_mid_build(app: Stack) -> None:
    org = "faults-worker"
    api = app.api(app.member_token(org))
    # A minute-long build: it is certainly still running when its worker is killed.
    doomed = app.start_worker("doomed", slow_build_s=60, visibility_s=VISIBILITY_S)
    hostnames = ["worker-0", "worker-1"]
    paths = [queue_report(api, i) for i in create_assessments(api, hostnames)]
    wait_running(app, org)

    app.kill_worker(doomed)
    assert doomed.returncode == -9
    [(running_id, _, attempts)] = report_rows(app, org, "running")
    assert attempts == 1
    killed_at = time.monotonic()
    app.start_worker("rescuer", visibility_s=VISIBILITY_S)
    recovery_s = wait_all_done(api, paths, RESCUE_S)
    [(_, _, attempts)] = report_rows(app, org, "done", report_id=running_id)
    assert attempts == 2  # built again from the start by the rescuer, not by a sweep
    assert_settled(app, org, hostnames)
    print(f"worker: killed mid-build, all reports done {recovery_s:.1f} s after the rescuer, "
          f"{time.monotonic() - killed_at:.1f} s after the kill")  # fmt: skip
