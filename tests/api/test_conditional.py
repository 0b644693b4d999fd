"""Downloads carry ETag and Last-Modified; a client that has the file (If-None-Match with
its ETag, or If-Modified-Since with the time it saved it, as Ansible's `uri` sends with
`dest`) gets 304 and no body, so a second run reports no change."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone
from django.utils.http import http_date
from rest_framework.test import APIClient

from advisor.models import Fleet, FleetReport, Organisation, Report
from tests.api.conftest import ASSESSMENTS

PDF = b"%PDF-1.7 a built report"


@pytest.fixture
def downloads(api: APIClient, stored: dict[str, Any], org: Organisation) -> dict[str, str]:
    """A URL of each kind of download, for a file that exists."""
    assessment = stored["id"]
    done = {"status": "done", "finished_at": timezone.now()}
    report = Report.objects.create(assessment_id=assessment, **done,
                                   pdf_file=ContentFile(PDF, name="r.pdf"))  # fmt: skip
    fleet = Fleet.objects.create(organisation=org, total=0, rules_version="x", **done)
    fleet_report = FleetReport.objects.create(fleet=fleet, **done,
                                              pdf_file=ContentFile(PDF, name="f.pdf"))  # fmt: skip
    return {
        "artifact": f"{ASSESSMENTS}{assessment}/artifacts/sasv9_append.cfg",
        "recommendations.json": f"{ASSESSMENTS}{assessment}/artifacts/recommendations.json",
        "zip": f"{ASSESSMENTS}{assessment}/bundle.zip",
        "collector": "/api/v1/collector",
        "report": f"{ASSESSMENTS}{assessment}/reports/{report.pk}/pdf",
        "fleet report": f"/api/v1/fleets/{fleet.pk}/reports/{fleet_report.pk}/pdf",
        "fleet csv": f"/api/v1/fleets/{fleet.pk}/servers.csv",
    }


KINDS = ("artifact", "recommendations.json", "zip", "collector", "report", "fleet report",
         "fleet csv")  # fmt: skip


def _body(answer: Any) -> bytes:
    return b"".join(answer.streaming_content) if answer.streaming else answer.content


@pytest.mark.parametrize("kind", KINDS)
def test_a_second_download_of_an_unchanged_file_is_304(
    api: APIClient, downloads: dict[str, str], kind: str
) -> None:
    url = downloads[kind]
    first = api.get(url)
    assert first.status_code == 200
    assert _body(first)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag.startswith('"') and first["Cache-Control"] == "private, no-store"

    again = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and _body(again) == b""
    assert (again["ETag"], again["Last-Modified"]) == (etag, modified)
    # What Ansible's uri module sends for a file it saved: the file's modification time.
    saved = api.get(url, HTTP_IF_MODIFIED_SINCE=http_date(time.time()))
    assert saved.status_code == 304

    assert api.get(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200
    older = http_date((timezone.now() - timedelta(days=400)).timestamp())
    assert api.get(url, HTTP_IF_MODIFIED_SINCE=older).status_code == 200
    assert api.get(url).get("ETag") == etag  # the same file, the same tag


def test_a_file_of_another_assessment_has_another_tag(
    api: APIClient, stored: dict[str, Any], prime: dict[str, Any]
) -> None:
    other = api.post(ASSESSMENTS, prime, format="json").json()["id"]
    tags = {api.get(f"{ASSESSMENTS}{pk}/bundle.zip")["ETag"] for pk in (stored["id"], other)}
    assert len(tags) == 2


def test_the_csv_of_a_running_fleet_has_no_validators(api: APIClient, org: Organisation) -> None:
    fleet = Fleet.objects.create(organisation=org, total=1, rules_version="x")
    answer = api.get(f"/api/v1/fleets/{fleet.pk}/servers.csv", HTTP_IF_NONE_MATCH="*")
    assert answer.status_code == 200 and "ETag" not in answer


def test_the_csv_tag_depends_on_its_filters(api: APIClient, downloads: dict[str, str]) -> None:
    url = downloads["fleet csv"]
    assert api.get(url)["ETag"] != api.get(url, {"severity": "high"})["ETag"]
