"""REST: queue a report (202 + status URL), status, PDF download by the owner only, capacity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from rest_framework.test import APIClient

from advisor.models import Assessment, Report
from rules.capacity import CHEW_CONCURRENT, CHEW_SINGLE

CHEW_BODY: dict[str, Any] = {
    "single": [{"cpucount": r.cpucount, "minutes": r.minutes} for r in CHEW_SINGLE],
    "concurrent": [
        {"jobs": r.jobs, "cpucount": r.cpucount, "minutes": r.minutes} for r in CHEW_CONCURRENT[:2]
    ],
    "jobs": 63,
    "cpucount": 8,
    "cpus": 8,
}


def create_url(assessment: Assessment) -> str:
    return f"/api/v1/assessments/{assessment.pk}/reports/"


@pytest.mark.slow  # builds a PDF
def test_create_answers_202_with_status_url_and_builds(
    api: APIClient,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(create_url(assessment))
    assert response.status_code == 202
    report = Report.objects.get(pk=response.data["id"])
    assert response["Location"] == response.data["status_url"]
    assert response.data["status_url"].endswith(f"/reports/{report.pk}/")
    status = api.get(response.data["status_url"])
    assert status.status_code == 200 and status.data["status"] == "done"
    pdf = api.get(status.data["pdf_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content if pdf.streaming else [pdf.content]).startswith(b"%PDF")


def test_outsider_gets_404_everywhere(outsider_api: APIClient, assessment: Assessment) -> None:
    report = Report.objects.create(
        assessment=assessment, status="done", pdf_file=ContentFile(b"%PDF-1.7 x", name="r.pdf")
    )
    base = f"{create_url(assessment)}{report.pk}/"
    assert outsider_api.post(create_url(assessment)).status_code == 404
    assert outsider_api.get(base).status_code == 404
    assert outsider_api.get(base + "pdf").status_code == 404
    assert Report.objects.count() == 1


def test_pdf_of_an_unfinished_report_is_409(api: APIClient, assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment, status="running")
    response = api.get(f"{create_url(assessment)}{report.pk}/pdf")
    assert response.status_code == 409
    assert response.json()["errors"] == {"status": ["is running, not done"]}


def test_anonymous_is_refused(assessment: Assessment) -> None:
    assert APIClient().post(create_url(assessment)).status_code in (401, 403)


def test_capacity_predicts_chews_63_jobs(api: APIClient) -> None:
    response = api.post("/api/v1/capacity/", CHEW_BODY, format="json")
    assert response.status_code == 200
    assert response.data["minutes"] == pytest.approx(175.8, abs=0.5)
    assert response.data["calibration"].startswith("calibrated with 2 concurrent runs")
    assert response.data["assumptions"] and "T(N)" in response.data["model"]
    assert {e["percent_of_baseline"] for e in response.data["effects"]} == {85.5, 57.5}


def test_capacity_single_only_reports_its_accuracy(api: APIClient) -> None:
    body = {**CHEW_BODY, "concurrent": []}
    response = api.post("/api/v1/capacity/", body, format="json")
    assert response.status_code == 200 and "within 3.3 %" in response.data["accuracy"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"single": []}, "single"),
        ({"single": [{"cpucount": 1, "minutes": 5}, {"cpucount": 1, "minutes": 6}]}, "single"),
        ({"jobs": 0}, "jobs"),
        ({"cpus": "many"}, "cpus"),
    ],
)
def test_capacity_errors_name_the_field(api: APIClient, change: dict[str, Any], field: str) -> None:
    response = api.post("/api/v1/capacity/", {**CHEW_BODY, **change}, format="json")
    assert response.status_code == 400
    assert field in str(response.json())


def test_endpoints_are_in_the_schema(api: APIClient) -> None:
    schema = api.get(reverse("schema"), {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/v1/capacity/" in paths
    assert "202" in paths["/api/v1/assessments/{assessment_id}/reports/"]["post"]["responses"]
    assert "/api/v1/assessments/{assessment_id}/reports/{id}/pdf" in paths
