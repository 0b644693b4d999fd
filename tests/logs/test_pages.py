"""The log pages with a log over the threshold: the upload redirects to a page that says it
is queued and polls (htmx) until it is done, when the page reloads, or failed, when it says
why; lists, the API list and the assessment's report take queued and failed logs."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from advisor.logs import analysing
from advisor.models import JobLog
from tests.logs.conftest import INLINE, sort_log, uploads

HTMX = {"HTTP_HX_REQUEST": "true"}


def upload(client: Client, body: bytes, **extra: Any) -> Any:
    files = {"files": SimpleUploadedFile("night.log", body, content_type="text/plain")}
    return client.post("/logs/", {**files, **extra})


def test_a_large_upload_shows_queued_and_polls(
    client_in: Client, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as queued:
        response = upload(client_in, sort_log(4 * INLINE))
    row = JobLog.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/logs/{row.pk}/"
    assert len(queued) == 1 and len(uploads()) == 1
    page = client_in.get(f"/logs/{row.pk}/").content.decode()
    assert "a worker reads it: queued" in page
    assert f'hx-get="/logs/{row.pk}/status/"' in page and 'hx-trigger="every 1s"' in page
    assert "Timeline" not in page


def test_the_status_region_polls_until_done_then_reloads_the_page(
    client_in: Client, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks():
        upload(client_in, sort_log(4 * INLINE))
    row = JobLog.objects.get()
    waiting = client_in.get(f"/logs/{row.pk}/status/", **HTMX)
    assert waiting.status_code == 200 and "HX-Refresh" not in waiting
    fragment = waiting.content.decode()
    assert fragment.lstrip().startswith('<section id="log-status"') and "<html" not in fragment

    analysing.log_analyse(log_id=row.pk)

    done = client_in.get(f"/logs/{row.pk}/status/", **HTMX)
    assert done.status_code == 286 and done["HX-Refresh"] == "true"
    page = client_in.get(f"/logs/{row.pk}/").content.decode()
    assert "Timeline" in page and "log-status" not in page
    assert "PROC SORT" in page


def test_a_failed_log_says_why_and_polling_stops(client_in: Client, user: User) -> None:
    row = JobLog.objects.create(
        organisation=user.membership.organisation, name="night.log", size_bytes=9_000_000,
        status="failed", error="the worker's time limit of 60 s was reached (3 attempts)",
    )  # fmt: skip
    stopped = client_in.get(f"/logs/{row.pk}/status/", **HTMX)
    assert stopped.status_code == 286 and "HX-Refresh" not in stopped
    page = client_in.get(f"/logs/{row.pk}/").content.decode()
    assert "could not be diagnosed: the worker&#x27;s time limit of 60 s" in page
    assert "hx-get" not in page.split('id="log-status"')[1].split(">")[0]


def test_status_without_htmx_is_a_plain_answer(client_in: Client, user: User) -> None:
    row = JobLog.objects.create(organisation=user.membership.organisation, name="x.log",
                                size_bytes=5, status="done")  # fmt: skip
    assert client_in.get(f"/logs/{row.pk}/status/").status_code == 200


def test_lists_report_and_api_take_queued_and_failed_logs(
    client_in: Client, user: User, lemans: dict[str, Any]
) -> None:
    from advisor.assessments.services import assessment_create
    from advisor.reports.services import render_report_html

    assessment, _ = assessment_create(user=user, document=lemans)
    org = user.membership.organisation
    for status in ("queued", "running", "failed"):
        JobLog.objects.create(organisation=org, assessment=assessment, name=f"{status}.log",
                              size_bytes=9_000_000, status=status)  # fmt: skip
    listed = client_in.get("/logs/")
    assert listed.status_code == 200
    text = listed.content.decode()
    assert ">queued</span>" in text and ">being read</span>" in text and ">failed</span>" in text
    api = client_in.get("/api/v1/logs/").json()["results"]
    assert sorted(r["status"] for r in api) == ["failed", "queued", "running"]
    assert client_in.get(f"/assessments/{assessment.pk}/").status_code == 200
    assert "queued.log" in render_report_html(assessment)  # drawn, not a crash


def test_an_outsider_finds_no_status(
    client_in: Client, outsider_client: Client, user: User
) -> None:
    row = JobLog.objects.create(organisation=user.membership.organisation, name="x.log",
                                size_bytes=5, status="queued")  # fmt: skip
    assert client_in.get(f"/logs/{row.pk}/status/", **HTMX).status_code == 200
    assert outsider_client.get(f"/logs/{row.pk}/status/", **HTMX).status_code == 404
    assert outsider_client.get(f"/logs/{row.pk}/").status_code == 404
