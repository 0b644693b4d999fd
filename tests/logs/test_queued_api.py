"""A log over LOG_INLINE_BYTES through the API: 202 with Location and the queued body, its
upload in storage and its task queued after the commit; read while queued, then done
(the same analysis as a log read in its request) or failed with the reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from advisor.logs import analysing, services
from advisor.models import JobLog, Organisation
from tests.logs.conftest import INLINE, post_log, sort_log, uploads


def test_a_log_up_to_the_threshold_is_diagnosed_in_the_request(api: APIClient) -> None:
    body = sort_log(INLINE)[:INLINE]
    response = post_log(api, body, name="small.log")
    assert response.status_code == 201, response.content
    answer = response.json()
    assert answer["status"] == "done" and answer["size_bytes"] == INLINE
    assert answer["step_count"] == body.count(b"PROCEDURE SORT")
    assert answer["analysis"]["findings"][0]["rule"] == "log.sort_spill"
    assert JobLog.objects.get().upload.name == "" and uploads() == []


def test_a_larger_log_is_queued_202_with_location(
    api: APIClient, user: User, django_capture_on_commit_callbacks: Any
) -> None:
    body = sort_log(INLINE + 1)
    with django_capture_on_commit_callbacks() as queued:
        response = post_log(api, body, name="night.log")
    assert response.status_code == 202, response.content
    answer = response.json()
    row = JobLog.objects.get()
    url = f"http://testserver/api/v1/logs/{row.pk}/"
    assert answer == {"id": row.pk, "url": url, "name": "night.log", "status": "queued",
                      "size_bytes": len(body), "assessment": None}  # fmt: skip
    assert response["Location"] == url
    assert len(queued) == 1  # the task, queued once the row is committed
    assert (row.status, row.size_bytes, row.created_by) == ("queued", len(body), user)
    assert row.upload.name.startswith("logs/uploads/")
    assert [p.read_bytes() for p in uploads()] == [body]


def test_a_queued_log_reads_as_queued_then_done(
    api: APIClient, org: Organisation, django_capture_on_commit_callbacks: Any
) -> None:
    body = sort_log(10 * INLINE)
    with django_capture_on_commit_callbacks():
        log_id = post_log(api, body, name="night.log").json()["id"]
    waiting = api.get(f"/api/v1/logs/{log_id}/").json()
    assert (waiting["status"], waiting["analysis"], waiting["step_count"]) == ("queued", None, 0)
    listed = api.get("/api/v1/logs/").json()["results"]
    assert [(r["id"], r["status"]) for r in listed] == [(log_id, "queued")]

    analysing.log_analyse(log_id=log_id)

    done = api.get(f"/api/v1/logs/{log_id}/").json()
    inline = services.log_create(organisation=org, user=None, name="same", chunks=[body])
    assert done["status"] == "done" and done["error"] == ""
    assert done["analysis"] == JobLog.objects.get(pk=inline.pk).analysis
    assert done["step_count"] == inline.step_count == body.count(b"PROCEDURE SORT")
    assert done["saving_seconds"] == inline.saving_seconds > 0
    row = JobLog.objects.get(pk=log_id)
    assert (row.attempts, row.upload.name) == (1, "") and row.finished_at is not None
    assert uploads() == []


@pytest.mark.django_db(transaction=True)
def test_in_process_tasks_answer_202_with_the_log_already_done(api: APIClient) -> None:
    # No broker (CELERY_TASK_ALWAYS_EAGER, a bare runserver): the task runs at the commit,
    # in the request, which then reads what the row says.
    response = post_log(api, sort_log(4 * INLINE))
    assert response.status_code == 202
    assert response.json()["status"] == "done"
    detail = api.get(response["Location"]).json()
    assert detail["analysis"]["findings"][0]["rule"] == "log.sort_spill"
    assert uploads() == []


def test_the_log_is_diagnosed_against_its_assessment(
    api: APIClient, lemans: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    assessment = api.post("/api/v1/assessments/", lemans, format="json").json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_log(api, sort_log(4 * INLINE), assessment=assessment).json()
    assert answer["assessment"] == assessment
    options = api.get(answer["url"]).json()["analysis"]["options"]
    assert {row["option"]: row["echoed"] for row in options}["MEMSIZE"] == "2G"


def test_attached_while_queued_the_worker_compares_with_that_assessment(
    api: APIClient, lemans: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    assessment = api.post("/api/v1/assessments/", lemans, format="json").json()["id"]
    with django_capture_on_commit_callbacks():
        log_id = post_log(api, sort_log(4 * INLINE)).json()["id"]
    attached = api.patch(f"/api/v1/logs/{log_id}/", {"assessment": assessment}, format="json")
    assert attached.status_code == 200
    assert (attached.json()["assessment"], attached.json()["analysis"]) == (assessment, None)
    assert JobLog.objects.get(pk=log_id).analysis == {}

    analysing.log_analyse(log_id=log_id)

    memsize = {
        o["option"]: o for o in api.get(f"/api/v1/logs/{log_id}/").json()["analysis"]["options"]
    }
    assert memsize["MEMSIZE"]["echoed"] == "2G" and memsize["MEMSIZE"]["recommended"]


def test_an_outsider_finds_no_queued_log(
    api: APIClient, outsider_api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks():
        url = post_log(api, sort_log(4 * INLINE)).json()["url"]
    assert outsider_api.get(url).status_code == 404
    assert outsider_api.get("/api/v1/logs/").json()["results"] == []
