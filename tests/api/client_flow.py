"""The provisioning flow through a generated client, part one: every example inventory
assessed (created, replayed, read, advised on), its files downloaded, a collector bundle
parsed into an assessment and verified.

Every answer passes tests.api.contract.AnswerChecker on its way in; these steps assert
what the typed models the client parsed say.
"""

from __future__ import annotations

import importlib
import io
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.api.contract import PACKAGE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
BUNDLE = ROOT / "examples" / "bundle-linux-vm.txt"
POLLS = 1200  # at most this many reads of a status, 0.05 s apart
PAGE_SIZE = 2  # small, so that every list is walked over several pages


class Flow:
    """Calls the generated client's operations by name, as a provisioning script does."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.types = importlib.import_module(f"{PACKAGE}.types")
        self.calls = 0
        self.last: Any = None  # the last answer, with its headers

    def call(self, operation: str, *args: Any, expect: int, **kwargs: Any) -> Any:
        module = importlib.import_module(f"{PACKAGE}.api.v1.{operation}")
        answer = module.sync_detailed(*args, client=self.client, **kwargs)
        self.calls += 1
        assert answer.status_code == expect, (operation, answer.status_code, answer.content[:800])
        assert answer.parsed is not None or expect in (204, 304), operation
        self.last = answer
        return answer.parsed

    def walk(self, operation: str, *args: Any, **filters: Any) -> list[Any]:
        """Every row of a list, PAGE_SIZE at a time, following `next` to its end: each page
        holds `count`, the links and its rows (the one shape of every list)."""
        rows: list[Any] = []
        page: int | None = 1
        while page is not None:
            found = self.call(operation, *args, page=page, page_size=PAGE_SIZE, expect=200,
                              **filters)  # fmt: skip
            rows += found.results
            assert (found.previous is None) == (page == 1), (operation, page)
            page = _page_of(found.next_)
        assert len(rows) == found.count, operation
        return rows

    def model(self, name: str, data: dict[str, Any]) -> Any:
        return getattr(self.models, name).from_dict(data)

    def file(self, data: bytes) -> Any:
        return self.types.File(payload=io.BytesIO(data))

    def until(self, read: Callable[[], Any], finished: Callable[[Any], bool]) -> Any:
        """Read a status until it is finished (a bounded number of reads)."""
        for _ in range(POLLS):
            answer = read()
            if finished(answer):
                return answer
            time.sleep(0.05)
        raise AssertionError(f"still not finished after {POLLS} reads: {answer}")


def _page_of(link: str | None) -> int | None:
    """The page a `next` link points to (a generated client calls by parameters)."""
    if link is None:
        return None
    (number,) = parse_qs(urlsplit(link).query)["page"]
    return int(number)


def example_documents() -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text()) for path in EXAMPLES}


def assess_examples(flow: Flow) -> dict[str, Any]:
    """Each example created (201), replayed with its Idempotency-Key (200), read and advised
    on without storage; the stored assessments by example name."""
    stored = {}
    for name, document in example_documents().items():
        body = flow.model("Inventory", document)
        assert body.to_dict() == document  # the typed model carries the inventory exactly
        created = flow.call("assessments_create", body=body, idempotency_key=name, expect=201)
        server = created.inventory.server
        assert (server.hostname, _value(server.distribution)) == (
            document["server"]["hostname"],
            document["server"].get("distribution"),
        )
        replay = flow.call("assessments_create", body=body, idempotency_key=name, expect=200)
        read = flow.call("assessments_retrieve", created.id, expect=200)
        assert replay.id == read.id == created.id
        assert read.to_dict() == created.to_dict()
        advice = flow.call("advice_create", body=body, expect=200)
        assert _advised(advice) == _advised(created)
        stored[name] = created
    return stored


def _value(choice: Any) -> Any:
    return getattr(choice, "value", choice)


def _advised(result: Any) -> list[tuple[str, str, str]]:
    return [(r.target, r.setting, r.value) for r in result.recommendations]


def list_assessments(flow: Flow, stored: dict[str, Any]) -> None:
    rows = flow.walk("assessments_list")
    assert sorted(row.id for row in rows) == sorted(a.id for a in stored.values())
    host = stored["lemans-aix53-etl"].inventory.server.hostname
    found = flow.call("assessments_list", hostname=host, expect=200)
    assert [row.hostname for row in found.results] == [host] and found.next_ is None
    bogus = flow.call("assessments_list", page_size=10_000, expect=400)
    assert list(bogus.errors.additional_properties) == ["page_size"]


def download_files(flow: Flow, assessment: Any) -> None:
    """Each generated file, recommendations.json and the zip of them all; each again with
    its ETag: 304, nothing to download (a second provisioning run changes nothing)."""
    artifacts = assessment.artifacts.additional_properties
    for name, text in artifacts.items():
        got = flow.call("assessments_artifact", assessment.id, name, expect=200)
        assert got.payload.read() == text.encode()
        unchanged(flow, "assessments_artifact", assessment.id, name)
    got = flow.call("assessments_artifact", assessment.id, "recommendations.json", expect=200)
    recommendations = json.loads(got.payload.read())
    assert recommendations["recommendations"] == assessment.to_dict()["recommendations"]
    archive = flow.call("assessments_bundle", assessment.id, expect=200)
    with zipfile.ZipFile(archive.payload) as opened:
        assert set(opened.namelist()) >= {*artifacts, "recommendations.json"}
    unchanged(flow, "assessments_bundle", assessment.id)


def unchanged(flow: Flow, operation: str, *args: Any) -> None:
    """The download just made, asked again with its ETag and with its Last-Modified: 304."""
    etag, modified = flow.last.headers["etag"], flow.last.headers["last-modified"]
    flow.call(operation, *args, if_none_match=etag, expect=304)
    assert flow.last.headers["etag"] == etag and flow.last.content == b""
    flow.call(operation, *args, if_modified_since=modified, expect=304)


def read_a_server(flow: Flow, workload: dict[str, Any]) -> Any:
    """A collector bundle parsed (as text and as JSON) into a draft, completed with a
    workload, stored, then verified against the same bundle; the assessment."""
    text = BUNDLE.read_text()
    draft = flow.call("inventories_parse", body=flow.file(text.encode()), expect=200)
    as_json = flow.model("InventoriesParseJsonBody", {"bundle": text})
    assert flow.call("inventories_parse", body=as_json, expect=200).to_dict() == draft.to_dict()
    assert "workload" in [m.path for m in draft.missing]
    document = draft.inventory.to_dict() | {"workload": workload}
    created = flow.call("assessments_create", body=flow.model("Inventory", document), expect=201)
    checked = flow.call("assessments_verify", created.id, body=flow.file(text.encode()),
                        expect=200)  # fmt: skip
    assert (checked.host.hostname, checked.host.read_hostname) == ("vm", "vm")
    assert checked.rules_version == created.rules_version
    assert len(checked.rows) == len([r for r in created.recommendations])
    body = flow.model("AssessmentsVerifyJsonBody", {"bundle": text})
    again = flow.call("assessments_verify", created.id, body=body, expect=200)
    # The same verification either way; each verify is kept under an id of its own.
    assert again.id > checked.id
    assert again.to_dict() | {"id": checked.id} == checked.to_dict()
    kept = flow.walk("assessments_verifications", created.id)
    assert [v.id for v in kept] == [again.id, checked.id]  # newest first
    assert (kept[0].source, kept[0].compliant) == ("api", checked.compliant)
    return created


def refused(flow: Flow, other: Any) -> None:
    """Errors arrive in the envelope the schema declares, each naming what is wrong."""
    bad = flow.model("Inventory", example_documents()["lemans-aix53-etl"])
    bad.server.cpus = 0
    error = flow.call("assessments_create", body=bad, expect=400)
    assert list(error.errors.additional_properties) == ["server.cpus"]
    assert flow.call("assessments_retrieve", 10**9, expect=404).code == "not_found"
    text = BUNDLE.read_text().encode()
    mismatch = flow.call("assessments_verify", other.id, body=flow.file(text), expect=400)
    assert "server.hostname" in mismatch.errors.additional_properties
