"""The report's options (client, consultant, notes, scripts appendix) on the panel and the
API: stored when valid, refused by field name with nothing stored when not; the panel shows
progress in place of the form while a report is queued or running."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from advisor.models import Assessment, Report

HTMX = {"HTTP_HX_REQUEST": "true"}
OPTIONS = {
    "client_name": "Globex Insurance",
    "consultant_name": "Dana Scully",
    "consultant_notes": "First line.\r\n\r\nSecond paragraph.",
    "include_scripts": "on",
}


def api_url(assessment: Assessment) -> str:
    return f"/api/v1/assessments/{assessment.pk}/reports/"


def test_the_panel_offers_the_options_with_the_appendix_ticked(assessment: Assessment) -> None:
    html = render_to_string("reports/assessment_panel.html", {"assessment": assessment})
    for name in ("client_name", "consultant_name", "consultant_notes", "include_scripts"):
        assert f'name="{name}"' in html
    assert 'maxlength="4000"' in html and 'hx-disabled-elt="#report-build"' in html
    assert '<progress aria-label="Building the report"></progress> Building' in html
    assert "checked" in html and "Build the PDF report" in html


def test_a_queued_report_shows_progress_instead_of_the_button(assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment, status="queued")
    html = render_to_string("reports/assessment_panel.html", {"assessment": assessment})
    assert "Build the PDF report" not in html and 'name="client_name"' not in html
    assert f"Report {report.pk} is queued" in html and "<progress" in html
    assert f'hx-get="{reverse("reports:status", args=[report.pk])}"' in html


def test_the_form_is_filled_from_the_last_report(assessment: Assessment) -> None:
    Report.objects.create(
        assessment=assessment, status="done", client_name="Initech & Co",
        consultant_notes="<script>x</script>", include_scripts=False,
    )  # fmt: skip
    html = render_to_string("reports/assessment_panel.html", {"assessment": assessment})
    assert 'value="Initech &amp; Co"' in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert "checked" not in html


def test_htmx_post_stores_the_options_and_answers_with_progress(
    client_in: Client,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        response = client_in.post(reverse("reports:create", args=[assessment.pk]), OPTIONS, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="report-status"') and "<progress" in body
    assert "Build the PDF report" not in body
    report = Report.objects.get()
    assert (report.client_name, report.consultant_name) == ("Globex Insurance", "Dana Scully")
    assert report.consultant_notes == "First line.\n\nSecond paragraph."
    assert report.include_scripts is True


def test_an_unticked_box_leaves_the_scripts_out(
    client_in: Client,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        client_in.post(
            reverse("reports:create", args=[assessment.pk]), {"client_name": "X", "options": "1"}
        )
    assert Report.objects.get().include_scripts is False


def test_a_request_without_the_form_includes_the_scripts(
    client_in: Client,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        client_in.post(reverse("reports:create", args=[assessment.pk]), {})
    assert Report.objects.get().include_scripts is True


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [
        ("client_name", "x" * 201, "Client name"),
        ("consultant_name", "y" * 201, "Consultant"),
        ("consultant_notes", "z" * 4001, "Consultant notes"),
        ("client_name", "null\x00byte", "Client name"),
    ],
)
def test_bad_options_are_refused_by_name_and_nothing_is_stored(
    client_in: Client, assessment: Assessment, field: str, value: str, label: str
) -> None:
    url = reverse("reports:create", args=[assessment.pk])
    htmx = client_in.post(url, {**OPTIONS, field: value}, **HTMX)
    body = htmx.content.decode()
    assert htmx.status_code == 400 and body.lstrip().startswith('<div id="report-status"')
    assert f"{label}: " in body and 'aria-invalid="true"' in body
    plain = client_in.post(url, {**OPTIONS, field: value})
    page = plain.content.decode()
    assert plain.status_code == 400 and "<html" in page and f"{label}: " in page
    assert not Report.objects.exists()


def test_api_takes_the_same_options(
    api: APIClient,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    body = {"client_name": "Globex", "consultant_notes": "Note.", "include_scripts": False}
    with django_capture_on_commit_callbacks(execute=False):
        response = api.post(api_url(assessment), body, format="json")
    assert response.status_code == 202
    assert response.data["client_name"] == "Globex" and response.data["include_scripts"] is False
    report = Report.objects.get()
    assert (report.consultant_notes, report.consultant_name) == ("Note.", "")


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"client_name": "x" * 201}, {"client_name"}),
        ({"consultant_notes": "z" * 4001}, {"consultant_notes"}),
        ({"include_scripts": "maybe"}, {"include_scripts"}),
        ({"include_script": False}, {"include_script"}),
    ],
)
def test_api_refuses_bad_options_by_field(
    api: APIClient, assessment: Assessment, body: dict[str, Any], errors: set[str]
) -> None:
    response = api.post(api_url(assessment), body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == errors
    assert not Report.objects.exists()


def test_openapi_documents_the_options(api: APIClient) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/assessments/{assessment_id}/reports/"]["post"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]
    assert set(fields) == {"client_name", "consultant_name", "consultant_notes", "include_scripts"}
    assert fields["consultant_notes"]["maxLength"] == 4000
    assert "400" in operation["responses"]
