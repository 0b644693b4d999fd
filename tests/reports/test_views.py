"""Web: the panel's report button with htmx polling (286 when finished) and the capacity form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment, Report

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_panels_show_button_capacity_form_and_poll_a_running_report(
    assessment: Assessment,
) -> None:
    html = render_to_string("reports/assessment_panel.html", {"assessment": assessment})
    capacity = render_to_string("capacity/assessment_panel.html", {"assessment": assessment})
    assert reverse("reports:create", args=[assessment.pk]) in html
    assert 'name="cpus" type="number" min="1" value="8"' in capacity
    assert "No report yet." in html and "hx-trigger" not in html
    report = Report.objects.create(assessment=assessment, status="running")
    html = render_to_string("reports/assessment_panel.html", {"assessment": assessment})
    assert f'hx-get="{reverse("reports:status", args=[report.pk])}"' in html
    assert 'hx-trigger="every 1s"' in html


def test_htmx_create_returns_only_the_status_fragment(
    client_in: Client,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        response = client_in.post(reverse("reports:create", args=[assessment.pk]), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="report-status"') and "<html" not in body
    assert "every 1s" in body and "queued" in body


def test_status_polling_stops_with_286_when_done(client_in: Client, assessment: Assessment) -> None:
    report = Report.objects.create(
        assessment=assessment, status="done", pdf_file=ContentFile(b"%PDF-1.7", name="r.pdf")
    )
    url = reverse("reports:status", args=[report.pk])
    response = client_in.get(url, **HTMX)
    assert response.status_code == 286 and "download the PDF" in response.content.decode()
    report.status = "running"
    report.save()
    assert client_in.get(url, **HTMX).status_code == 200


@pytest.mark.slow  # builds a PDF
def test_without_js_create_redirects_to_the_report_page(
    client_in: Client,
    assessment: Assessment,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client_in.post(reverse("reports:create", args=[assessment.pk]))
    report = Report.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/reports/{report.pk}/"
    page = client_in.get(response["Location"]).content.decode()
    assert "Executive summary" in page and "<svg" in page
    pdf = client_in.get(reverse("reports:pdf", args=[report.pk]))
    assert pdf.status_code == 200 and pdf.getvalue().startswith(b"%PDF")


def test_outsider_gets_404_on_every_report_page(
    outsider_client: Client, assessment: Assessment
) -> None:
    report = Report.objects.create(
        assessment=assessment, status="done", pdf_file=ContentFile(b"%PDF-1.7", name="r.pdf")
    )
    for name in ("detail", "status", "pdf"):
        assert outsider_client.get(reverse(f"reports:{name}", args=[report.pk])).status_code == 404
    create = reverse("reports:create", args=[assessment.pk])
    assert outsider_client.post(create).status_code == 404
    capacity = reverse("reports:capacity", args=[assessment.pk])
    assert outsider_client.post(capacity, {}).status_code == 404


def test_capacity_form_htmx_draws_the_curve(client_in: Client, assessment: Assessment) -> None:
    data = {
        "single": "1=21:31, 2=12:16, 4=6:34, 6=5:06, 8=4:04",
        "concurrent": "2=6:47, 3=9:38",
        "jobs": 63,
        "cpucount": 8,
        "cpus": 8,
    }
    response = client_in.post(reverse("reports:capacity", args=[assessment.pk]), data, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert "about 175.8 min each" in body and "<polyline" in body
    assert body.count("<circle") == 2  # the two measured runs


def test_capacity_form_errors_stay_next_to_the_form(
    client_in: Client, assessment: Assessment
) -> None:
    data = {"single": "8=4:04, 8=4:10", "jobs": 4, "cpucount": 8, "cpus": 8}
    url = reverse("reports:capacity", args=[assessment.pk])
    htmx = client_in.post(url, data, **HTMX)
    assert htmx.status_code == 200 and "one time per CPUCOUNT" in htmx.content.decode()
    plain = client_in.post(url, {**data, "single": "eight"})
    assert plain.status_code == 400 and "is not CPUCOUNT=minutes" in plain.content.decode()


def test_assessment_page_carries_the_panel(client_in: Client, assessment: Assessment) -> None:
    page = client_in.get(reverse("web:assessment", args=[assessment.pk])).content.decode()
    assert reverse("reports:create", args=[assessment.pk]) in page
    assert reverse("reports:capacity", args=[assessment.pk]) in page
    assert 'id="report-status"' in page and 'id="capacity-result"' in page
