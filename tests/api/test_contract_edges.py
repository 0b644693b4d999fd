"""The contract at its edges, as an integrator who has not read the code meets them: a
path one slash away, a URL nothing answers, statuses the schema must declare, `format`,
unknown fields in bodies, an id that names nothing, a page past the last, the spelling of
a 409, descriptions, downloads and the draft's inventory. Every answer is the JSON
envelope, whatever DEBUG says."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.models import Assessment, Fleet, Organisation, Report
from tests.api.conftest import ASSESSMENTS, BROWSER_ACCEPT
from tests.api.test_logs import SORT, post_log
from tests.conftest import example

Schema = dict[str, Any]
LEMANS = example("lemans-aix53-etl")
CAPACITY = {"single": [{"cpucount": 1, "minutes": 10.0}, {"cpucount": 4, "minutes": 4.0}],
            "jobs": 4, "cpucount": 4, "cpus": 8}  # fmt: skip


@pytest.fixture(params=[True, False], ids=["DEBUG=1", "DEBUG=0"])
def debug(request: pytest.FixtureRequest, settings: Any) -> bool:
    settings.DEBUG = request.param
    return bool(request.param)


@pytest.fixture
def schema(anon: APIClient, db: None) -> Schema:
    document: Schema = anon.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    return document


@pytest.fixture
def assessment(api: APIClient) -> int:
    answer = api.post(ASSESSMENTS, LEMANS, format="json")
    assert answer.status_code == 201, answer.content
    created: int = answer.json()["id"]
    return created


def envelope(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.content[:300]
    assert answer["Content-Type"] == "application/json", answer["Content-Type"]
    body: dict[str, Any] = answer.json()
    assert {"code", "detail", "errors"} <= set(body)
    return body


def walk(node: Any) -> list[Schema]:
    """Every schema object in `node` (a property named `required` is no such node)."""
    if isinstance(node, list):
        return [found for item in node for found in walk(item)]
    if not isinstance(node, dict):
        return []
    inner = node["properties"].values() if isinstance(node.get("properties"), dict) else []
    rest = [v for k, v in node.items() if k != "properties"]
    return [node, *walk(list(inner)), *walk(rest)]


def operations(schema: Schema) -> list[tuple[str, str, Schema]]:
    return [(path, method, op) for path, ops in schema["paths"].items()
            for method, op in ops.items()]  # fmt: skip


# 1. A path one trailing slash away from an operation's
@pytest.mark.parametrize(
    ("method", "wrong", "right"),
    [("post", "/api/v1/assessments", "/api/v1/assessments/"),
     ("post", "/api/v1/webhooks", "/api/v1/webhooks/"),
     ("patch", "/api/v1/logs/1", "/api/v1/logs/1/"),
     ("post", "/api/v1/assessments/8/verify/", "/api/v1/assessments/8/verify"),
     ("get", "/api/v1/collector/", "/api/v1/collector"),
     ("get", "/api/v1/fleets/3/servers.csv/", "/api/v1/fleets/3/servers.csv")],
)  # fmt: skip
def test_a_path_one_slash_away_answers_308_naming_the_right_url(
    api: APIClient, debug: bool, method: str, wrong: str, right: str
) -> None:
    body_or_none = None if method == "get" else {"a": 1}
    answer = getattr(api, method)(f"{wrong}?page=2", body_or_none, format="json")
    body = envelope(answer, 308)
    assert answer["Location"] == f"http://testserver{right}?page=2"
    assert body["code"] == "wrong_path" and right in body["detail"]
    assert Assessment.objects.count() == 0


def test_a_client_that_follows_the_308_creates_once_with_its_method_and_body(
    api: APIClient, debug: bool
) -> None:
    created = api.post("/api/v1/assessments", LEMANS, format="json", follow=True)
    assert created.status_code == 201, created.content[:300]
    assert created.redirect_chain == [("http://testserver/api/v1/assessments/", 308)]
    assert Assessment.objects.count() == 1


def test_the_schema_lists_each_path_once(schema: Schema) -> None:
    paths = [path.rstrip("/") for path in schema["paths"]]
    assert len(paths) == len(set(paths))


# 2. URLs nothing answers
@pytest.mark.parametrize(
    "url",
    ["/api/v1/nope/", "/api/v1/assessments/abc/", "/api/", "/api/v2/assessments/",
     "/api/v1/assessments/1/artifacts/..%2F..%2Fsettings.py",
     "/api/v1/assessments/1/artifacts/a/b"],
)  # fmt: skip
def test_an_unrouted_api_url_is_a_json_404_in_every_mode(
    api: APIClient, debug: bool, url: str
) -> None:
    body = envelope(api.get(url), 404)
    assert body["code"] == "not_found" and "/api/schema/" in body["detail"]


def test_an_accept_header_without_json_is_a_json_406(api: APIClient) -> None:
    answer = api.get(ASSESSMENTS, HTTP_ACCEPT="application/xml")
    assert envelope(answer, 406)["code"] == "not_acceptable"


def test_a_method_a_path_does_not_take_is_a_json_405(api: APIClient, debug: bool) -> None:
    answer = api.delete(ASSESSMENTS)
    assert envelope(answer, 405)["code"] == "method_not_allowed"
    assert "POST" in answer["Allow"]


# 3. Every status an operation can answer is declared, in the envelope
def test_every_operation_declares_the_statuses_it_can_answer(schema: Schema) -> None:
    for path, method, op in operations(schema):
        declared = set(op["responses"])
        expected = {"400", "405", "429", "503"}
        successes = [a for code, a in op["responses"].items() if code.startswith("2")]
        if all(set(a.get("content", {})) <= {"application/json"} for a in successes):
            expected.add("406")
        if {} not in op.get("security", [{}]):
            expected.add("401")
        if "{" in path or any(p["name"] == "page" for p in op.get("parameters", [])):
            expected.add("404")
        if method in ("post", "put", "patch"):
            expected |= {"413", "415"} if "requestBody" in op else {"413"}
        assert expected <= declared, (method, path, expected - declared)
        for code in expected - {"503"}:
            content = op["responses"][code]["content"]["application/json"]["schema"]
            assert content == {"$ref": "#/components/schemas/Error"}, (method, path, code)


def test_the_statuses_the_integrator_met_are_declared(schema: Schema) -> None:
    paths = schema["paths"]
    met = [("/api/v1/webhooks/", "post"), ("/api/v1/webhooks/{id}/", "patch"),
           ("/api/v1/assessments/{assessment_id}/reports/", "post"),
           ("/api/v1/capacity/", "post"), ("/api/v1/logs/{id}/", "patch")]  # fmt: skip
    for path, method in met:
        assert {"413", "415"} <= set(paths[path][method]["responses"]), (method, path)


# 4. `format` is a parameter like any other
@pytest.mark.parametrize("value", ["bogus", "yaml", "api", "json"])
def test_format_is_refused_by_name(api: APIClient, value: str) -> None:
    body = envelope(api.get(ASSESSMENTS, {"format": value}), 400)
    assert list(body["errors"]) == ["format"]


def test_the_schema_document_keeps_its_own_format_parameter(anon: APIClient, db: None) -> None:
    answer = anon.get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200 and answer.json()["openapi"] == "3.0.3"


# 5. Unknown fields are refused by their path
@pytest.mark.parametrize(
    ("document", "named"),
    [({**CAPACITY, "x": 1}, "x"),
     ({**CAPACITY, "single": [CAPACITY["single"][0], {**CAPACITY["single"][1], "y": 2}]},
      "single[1].y")],
)  # fmt: skip
def test_an_unknown_capacity_field_is_refused_by_its_path(
    api: APIClient, document: dict[str, Any], named: str
) -> None:
    assert api.post("/api/v1/capacity/", CAPACITY, format="json").status_code == 200
    body = envelope(api.post("/api/v1/capacity/", document, format="json"), 400)
    assert list(body["errors"]) == [named]


def test_an_unknown_fleet_field_is_refused_by_name(api: APIClient) -> None:
    answer = api.post("/api/v1/fleets/", {"servers": [LEMANS], "extra": 1}, format="json")
    assert list(envelope(answer, 400)["errors"]) == ["extra"]
    assert Fleet.objects.count() == 0


def test_an_unknown_log_field_is_refused_by_name(api: APIClient) -> None:
    log = post_log(api, SORT).json()["id"]
    body = envelope(api.patch(f"/api/v1/logs/{log}/", {"name": "x"}, format="json"), 400)
    assert list(body["errors"]) == ["name"]


def test_a_body_where_none_is_taken_is_refused(
    api: APIClient, assessment: int, org: Organisation
) -> None:
    fleet = Fleet.objects.create(organisation=org, total=0, rules_version="x", status="done")
    urls = (
        f"{ASSESSMENTS}{assessment}/reevaluate",
        f"/api/v1/fleets/{fleet.pk}/reports/",
        f"/api/v1/fleets/{fleet.pk}/reevaluate",
        f"{ASSESSMENTS}{assessment}/archive",
    )
    for url in urls:
        body = envelope(api.post(url, {"note": 1}, format="json"), 400)
        assert list(body["errors"]) == ["note"], url
        text = envelope(api.post(url, "hello", content_type="text/plain"), 400)
        assert list(text["errors"]) == ["$"], url
    assert Assessment.objects.count() == 1 and Fleet.objects.count() == 1
    assert api.post(f"{ASSESSMENTS}{assessment}/reevaluate").status_code == 201  # no body


# 6. A referenced assessment that is not there names the field
def test_a_missing_assessment_is_a_400_naming_it(api: APIClient) -> None:
    log = post_log(api, SORT).json()["id"]
    patched = envelope(
        api.patch(f"/api/v1/logs/{log}/", {"assessment": 999999}, format="json"), 400
    )
    assert patched["errors"] == {"assessment": ["no assessment 999999"]}
    posted = envelope(post_log(api, SORT, assessment=999999), 400)
    assert posted["errors"] == {"assessment": ["no assessment 999999"]}


# 7. A 409 spells values as JSON does
def test_the_report_conflict_spells_values_as_json(api: APIClient, assessment: int) -> None:
    url = f"{ASSESSMENTS}{assessment}/reports/"
    first = api.post(url, {"include_scripts": False, "client_name": "Acme"}, format="json")
    assert first.status_code == 202
    other = api.post(url, {"include_scripts": True, "client_name": "Globex"}, format="json")
    errors = envelope(other, 409)["errors"]
    report = first.json()["id"]
    assert errors["include_scripts"] == [
        f"report {report}, queued or being built, has false; ask again once it is done"
    ]
    assert 'has "Acme";' in errors["client_name"][0]
    assert Report.objects.count() == 1


# 8. Each operation has its own description, for an integrator
def test_each_operation_has_its_own_description(schema: Schema) -> None:
    descriptions = [op.get("description", "") for _, _, op in operations(schema)]
    assert all(descriptions), [op["operationId"] for _, _, op in operations(schema)
                               if not op.get("description")]  # fmt: skip
    assert len(set(descriptions)) == len(descriptions)
    assert not [d for d in descriptions if "advisor." in d or "ApiView" in d]


# 9. A page past the last names `page`
def test_a_page_past_the_last_names_the_parameter(api: APIClient, assessment: int) -> None:
    body = envelope(api.get(ASSESSMENTS, {"page": 999}), 404)
    assert body["detail"] == "Page 999 is past the last page of this list, page 1."
    assert body["errors"] == {"page": ["must be at most 1: the list holds 1 result, 25 a page"]}


# 10. Every download is declared as bytes
def test_every_download_is_declared_as_binary(schema: Schema) -> None:
    downloads = {}
    for path, _, op in operations(schema):
        for code, answer in op["responses"].items():
            for media, content in answer.get("content", {}).items():
                if media != "application/json":
                    downloads[(path, code, media)] = content["schema"]
    assert ("/api/v1/collector", "200", "text/x-shellscript") in downloads
    assert ("/api/v1/fleets/{id}/servers.csv", "200", "text/csv") in downloads
    assert all(s == {"type": "string", "format": "binary"} for s in downloads.values()), downloads


# 11. The draft's inventory is typed, read off the contract with nothing required
def test_the_draft_inventory_is_a_partial_inventory(schema: Schema) -> None:
    components = schema["components"]["schemas"]
    inventory = components["Draft"]["properties"]["inventory"]
    assert inventory["allOf"] == [{"$ref": "#/components/schemas/PartialInventory"}]
    partial, whole = components["PartialInventory"], components["Inventory"]
    assert not [node for node in walk(partial) if "required" in node or "minProperties" in node]
    assert partial["properties"].keys() == whole["properties"].keys()
    server = partial["properties"]["server"]
    assert server["properties"].keys() == whole["properties"]["server"]["properties"].keys()
    assert "required" in whole and "required" not in partial


# 12. The API answers JSON only: no browsable HTML page the schema does not declare
@pytest.mark.parametrize(
    ("method", "url"),
    [("get", ASSESSMENTS), ("get", "/api/v1/rules/"), ("get", "/api/v1/logs/"),
     ("get", "/api/v1/health/"), ("post", "/api/v1/advice/"), ("get", "{assessment}")],
)  # fmt: skip
def test_an_html_accept_is_a_json_406_never_a_page(
    api: APIClient, assessment: int, debug: bool, method: str, url: str
) -> None:
    url = url.format(assessment=f"{ASSESSMENTS}{assessment}/")
    body = LEMANS if method == "post" else None
    for accept in ("text/html", "text/html,application/xhtml+xml"):
        answer = getattr(api, method)(url, body, format="json", HTTP_ACCEPT=accept)
        assert envelope(answer, 406)["code"] == "not_acceptable", (url, accept)
    answer = getattr(api, method)(url, body, format="json", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json", url


def test_a_download_answers_whatever_accept_says(api: APIClient, assessment: int) -> None:
    answer = api.get(f"{ASSESSMENTS}{assessment}/bundle.zip", HTTP_ACCEPT="text/html")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"


def test_html_is_no_answer_the_schema_could_declare(schema: Schema) -> None:
    media = {m for _, _, op in operations(schema) for answer in op["responses"].values()
             for m in answer.get("content", {})}  # fmt: skip
    assert "text/html" not in media, media


# 13. A log upload names a missing assessment with 400; it never answers 404
def test_the_log_upload_does_not_declare_404(schema: Schema) -> None:
    upload = schema["paths"]["/api/v1/logs/"]["post"]
    assert upload["operationId"] == "logs_create"
    assert "404" not in upload["responses"]
    assert "400" in upload["responses"] and "409" in upload["responses"]
