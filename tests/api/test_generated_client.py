"""The API contract a generated client lives on: the served schema is valid OpenAPI
3.0.3, openapi-python-client generates a client from it without one warning, and the whole
provisioning flow runs through that client against a live server on PostgreSQL, every
answer checked against the schema (tests.api.contract.AnswerChecker)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from openapi_spec_validator import OpenAPIV30SpecValidator, validate
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api import client_flow as flow_steps
from tests.api import client_flow_jobs as job_steps
from tests.api.contract import (
    AnswerChecker,
    forget_client,
    generate_client,
    generator_warnings,
    import_client,
    served_schema,
)

Schema = dict[str, Any]
FILES = ("application/zip", "application/pdf")
RAW_BODIES = ("text/plain", "application/x-ndjson", "application/zip", "application/octet-stream")


@pytest.fixture
def schema(anon: APIClient, db: None) -> Schema:
    answer = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    document: Schema = answer.json()
    return document


def walk(node: Any) -> Iterator[Schema]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def test_the_schema_is_valid_openapi_3_0_3(schema: Schema) -> None:
    assert schema["openapi"] == "3.0.3"
    validate(schema, cls=OpenAPIV30SpecValidator)
    assert not [s for s in walk(schema) if isinstance(s.get("type"), list)]  # 3.1's syntax


def test_every_nullable_enum_lists_null(schema: Schema) -> None:
    nullable = [s for s in walk(schema) if s.get("nullable") and "enum" in s]
    assert nullable  # server.distribution, current.linux_thp …
    assert [s["enum"] for s in nullable if None not in s["enum"]] == []


def operations(schema: Schema) -> Iterator[tuple[str, Schema]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


def untyped(schema: Schema | None) -> bool:
    """No schema, any value, or an object that names none of its keys."""
    if not schema:
        return True
    return (
        schema.get("type") == "object"
        and "properties" not in schema
        and schema.get("additionalProperties", True) in (True, {})
    )


def test_every_answer_has_a_schema(schema: Schema) -> None:
    missing = []
    for where, operation in operations(schema):
        for code, answer in operation["responses"].items():
            media = answer.get("content", {})
            if code in ("204", "304"):  # no content; a 304 has the file's validators
                assert not media, where
            elif not media or any(untyped(m.get("schema")) for m in media.values()):
                missing.append(f"{where} {code}")
    assert missing == []


def test_files_and_raw_bodies_are_declared_as_binary(schema: Schema) -> None:
    files, bodies = [], []
    for where, operation in operations(schema):
        for answer in operation["responses"].values():
            for media, content in answer.get("content", {}).items():
                if media in FILES:
                    files.append((where, content["schema"]))
        for media, content in operation.get("requestBody", {}).get("content", {}).items():
            if media in RAW_BODIES:
                bodies.append((f"{where} {media}", content["schema"]))
    binary = {"type": "string", "format": "binary"}
    assert len(files) == 3 and all(s == binary for _, s in files), files
    assert {w for w, _ in bodies} >= {
        "POST /api/v1/logs/ text/plain", "POST /api/v1/inventories/parse text/plain",
        "POST /api/v1/assessments/{id}/verify text/plain",
        "POST /api/v1/fleets/ application/x-ndjson", "POST /api/v1/fleets/ application/zip",
    }  # fmt: skip
    assert [w for w, s in bodies if {k: s.get(k) for k in binary} != binary] == []


@pytest.fixture
def token(member: User) -> str:
    return Token.objects.create(user=member).key


@pytest.fixture
def generated(live_server: Any, tmp_path: Path) -> Iterator[tuple[Schema, str]]:
    """The served schema, and what the generator printed generating a client from it
    (importable as advisor_client while the test runs)."""
    schema = served_schema(live_server.url)
    output = generate_client(schema, tmp_path)
    import_client(tmp_path)
    yield schema, output
    forget_client(tmp_path)


@pytest.mark.slow
def test_the_provisioning_flow_runs_through_a_generated_client(
    live_server: Any, token: str, generated: tuple[Schema, str]
) -> None:
    schema, output = generated
    validate(schema, cls=OpenAPIV30SpecValidator)
    assert generator_warnings(output) == []
    checker = AnswerChecker(schema)
    # Closed at the end: a connection kept alive would keep its server thread, and that
    # thread's database session, past the test.
    with client(live_server.url, token, checker) as http:
        flow = flow_steps.Flow(http)
        run_the_flow(flow)

    called = {operation for operation, _ in checker.seen}
    assert {op["operationId"] for _, op in operations(schema)} - called == set()
    assert sum(checker.seen.values()) == flow.calls  # every answer was checked


def client(url: str, token: str, checker: AnswerChecker) -> Any:
    from advisor_client import AuthenticatedClient  # type: ignore[import-not-found]

    return AuthenticatedClient(
        base_url=url, token=token, prefix="Token", raise_on_unexpected_status=True,
        timeout=120.0, httpx_args={"event_hooks": {"response": [checker]}},
    )  # fmt: skip


def run_the_flow(flow: flow_steps.Flow) -> None:
    stored = flow_steps.assess_examples(flow)
    flow_steps.list_assessments(flow, stored)
    lemans = stored["lemans-aix53-etl"]
    flow_steps.download_files(flow, lemans)
    workload = flow_steps.example_documents()["linux-rhel9-sas94"]["workload"]
    read = flow_steps.read_a_server(flow, workload)
    flow_steps.refused(flow, lemans)
    fleet = job_steps.upload_fleets(flow)
    job_steps.read_a_fleet(flow, fleet)
    job_steps.upload_logs(flow, read)
    job_steps.build_report(flow, lemans)
    job_steps.reevaluate_and_archive(flow, lemans)
    job_steps.manage_webhooks(flow)
    job_steps.read_the_rest(flow)
