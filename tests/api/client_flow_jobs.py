"""The provisioning flow through a generated client, part two: fleets uploaded as NDJSON,
as a zip and as JSON and polled until done, their servers, CSV, report and re-evaluation;
SAS logs read in the request and on a worker; an assessment's report and its PDF;
re-evaluation and archiving; webhooks; the catalog, health, collector and capacity.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from django.test import override_settings

from tests.api.client_flow import BUNDLE, Flow, example_documents, unchanged
from tests.api.test_logs import SORT

FINISHED = ("done", "failed")
LOG_INLINE_BYTES = 2048  # a log larger than this goes to a worker


def _finished(answer: Any) -> bool:
    return str(answer.status) in FINISHED


def _fleet_done(flow: Flow, fleet: Any) -> Any:
    return flow.until(
        lambda: flow.call("fleets_retrieve", fleet.id, expect=200),
        lambda f: str(f.status) == "done",
    )


def upload_fleets(flow: Flow) -> Any:
    """The examples as NDJSON (and a retry), as a zip with a collector bundle and its
    workload, and as one JSON document; each polled until done. The NDJSON fleet."""
    documents = list(example_documents().values())
    ndjson = "".join(json.dumps(d) + "\n" for d in documents).encode()
    fleet = flow.call("fleets_create", body=flow.file(ndjson), name="nightly",
                      idempotency_key="fleet-ndjson", expect=202)  # fmt: skip
    retry = flow.call("fleets_create", body=flow.file(ndjson), name="nightly",
                      idempotency_key="fleet-ndjson", expect=200)  # fmt: skip
    assert retry.id == fleet.id and fleet.total == len(documents)
    done = _fleet_done(flow, fleet)
    assert (done.done, done.failed, done.pending, done.percent) == (len(documents), 0, 0, 100)
    assert sum(group.servers for group in done.groups) == len(documents)
    zipped = _fleet_done(flow, flow.call("fleets_create", body=flow.file(_zip(documents)),
                                         expect=202))  # fmt: skip
    assert (zipped.total, zipped.done) == (len(documents) + 1, len(documents) + 1)
    upload = flow.model("FleetUploadRequest", {"servers": documents[:2]})
    whole = _fleet_done(flow, flow.call("fleets_create", body=upload, expect=202))
    assert whole.done == 2
    listed = flow.walk("fleets_list")
    assert sorted(f.id for f in listed) == sorted([fleet.id, zipped.id, whole.id])
    return done


def _zip(documents: list[dict[str, Any]]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, document in enumerate(documents):
            archive.writestr(f"servers/{n}.json", json.dumps(document))
        archive.writestr("bundles/vm.txt", BUNDLE.read_text())
        archive.writestr("workload.json", json.dumps(documents[0]["workload"]))
    return data.getvalue()


def read_a_fleet(flow: Flow, fleet: Any) -> None:
    """Its servers (filtered), its CSV, its report's PDF, its re-evaluation."""
    servers = flow.walk("fleets_servers", fleet.id)
    assert [s.position for s in servers] == list(range(fleet.total))
    assert all(str(s.status) == "done" and s.assessment for s in servers)
    severity = flow.models.FleetsServersSeverity("high")
    high = flow.walk("fleets_servers", fleet.id, severity=severity)
    assert all(s.warnings.high > 0 for s in high)
    csv = flow.call("fleets_servers_csv", fleet.id, expect=200).payload.read().decode()
    assert len(csv.splitlines()) == fleet.total + 1
    unchanged(flow, "fleets_servers_csv", fleet.id)
    report = flow.call("fleets_report_create", fleet.id, idempotency_key="fleet-report",
                       expect=202)  # fmt: skip
    built = flow.until(lambda: flow.call("fleets_report_retrieve", fleet.id, report.id,
                                         expect=200), _finished)  # fmt: skip
    assert str(built.status) == "done", built.error
    retry = flow.call("fleets_report_create", fleet.id, idempotency_key="fleet-report",
                      expect=200)  # fmt: skip
    assert retry.id == report.id
    assert [r.id for r in flow.walk("fleets_report_list", fleet.id)] == [report.id]
    pdf = flow.call("fleets_report_pdf", fleet.id, report.id, expect=200)
    assert pdf.payload.read().startswith(b"%PDF")
    unchanged(flow, "fleets_report_pdf", fleet.id, report.id)
    again = _fleet_done(flow, flow.call("fleets_reevaluate", fleet.id, idempotency_key="again",
                                        expect=202))  # fmt: skip
    retry = flow.call("fleets_reevaluate", fleet.id, idempotency_key="again", expect=200)
    assert retry.id == again.id
    assert (again.previous, again.total) == (fleet.id, fleet.total)
    assert again.drift.previous == fleet.id and again.drift.compared == fleet.total


