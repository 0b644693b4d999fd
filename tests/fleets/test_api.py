"""Fleets through the API with tasks run in process: formats, bad documents failing
alone with re-rooted problems, idempotency, filters, CSV, groups, disagreements, drift,
re-evaluation, and another organisation finding nothing."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.models import Assessment, Fleet, FleetItem
from tests.fleets.conftest import fleet, ndjson, server, zipped
from tests.stored_results import replace_result

FLEETS = "/api/v1/fleets/"


def upload(api: APIClient, body: bytes, content_type: str, **headers: str) -> Any:
    return api.generic("POST", FLEETS + "?name=night", body, content_type, **headers)


@pytest.fixture
def mixed() -> bytes:
    bad_mount = server("lemans-aix53-etl", "badmount")
    bad_mount["storage"][1]["mount"] = "no-slash"
    lines = ndjson(fleet(3)).decode().splitlines()
    lines += ["{not json", json.dumps("a string"), json.dumps(bad_mount)]
    return ("\n".join(lines) + "\n").encode()


def test_a_fleet_with_bad_documents_mixed_in(
    api: APIClient, mixed: bytes, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(api, mixed, "application/x-ndjson")
    assert response.status_code == 202, response.content
    assert response["Location"] == response.json()["url"]
    body = api.get(response.json()["url"]).json()
    assert (body["status"], body["total"], body["done"], body["failed"]) == ("done", 6, 3, 3)
    items = {i.position: i for i in FleetItem.objects.all()}
    assert items[3].problems[0].startswith("servers[3]: not JSON")
    assert items[4].problems == ["servers[4]: not a JSON object: an inventory is {…}"]
    assert any(p.startswith("servers[5].storage[1].mount:") for p in items[5].problems)
    stored = Assessment.objects.filter(fleet_item__fleet_id=body["id"])
    assert sorted(stored.values_list("hostname", flat=True)) == ["sas0000", "sas0001", "sas0002"]


@pytest.mark.parametrize("kind", ["array", "servers", "zip"])
def test_json_array_object_and_zip(
    api: APIClient, kind: str, django_capture_on_commit_callbacks: Any
) -> None:
    docs = fleet(4)
    body, content_type = {
        "array": (json.dumps(docs).encode(), "application/json"),
        "servers": (json.dumps({"servers": docs}).encode(), "application/json"),
        "zip": (zipped({f"inv/{d['server']['hostname']}.json": d for d in docs}
                       | {"inv/broken.json": "{", "README.txt": "x"}), "application/zip"),
    }[kind]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, body, content_type).json()
    progress = api.get(answer["url"]).json()
    assert progress["done"] == 4
    assert progress["failed"] == (1 if kind == "zip" else 0)


def test_uploads_that_are_no_fleet_name_the_field(api: APIClient) -> None:
    assert upload(api, b"[]", "application/json").json()["errors"]["servers"]
    assert upload(api, b"{}", "application/json").json()["errors"]["servers"]
    assert upload(api, b"PK\x03\x04junk", "application/zip").json()["errors"]["file"]
    assert upload(api, b"hello", "application/octet-stream").json()["errors"]["file"]
    assert upload(api, b"hello", "text/plain").status_code == 415  # a type not declared
    assert Fleet.objects.count() == 0


def test_idempotency_key_as_on_assessments(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    body = ndjson(fleet(2))
    with django_capture_on_commit_callbacks(execute=True):
        first = upload(api, body, "application/x-ndjson", HTTP_IDEMPOTENCY_KEY="k1")
    again = upload(api, body, "application/x-ndjson", HTTP_IDEMPOTENCY_KEY="k1")
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    other = upload(api, ndjson(fleet(3)), "application/x-ndjson", HTTP_IDEMPOTENCY_KEY="k1")
    assert other.status_code == 409
    assert Fleet.objects.count() == 1 and Assessment.objects.count() == 2


def test_filters_sorting_csv_groups_and_disagreements(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, ndjson(fleet(8)), "application/x-ndjson").json()
    detail = api.get(answer["url"]).json()
    groups = detail["groups"]
    assert sum(g["servers"] for g in groups) == 8 and groups[0]["servers"] >= 2
    assert {"setting", "values"} <= set(detail["disagreements"][0])
    by_group = api.get(answer["servers_url"], {"group": groups[0]["config_key"]}).json()
    assert by_group["count"] == groups[0]["servers"]
    high_first = api.get(answer["servers_url"], {"sort": "high"}).json()["results"]
    highs = [row["warnings"]["high"] for row in high_first]
    assert highs == sorted(highs, reverse=True)
    found = api.get(answer["servers_url"], {"q": "sas0003"}).json()
    assert [row["host"] for row in found["results"]] == ["sas0003"]
    streamed = b"".join(api.get(answer["csv_url"]).streaming_content).decode()
    table = list(csv.reader(io.StringIO(streamed)))
    assert table[0][:4] == ["position", "label", "host", "status"] and len(table) == 9


def test_reevaluation_shows_drift_and_what_the_new_rules_change(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = upload(api, ndjson(fleet(4)), "application/x-ndjson").json()
    # The first run was made by older rules that advised MEMSIZE 1G on sas0000.
    item = FleetItem.objects.get(fleet_id=first["id"], host="sas0000")
    item.settings = {**item.settings, "MEMSIZE": "1G"}
    item.save()
    Fleet.objects.filter(pk=first["id"]).update(rules_version="2026.01.0")
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post(first["url"] + "reevaluate")
    assert again.status_code == 202
    drift = api.get(again.json()["url"]).json()["drift"]
    assert drift["previous"] == first["id"] and drift["compared"] == 4
    assert drift["rules_versions"][0] == "2026.01.0"
    (host,) = drift["hosts"]
    assert host["host"] == "sas0000"
    assert host["changes"][0]["setting"] == "MEMSIZE" and host["changes"][0]["old"] == "1G"


def test_an_assessment_reevaluated_on_bumped_rules(api: APIClient, lemans: dict[str, Any]) -> None:
    old = api.post("/api/v1/assessments/", lemans, format="json").json()
    stored = Assessment.objects.get(pk=old["id"])
    result = stored.result
    memsize = next(r for r in result["recommendations"] if r["setting"] == "MEMSIZE")
    memsize["value"] = "1G"
    result["rules_version"] = "2026.01.0"
    replace_result(stored, result)
    stored.rules_version = "2026.01.0"
    stored.save()
    answer = api.post(f"/api/v1/assessments/{old['id']}/reevaluate")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["rules_version"]["old"] == "2026.01.0"
    (change,) = [c for c in body["changes"] if c["setting"] == "MEMSIZE"]
    assert change["old"] == "1G" and change["change"] == "changed" and change["why"]
    assert Assessment.objects.get(pk=old["id"]).rules_version == "2026.01.0"


def test_another_organisation_gets_404_on_every_fleet_url(
    api: APIClient, outsider_api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, ndjson(fleet(1)), "application/x-ndjson").json()
    for url in (answer["url"], answer["servers_url"], answer["csv_url"]):
        assert outsider_api.get(url).status_code == 404
    assert outsider_api.post(answer["url"] + "reevaluate").status_code == 404
    assert outsider_api.get(FLEETS).json()["results"] == []


def test_a_zip_of_collector_bundles_with_their_workload(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    from pathlib import Path

    from tests.rules.parse.fixtures import DEBIAN12, bundle

    workload = json.loads(
        (Path(__file__).parents[2] / "examples/workload/etl-mix.json").read_text()
    )
    body = zipped({
        "bundles/vm1.txt": bundle(*DEBIAN12, host="vm1"),
        "bundles/vm2.txt": bundle(*DEBIAN12, host="vm2"),
        "bundles/notes.txt": "not a bundle: left out",
        "bundles/workload.json": workload,
    })  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, body, "application/zip").json()
    progress = api.get(answer["url"]).json()
    assert (progress["total"], progress["done"], progress["failed"]) == (2, 2, 0), progress
    hosts = [row["host"] for row in api.get(answer["servers_url"]).json()["results"]]
    assert hosts == ["vm1", "vm2"]


def test_the_fleet_report_is_a_pdf_of_the_summary(
    api: APIClient, django_capture_on_commit_callbacks: Any, tmp_path: Any
) -> None:
    from tests.reports.test_pdf import pdf_text, require_poppler

    require_poppler()
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, ndjson(fleet(6)), "application/x-ndjson").json()
    with django_capture_on_commit_callbacks(execute=False):
        queued = api.post(answer["url"] + "reports/")
        joined = api.post(answer["url"] + "reports/")
    assert queued.status_code == joined.status_code == 202
    assert joined.json()["id"] == queued.json()["id"]
    assert api.get(queued.json()["pdf_url"]).status_code == 409
    from advisor.fleets.reporting import fleet_report_build

    fleet_report_build(report_id=queued.json()["id"])
    assert api.get(queued.json()["url"]).json()["status"] == "done"
    pdf = api.get(queued.json()["pdf_url"])
    body = pdf.getvalue()  # streamed from storage: read once
    assert pdf.status_code == 200 and body.startswith(b"%PDF")
    path = tmp_path / "fleet.pdf"
    path.write_bytes(body)
    text = pdf_text(path)
    assert "SAS fleet report: night" in text and "Servers grouped by identical advice" in text
    assert "Servers assessed 6" in " ".join(text.split())


def test_nul_and_lone_surrogates_fail_their_item_not_the_upload(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    body = (
        b'[{"a\\u0000b": 1}, {"server": {"hostname": "\\ud800x"}}, '
        + json.dumps(fleet(1)[0]).encode()
        + b"]"
    )
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, body, "application/json")
    assert answer.status_code == 202, answer.content
    progress = api.get(answer.json()["url"]).json()
    assert (progress["done"], progress["failed"]) == (1, 2)
    problems = [p for i in FleetItem.objects.all() for p in i.problems]
    assert all("not text" in p for p in problems) and len(problems) == 2
    named = api.generic("POST", FLEETS + "?name=a%00b", ndjson(fleet(1)), "application/x-ndjson")
    assert named.status_code == 202 and named.json()["name"] == "ab"


def test_reevaluating_in_the_browser_leads_to_the_settings_that_changed(
    client_in: Any, user: Any, lemans: dict[str, Any]
) -> None:
    from advisor.assessments.services import assessment_create

    old, _ = assessment_create(user=user, document=lemans)
    result = old.result
    memsize = next(r for r in result["recommendations"] if r["setting"] == "MEMSIZE")
    memsize["value"] = "1G"
    replace_result(old, result)
    old.rules_version = "2026.01.0"
    old.save()
    response = client_in.post(f"/assessments/{old.pk}/reevaluate")
    assert response.status_code == 302
    page = client_in.get(response["Location"]).content.decode()
    assert (
        "Rules 2026.01.0 →" in page and "<code>MEMSIZE</code>" in page and "<code>1G</code>" in page
    )


def test_a_fleet_whose_messages_were_lost_is_queued_again(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from advisor.fleets import services

    def broker_down(fleet: Any) -> None:
        raise ConnectionError("the broker is down")

    with monkeypatch.context() as patched:
        patched.setattr(services, "queue_chunks", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            answer = upload(api, ndjson(fleet(2)), "application/x-ndjson")
    assert answer.status_code == 202  # the upload is stored although nothing was queued
    assert api.get(answer.json()["url"]).json()["status"] == "queued"
    Fleet.objects.update(queued_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert api.get(answer.json()["url"]).json()["status"] in ("queued", "done")
    assert api.get(answer.json()["url"]).json()["status"] == "done"


def test_a_fleet_report_that_cannot_be_built_is_marked_failed_in_process(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from advisor.fleets import reporting

    def broken(html: str) -> bytes:
        raise ValueError("no PDF today")

    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(api, ndjson(fleet(1)), "application/x-ndjson").json()
    monkeypatch.setattr(reporting, "html_to_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        report = api.post(answer["url"] + "reports/").json()
    status = api.get(report["url"]).json()
    assert status["status"] == "failed" and "no PDF today" in status["error"]
