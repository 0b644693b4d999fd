"""Reading a server through the API: parse a bundle, verify an assessment, get the collector."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.assessments import api_reading, reading
from rules.current import Current
from rules.validate import parse_part
from tests.rules.parse.fixtures import DEBIAN12, bundle, transcript

PARSE = "/api/v1/inventories/parse"
LINUX = transcript(*DEBIAN12)
CONFIG = transcript("sas/sasv9_local_statcan.txt")


def verify_url(pk: int) -> str:
    return f"/api/v1/assessments/{pk}/verify"


def test_a_transcript_becomes_a_draft_with_provenance_and_what_is_missing(api: APIClient) -> None:
    response = api.post(PARSE, LINUX, content_type="text/plain")
    assert response.status_code == 200, response.content
    body = response.json()
    server = body["inventory"]["server"]
    assert server["os_version"] == "12"
    assert body["provenance"]["server.cpus"]["command"] == "nproc"
    assert body["provenance"]["server.ram_gb"]["raw"].startswith("MemTotal:")
    assert "workload" in [m["path"] for m in body["missing"]]
    assert body["problems"] == []


def test_json_body_and_bad_bodies_name_the_field(api: APIClient) -> None:
    ok = api.post(PARSE, {"bundle": LINUX}, format="json")
    assert ok.status_code == 200
    for body in ({"bundle": 7}, {"other": "x"}):
        response = api.post(PARSE, body, format="json")
        assert response.status_code == 400
        assert "bundle" in response.json()["errors"]
    empty = api.post(PARSE, "  \n", content_type="text/plain")
    assert empty.status_code == 400
    assert empty.json()["errors"]["bundle"] == ["is empty: send the collector's bundle"]


def test_a_garbled_section_is_a_problem_with_its_line(api: APIClient) -> None:
    text = "$ cat /opt/sas/9.4/sasv9_local.cfg\n-MEMSIZE 2G\n;;; not an option\n$ nproc\n4\n"
    body = api.post(PARSE, text, content_type="text/plain").json()
    assert body["problems"][0]["line"] == 3
    assert body["inventory"]["server"]["cpus"] == 4


def test_bundle_views_have_their_own_size_limit(
    api: APIClient, settings: Any, monkeypatch: pytest.MonkeyPatch, prime: dict[str, Any]
) -> None:
    settings.MAX_REQUEST_BYTES, settings.MAX_BUNDLE_BYTES = 1024, 2048
    monkeypatch.setattr(api_reading.BundleViewBase, "max_body_bytes", 2048)
    response = api.post(PARSE, "x" * 4096, content_type="text/plain")
    assert response.status_code == 413
    assert api.post(PARSE, LINUX[:1500], content_type="text/plain").status_code == 200
    # Any other view keeps MAX_REQUEST_BYTES.
    assert api.post("/api/v1/advice/", prime, format="json").status_code == 413


def test_parse_needs_credentials(anon: APIClient) -> None:
    assert anon.post(PARSE, LINUX, content_type="text/plain").status_code == 401


def test_verify_lists_non_compliant_settings(api: APIClient, stored: dict[str, Any]) -> None:
    response = api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    assert response.status_code == 200, response.content
    body = response.json()
    rows = {r["setting"]: r for r in body["rows"] if r["target"] == "sasv9_append.cfg"}
    assert rows["MEMSIZE"] | {"rule": ""} == {
        "rule": "", "target": "sasv9_append.cfg", "setting": "MEMSIZE", "recommended": "8G",
        "current": "2G", "status": "change", "compliant": False, "how": None,
    }  # fmt: skip
    assert rows["WORK"]["current"] == "/tmp" and rows["WORK"]["compliant"] is False
    assert rows["THREADS"]["current"] == "(not set)" and rows["THREADS"]["compliant"] is False
    assert body["non_compliant"] >= 3
    assert body["not_verified"] > 0  # checks and settings the bundle did not cover


@pytest.mark.parametrize("line", ["# collector: te\x00sts", "# started: 2026\x01-11-25"])
def test_verify_takes_a_bundle_whose_header_holds_control_characters(
    api: APIClient, stored: dict[str, Any], line: str
) -> None:
    text = bundle("sas/sasv9_local_statcan.txt").replace("# collector: tests", line)
    assert line in text
    response = api.post(verify_url(stored["id"]), text, content_type="text/plain")
    assert response.status_code == 200, response.content
    assert response.json()["non_compliant"] >= 3


def test_verify_refuses_a_reading_the_contract_refuses_naming_the_field(
    api: APIClient, stored: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: Any) -> None:
        parse_part(Current, {"source": "a\x01b"}, "current")

    monkeypatch.setattr(reading, "verify_assessment", broken)
    response = api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    assert response.status_code == 400
    assert "current.source: must not contain control characters" in str(response.json())


def test_verify_is_for_the_owner_only(outsider_api: APIClient, stored: dict[str, Any]) -> None:
    response = outsider_api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    assert response.status_code == 404


def test_the_collector_downloads_stamped_with_its_version(api: APIClient) -> None:
    response = api.get("/api/v1/collector")
    assert response.status_code == 200
    text = response.content.decode()
    assert text.startswith("#!/bin/sh")
    assert "@COLLECTOR_VERSION@" not in text
    assert "attachment" in response["Content-Disposition"]
