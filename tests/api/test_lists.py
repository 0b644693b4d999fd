"""Every list of the API in one shape: `count`, `next`, `previous`, `results`, paged by
`page` and `page_size` (at most MAX_PAGE_SIZE, refused beyond, never cut down), walked to
the end by following `next`; every operation refuses a query parameter it does not take,
naming it, and a filter value it cannot take, naming the values it can."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from advisor.api.pagination import MAX_PAGE_SIZE
from advisor.models import (
    Fleet,
    FleetItem,
    FleetReport,
    JobLog,
    Organisation,
    Report,
    Verification,
    Webhook,
    WebhookDelivery,
)
from tests.api.conftest import ASSESSMENTS

ROWS = 3  # of each kind: three pages of one


@pytest.fixture
def listed(api: APIClient, user: User, org: Organisation, lemans: dict[str, Any]) -> dict[str, Any]:
    """ROWS of everything the API lists, in the organisation of `api`; the list URLs with
    the ids each should hold."""
    assessments = [api.post(ASSESSMENTS, lemans, format="json").json()["id"] for _ in range(ROWS)]
    fleets = [Fleet.objects.create(organisation=org, total=ROWS, rules_version="x")
              for _ in range(ROWS)]  # fmt: skip
    fleet = fleets[0]
    FleetItem.objects.bulk_create(FleetItem(fleet=fleet, position=n, host=f"h{n}", high=n)
                                  for n in range(ROWS))  # fmt: skip
    hooks = [Webhook.objects.create(organisation=org, url=f"https://h{n}.example/", secret="s",
                                    events=["fleet.completed"]) for n in range(ROWS)]  # fmt: skip
    deliveries = [WebhookDelivery.objects.create(webhook=hooks[0], event="fleet.completed",
                                                 message_id=f"msg_{n}", payload={})
                  for n in range(ROWS)]  # fmt: skip
    logs = [JobLog.objects.create(organisation=org, name=f"{n}.log", size_bytes=1)
            for n in range(ROWS)]  # fmt: skip
    reports = [Report.objects.create(assessment_id=assessments[0]) for _ in range(ROWS)]
    fleet_reports = [FleetReport.objects.create(fleet=fleet) for _ in range(ROWS)]
    verifications = [Verification.objects.create(
        assessment_id=assessments[0], source="api", compliant=1, non_compliant=0,
        not_verified=0, result={}) for _ in range(ROWS)]  # fmt: skip
    return {
        ASSESSMENTS: set(assessments),
        "/api/v1/fleets/": {f.pk for f in fleets},
        f"/api/v1/fleets/{fleet.pk}/servers/": set(range(ROWS)),
        f"/api/v1/fleets/{fleet.pk}/reports/": {r.pk for r in fleet_reports},
        "/api/v1/logs/": {row.pk for row in logs},
        "/api/v1/webhooks/": {h.pk for h in hooks},
        f"/api/v1/webhooks/{hooks[0].pk}/deliveries/": {d.pk for d in deliveries},
        f"{ASSESSMENTS}{assessments[0]}/reports/": {r.pk for r in reports},
        f"{ASSESSMENTS}{assessments[0]}/verifications/": {v.pk for v in verifications},
    }


LISTS = (
    "assessments", "fleets", "fleet servers", "fleet reports", "logs", "webhooks",
    "webhook deliveries", "assessment reports", "assessment verifications",
)  # fmt: skip


def _url(listed: dict[str, Any], which: str) -> str:
    return list(listed)[LISTS.index(which)]


def _key(row: dict[str, Any]) -> Any:
    return row["position"] if "position" in row else row["id"]


def test_every_list_of_the_schema_is_tested(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paged = [
        path
        for path, ops in schema["paths"].items()
        if "page_size" in {p["name"] for p in ops.get("get", {}).get("parameters", [])}
    ]
    assert len(paged) == len(LISTS)  # fmt: skip


@pytest.mark.parametrize("which", LISTS)
def test_a_list_pages_in_one_shape_to_its_end(
    api: APIClient, listed: dict[str, Any], which: str
) -> None:
    url = _url(listed, which)
    seen, pages, link = [], [], f"http://testserver{url}?page_size=1"
    while link:
        page = api.get(link)
        assert page.status_code == 200, page.content
        body = page.json()
        assert list(body) == ["count", "next", "previous", "results"]
        assert body["count"] == ROWS and len(body["results"]) == 1
        pages.append(body)
        seen += [_key(row) for row in body["results"]]
        link = body["next"]
    assert set(seen) == listed[url] and len(seen) == ROWS
    assert pages[0]["previous"] is None and pages[-1]["next"] is None
    assert api.get(pages[-1]["previous"]).json()["results"] == pages[-2]["results"]
    whole = api.get(url, {"page_size": MAX_PAGE_SIZE}).json()
    assert [_key(row) for row in whole["results"]] == seen and whole["next"] is None


@pytest.mark.parametrize("which", LISTS)
def test_a_list_refuses_unknown_and_invalid_parameters_by_name(
    api: APIClient, listed: dict[str, Any], which: str
) -> None:
    url = _url(listed, which)
    unknown = api.get(url, {"bogus": "1", "limit": "10"})
    assert unknown.status_code == 400
    assert unknown.json()["code"] == "invalid"
    errors = unknown.json()["errors"]
    assert list(errors) == ["bogus", "limit"]
    assert errors["bogus"][0].startswith("is not a parameter of this operation (it takes ")
    assert "page_size" in errors["bogus"][0]
    for size in ("0", str(MAX_PAGE_SIZE + 1), "x", ""):
        refused = api.get(url, {"page_size": size})
        assert refused.status_code == 400, size
        assert list(refused.json()["errors"]) == ["page_size"]
    assert list(api.get(url, {"page": "x"}).json()["errors"]) == ["page"]
    twice = api.get(f"{url}?page=1&page=2")
    assert twice.json()["errors"] == {"page": ["is given more than once"]}
    past = api.get(url, {"page": ROWS + 1, "page_size": 1})
    assert (past.status_code, past.json()["code"]) == (404, "not_found")


def test_an_outsider_lists_nothing(outsider_api: APIClient, listed: dict[str, Any]) -> None:
    for which in ("assessments", "fleets", "logs", "webhooks"):
        body = outsider_api.get(_url(listed, which)).json()
        assert (body["count"], body["results"], body["next"]) == (0, [], None)
    for which in ("fleet servers", "webhook deliveries", "assessment reports"):
        assert outsider_api.get(_url(listed, which)).status_code == 404


def test_a_filter_value_it_cannot_take_is_refused_naming_the_values(
    api: APIClient, listed: dict[str, Any]
) -> None:
    servers = _url(listed, "fleet servers")
    bogus = api.get(servers, {"status": "bogus"})
    assert bogus.status_code == 400
    assert bogus.json()["errors"] == {"status": ["must be one of: pending, done, failed"]}
    sort = api.get(servers, {"sort": "size"}).json()["errors"]["sort"][0]
    assert sort == "must be one of: position, host, high, medium, low, status"
    severity = api.get(servers, {"severity": "urgent"}).json()["errors"]
    assert severity == {"severity": ["must be one of: high, medium, low"]}
    csv = servers.replace("servers/", "servers.csv")
    assert api.get(csv, {"status": "bogus"}).json()["errors"]["status"]
    assert api.get(csv, {"page": "1"}).json()["errors"]["page"]  # a file: no pages
    assert api.get(servers, {"q": "a\x00b"}).json()["errors"]["q"]
    high = api.get(servers, {"sort": "high", "severity": "", "q": ""}).json()
    assert [row["position"] for row in high["results"]] == [2, 1, 0]


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/api/v1/rules/"), ("get", "/api/v1/health/"), ("post", "/api/v1/advice/"),
     ("post", ASSESSMENTS), ("get", "/api/v1/collector"), ("post", "/api/v1/webhooks/"),
     ("post", "/api/v1/capacity/")],
)  # fmt: skip
def test_operations_that_take_no_parameter_refuse_any(
    api: APIClient, method: str, url: str
) -> None:
    answer = getattr(api, method)(f"{url}?verbose=1", format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {
        "verbose": ["is not a parameter of this operation (it takes none)"]
    }