def upload_logs(flow: Flow, assessment: Any) -> None:
    """A small log read in the request (201) and its retry (200), a larger one queued (202)
    and polled until done; the list; tied to an assessment and untied."""
    small = flow.call("logs_create", body=flow.file(SORT.encode()), name="nightly.log",
                      idempotency_key="log-nightly", expect=201)  # fmt: skip
    assert [f.rule for f in small.analysis.findings] == ["log.sort_spill"]
    retry = flow.call("logs_create", body=flow.file(SORT.encode()), name="nightly.log",
                      idempotency_key="log-nightly", expect=200)  # fmt: skip
    assert retry.id == small.id and retry.to_dict() == small.to_dict()
    other = flow.call("logs_create", body=flow.file(b"x\n" + SORT.encode()),
                      name="nightly.log", idempotency_key="log-nightly", expect=409)  # fmt: skip
    assert list(other.errors.additional_properties) == ["Idempotency-Key"]
    text = (SORT * (LOG_INLINE_BYTES // len(SORT) + 1)).encode()
    with override_settings(LOG_INLINE_BYTES=LOG_INLINE_BYTES):
        queued = flow.call("logs_create", body=flow.file(text), assessment=assessment.id,
                           name="large.log", expect=202)  # fmt: skip
    assert (queued.size_bytes, queued.assessment) == (len(text), assessment.id)
    large = flow.until(lambda: flow.call("logs_retrieve", queued.id, expect=200), _finished)
    assert str(large.status) == "done" and large.step_count == text.count(b"PROCEDURE SORT")
    listed = flow.walk("logs_list")
    assert sorted(row.id for row in listed) == sorted([small.id, large.id])
    attach = flow.model("LogsAttachBody", {"assessment": assessment.id})
    assert flow.call("logs_attach", small.id, body=attach, expect=200).assessment == assessment.id
    untie = flow.model("LogsAttachBody", {"assessment": None})
    assert flow.call("logs_attach", small.id, body=untie, expect=200).assessment is None


def build_report(flow: Flow, assessment: Any) -> None:
    """A report with its options and key, built on a worker; its retry (200); the list;
    the PDF, and again with its ETag (304)."""
    options = flow.model("ReportCreateRequest", {"client_name": "Acme", "include_scripts": False})
    report = flow.call("report_create", assessment.id, body=options,
                       idempotency_key="report-acme", expect=202)  # fmt: skip
    built = flow.until(
        lambda: flow.call("report_status", assessment.id, report.id, expect=200), _finished
    )
    assert str(built.status) == "done", built.error
    assert (built.client_name, built.include_scripts) == ("Acme", False)
    retry = flow.call("report_create", assessment.id, body=options,
                      idempotency_key="report-acme", expect=200)  # fmt: skip
    assert retry.id == report.id and str(retry.status) == "done"
    assert [r.id for r in flow.walk("report_list", assessment.id)] == [report.id]
    pdf = flow.call("report_pdf", assessment.id, report.id, expect=200)
    assert pdf.payload.read().startswith(b"%PDF")
    unchanged(flow, "report_pdf", assessment.id, report.id)


def reevaluate_and_archive(flow: Flow, assessment: Any) -> None:
    fresh = flow.call("assessments_reevaluate", assessment.id, idempotency_key="again-1",
                      expect=201)  # fmt: skip
    assert fresh.previous == assessment.id and fresh.changes == []
    retry = flow.call("assessments_reevaluate", assessment.id, idempotency_key="again-1",
                      expect=200)  # fmt: skip
    assert retry.id == fresh.id
    assert fresh.rules_version.old == fresh.rules_version.new == assessment.rules_version
    archived = flow.call("assessments_archive", fresh.id, expect=200)
    assert archived.id == fresh.id and archived.archived_at is not None


def manage_webhooks(flow: Flow) -> None:
    """Registered with a key (201, the secret), retried (200, the secret again),
    registered again without it (200, the same endpoint, no secret); listed, read,
    changed, its deliveries listed, removed."""
    endpoint = {"url": "https://hooks.example.com/advisor", "events": ["fleet.completed"]}
    body = flow.model("WebhookCreateRequest", endpoint)
    hook = flow.call("webhooks_create", body=body, idempotency_key="hook-1", expect=201)
    assert hook.secret.startswith("whsec_") and hook.deliveries == []
    retry = flow.call("webhooks_create", body=body, idempotency_key="hook-1", expect=200)
    assert (retry.id, retry.secret) == (hook.id, hook.secret)
    again = flow.call("webhooks_create", body=body, expect=200)
    assert again.id == hook.id and "secret" not in again.to_dict()
    assert [h.id for h in flow.walk("webhooks_list")] == [hook.id]
    read = flow.call("webhooks_retrieve", hook.id, expect=200)
    assert [str(e) for e in read.events] == ["fleet.completed"]
    assert "secret" not in read.to_dict()
    change = flow.model(
        "PatchedWebhookUpdateRequest",
        {"events": ["fleet.completed", "assessment.created"], "active": False},
    )
    changed = flow.call("webhooks_update", hook.id, body=change, expect=200)
    assert (sorted(str(e) for e in changed.events), changed.active) == (
        ["assessment.created", "fleet.completed"], False)  # fmt: skip
    assert flow.walk("webhooks_deliveries", hook.id) == []
    flow.call("webhooks_destroy", hook.id, expect=204)
    assert flow.call("webhooks_retrieve", hook.id, expect=404).code == "not_found"


def read_the_rest(flow: Flow) -> None:
    """The rule catalog, the health check, the collector, the capacity what-if."""
    catalog = flow.call("rules_list", expect=200)
    assert catalog.rules and all(r.id and r.sources for r in catalog.rules)
    assert str(flow.call("health", expect=200).status) == "ok"
    collector = flow.call("collector_download", expect=200).payload.read()
    assert collector.startswith(b"#!/bin/sh")
    unchanged(flow, "collector_download")
    what_if = flow.model("CapacityInputRequest", {
        "single": [{"cpucount": 1, "minutes": 10.0}, {"cpucount": 4, "minutes": 4.0}],
        "jobs": 8, "cpucount": 4, "cpus": 16,
    })  # fmt: skip
    predicted = flow.call("capacity_predict", body=what_if, expect=200)
    assert predicted.to_dict()
