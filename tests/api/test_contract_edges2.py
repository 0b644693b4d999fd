"""The contract at more edges an integrator met: ids the id column cannot hold or written
with a leading zero, preconditions on downloads, verify given nothing it can read, strings
for booleans, a fleet of an undeclared type, a Windows paste, an empty list, the schema
document's errors, `q=0`, HEAD with a query, the Bearer scheme, a joined Idempotency-Key.
Each request is the one that met the edge, on PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.api.body import declared_request
from advisor.api.serializers import StrictBooleanField
from advisor.models import Assessment, Fleet, Organisation, Webhook
from tests.api.conftest import ASSESSMENTS
from tests.api.test_contract_edges import CAPACITY, LEMANS, envelope
from tests.api.test_contract_edges import assessment as assessment  # the fixture
from tests.stored_results import RHEL9_2026_11_1, rhel9_reading, save_stored

BIG = "9223372036854775808"  # 2^63: one past the id column's (bigint) largest value
Schema = dict[str, Any]


@pytest.fixture
def fleet(org: Organisation) -> Fleet:
    return Fleet.objects.create(organisation=org, total=0, rules_version="x", status="done")


def webhook(api: APIClient) -> int:
    body = {"url": "https://ci.example.com/hooks/sas", "events": ["fleet.completed"]}
    answer = api.post("/api/v1/webhooks/", body, format="json")
    assert answer.status_code == 201, answer.content
    made: int = answer.json()["id"]
    return made


# 1. An id the column cannot hold, or not written as one, is a JSON 404 like a missing id
@pytest.mark.parametrize("wrong", [BIG, "99999999999999999999999", "0", "01", "007"])
@pytest.mark.parametrize(
    "path",
    ["/api/v1/fleets/{id}/", "/api/v1/assessments/{id}/reports/1/",
     "/api/v1/assessments/{id}/reports/1/pdf", "/api/v1/assessments/1/reports/{id}/",
     "/api/v1/fleets/1/reports/{id}/pdf", "/api/v1/webhooks/{id}/", "/api/v1/logs/{id}/",
     "/api/v1/assessments/{id}/", "/api/v1/fleets/{id}/servers.csv"],
)  # fmt: skip
def test_an_id_out_of_range_or_not_canonical_is_a_json_404(
    api: APIClient, assessment: int, path: str, wrong: str
) -> None:
    body = envelope(api.get(path.format(id=wrong)), 404)
    assert body["code"] == "not_found" and f"{wrong} is no id" in body["detail"]


def test_a_leading_zero_never_reaches_object_1(api: APIClient, fleet: Fleet) -> None:
    made = webhook(api)
    assert api.get(f"/api/v1/webhooks/{made}/").status_code == 200
    envelope(api.delete(f"/api/v1/webhooks/0{made}/"), 404)
    envelope(api.patch(f"/api/v1/webhooks/0{made}/", {"active": False}, format="json"), 404)
    assert Webhook.objects.get(pk=made).active
    envelope(api.post(f"/api/v1/fleets/0{fleet.pk}/reevaluate"), 404)
    assert Fleet.objects.count() == 1


def test_the_largest_id_is_an_ordinary_missing_one(api: APIClient) -> None:
    body = envelope(api.get("/api/v1/fleets/9223372036854775807/"), 404)
    assert body["detail"] == "Not found."


ID_SCHEMA = {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}


def test_the_schema_types_each_path_id_within_the_column(schema: Schema) -> None:
    ids = [p for ops in schema["paths"].values() for op in ops.values()
           for p in op.get("parameters", []) if p["in"] == "path"]  # fmt: skip
    named = [p for p in ids if p["name"] in ("id", "assessment_id", "report_pk")]
    assert named and all(p["schema"] == ID_SCHEMA for p in named), ids


def test_a_page_id_out_of_range_is_a_404_too(client: Any, user: Any) -> None:
    client.force_login(user)
    assert client.get(f"/fleets/{BIG}/").status_code == 404
    assert client.get("/assessments/01/").status_code == 404


@pytest.fixture
def schema(anon: APIClient, db: None) -> Schema:
    answer = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document: Schema = answer.json()
    return document


# 2. A precondition that fails is a 412 in the envelope, declared on every download
def test_a_failed_precondition_is_a_declared_412_in_the_envelope(
    api: APIClient, assessment: int, schema: Schema
) -> None:
    url = f"{ASSESSMENTS}{assessment}/artifacts/sasv9_append.cfg"
    etag = api.get(url)["ETag"]
    body = envelope(api.get(url, HTTP_IF_MATCH='"nope"'), 412)
    assert body["code"] == "precondition_failed" and list(body["errors"]) == ["If-Match"]
    assert api.get(url, HTTP_IF_MATCH='"nope"')["ETag"] == etag
    assert api.get(url, HTTP_IF_MATCH=etag).status_code == 200
    old = "Mon, 01 Jan 2001 00:00:00 GMT"
    body = envelope(api.get(url, HTTP_IF_UNMODIFIED_SINCE=old), 412)
    assert list(body["errors"]) == ["If-Unmodified-Since"]
    downloads = [op for ops in schema["paths"].values() for op in ops.values()
                 if "304" in op["responses"]]  # fmt: skip
    assert len(downloads) == 6  # artifacts (every file), zip, collector, csv, two PDFs
    for op in downloads:
        answer = op["responses"]["412"]["content"]["application/json"]["schema"]
        assert answer == {"$ref": "#/components/schemas/Error"}, op["operationId"]


# 3. Verify refuses a bundle in which nothing could be read, naming `bundle`
@pytest.mark.parametrize(
    ("body", "content_type"),
    [(bytes(range(256)) * 8, "text/plain"),
     ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n" * 20, "text/plain"),
     (json.dumps({"bundle": json.dumps(LEMANS)}), "application/json")],
    ids=["binary", "lorem", "inventory JSON"],
)  # fmt: skip
def test_verify_refuses_a_bundle_it_reads_nothing_in(
    api: APIClient, org: Organisation, body: Any, content_type: str
) -> None:
    linux = save_stored(org, RHEL9_2026_11_1)
    answer = api.post(f"/api/v1/assessments/{linux.pk}/verify", body, content_type=content_type)
    errors = envelope(answer, 400)["errors"]
    assert list(errors) == ["bundle"] and "nothing" in errors["bundle"][0]


def test_verify_still_judges_a_bundle_it_reads(api: APIClient, org: Organisation) -> None:
    linux = save_stored(org, RHEL9_2026_11_1)
    url = f"/api/v1/assessments/{linux.pk}/verify"
    answer = api.post(url, rhel9_reading(), content_type="text/plain")
    assert answer.status_code == 200, answer.content[:300]


# 4. A boolean is a JSON boolean
def test_a_string_for_a_boolean_is_refused_by_name(api: APIClient, assessment: int) -> None:
    reports = f"{ASSESSMENTS}{assessment}/reports/"
    for value in ("yes", "true", 1, 0, "no", None):
        answer = api.post(reports, {"include_scripts": value}, format="json")
        assert list(envelope(answer, 400)["errors"]) == ["include_scripts"], value
    made = webhook(api)
    for value in ("no", "false", 0):
        answer = api.patch(f"/api/v1/webhooks/{made}/", {"active": value}, format="json")
        assert list(envelope(answer, 400)["errors"]) == ["active"], value
    assert Webhook.objects.get(pk=made).active
    assert (
        api.patch(f"/api/v1/webhooks/{made}/", {"active": False}, format="json").json()["active"]
        is False
    )


def _booleans(field: Any) -> list[Any]:
    from rest_framework import serializers

    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        return _booleans(field.child)
    if isinstance(field, serializers.BaseSerializer):
        return [f for sub in getattr(field, "fields", {}).values() for f in _booleans(sub)]
    return [field] if isinstance(field, serializers.BooleanField) else []


def test_every_boolean_a_body_takes_is_strict() -> None:
    from django.urls import get_resolver
    from rest_framework import serializers

    def views(patterns: Any) -> list[Any]:
        out = []
        for p in patterns:
            out += views(p.url_patterns) if hasattr(p, "url_patterns") else [p.callback]
        return out

    found = []
    for callback in views(get_resolver().url_patterns):
        view_class = getattr(callback, "cls", None)
        for method in ("post", "put", "patch"):
            declared = declared_request(view_class, method) if view_class else None
            if isinstance(declared, type) and issubclass(declared, serializers.BaseSerializer):
                found += _booleans(declared())
    assert len(found) >= 2 and all(isinstance(f, StrictBooleanField) for f in found), found


# 5. A fleet in a type the operation does not declare is 415, as everywhere
def test_a_fleet_as_text_plain_is_415(api: APIClient) -> None:
    answer = api.post("/api/v1/fleets/", json.dumps([LEMANS]), content_type="text/plain")
    assert envelope(answer, 415)["code"] == "unsupported_media_type"
    assert Fleet.objects.count() == 0


# 6. A Windows paste is a reading of Windows, never of AIX host "C"
def test_a_windows_paste_is_refused_as_windows(api: APIClient, org: Organisation) -> None:
    linux = save_stored(org, RHEL9_2026_11_1)
    paste = "C:\\> systeminfo\n\nHost Name:                 WIN01\n"
    answer = api.post(f"/api/v1/assessments/{linux.pk}/verify", paste, content_type="text/plain")
    errors = envelope(answer, 400)["errors"]
    message = errors["server.os"][0]
    assert "Windows" in message and "AIX" not in message and "of C" not in message


# 7. An empty list is refused at its own name, and the schema says so
def test_an_empty_single_list_is_refused_by_name(api: APIClient, schema: Schema) -> None:
    body = envelope(api.post("/api/v1/capacity/", {**CAPACITY, "single": []}, format="json"), 400)
    assert list(body["errors"]) == ["single"]
    request = schema["components"]["schemas"]["CapacityInputRequest"]["properties"]
    assert request["single"]["minItems"] == 1 and request["single"]["maxItems"] == 64
    assert request["concurrent"]["maxItems"] == 64


# 8. The schema document's errors are JSON in the envelope
@pytest.mark.parametrize(
    ("query", "accept", "status"),
    [("?format=xml", "", 404), ("", "text/html", 406)],
)
def test_the_schema_documents_errors_are_json(
    anon: APIClient, db: None, query: str, accept: str, status: int
) -> None:
    answer = anon.get(f"/api/schema/{query}", HTTP_ACCEPT=accept or "*/*")
    envelope(answer, status)
    assert anon.get("/api/schema/?format=json").status_code == 200


# 9. q=0 is "not acceptable"
def test_a_json_refused_with_q0_is_a_406(api: APIClient) -> None:
    answer = api.get(ASSESSMENTS, HTTP_ACCEPT="application/json;q=0, text/html")
    assert envelope(answer, 406)["code"] == "not_acceptable"
    assert api.get(ASSESSMENTS, HTTP_ACCEPT="text/html;q=0, */*").status_code == 200
    assert api.get(ASSESSMENTS, HTTP_ACCEPT="*/*;q=0, application/json").status_code == 200


# 10. HEAD takes the query its GET takes
def test_head_validates_the_query_as_get_does(
    api: APIClient, assessment: int, fleet: Fleet
) -> None:
    for url in (f"{ASSESSMENTS}?page=1", f"/api/v1/fleets/{fleet.pk}/servers.csv?severity=high"):
        head, get = api.head(url), api.get(url)
        assert head.status_code == get.status_code == 200, (url, head.content)
    assert api.head(f"{ASSESSMENTS}?bogus=1").status_code == 400  # as GET; no body


# 11. `Bearer` is taken as `Token` is; a 401 names Authorization
def test_the_bearer_scheme_is_taken_and_a_wrong_one_named(
    anon: APIClient, api: APIClient, schema: Schema
) -> None:
    key = api._credentials["HTTP_AUTHORIZATION"].split()[1]  # type: ignore[attr-defined]
    assert anon.get(ASSESSMENTS, HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    assert anon.get(ASSESSMENTS, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    for header in (f"Basic {key}", ""):
        body = envelope(anon.get(ASSESSMENTS, HTTP_AUTHORIZATION=header), 401)
        assert list(body["errors"]) == ["Authorization"], header
    body = envelope(anon.get(ASSESSMENTS, HTTP_AUTHORIZATION="Bearer nope"), 401)
    assert body["errors"] == {"Authorization": ["Invalid token."]}
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")


# 12. Two Idempotency-Key headers joined are no key; one result is one result
def test_a_joined_idempotency_key_is_refused(api: APIClient) -> None:
    answer = api.post(ASSESSMENTS, LEMANS, format="json", HTTP_IDEMPOTENCY_KEY="a,b")
    assert list(envelope(answer, 400)["errors"]) == ["Idempotency-Key"]
    assert not Assessment.objects.exists()
