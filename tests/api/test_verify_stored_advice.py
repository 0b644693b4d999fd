"""POST /assessments/{id}/verify holds the bundle against the advice the assessment gave, as
stored by the rules of its day; a bundle of another host or OS is a 400 naming both, and
`allow_renamed_host=true` accepts another host name, never another OS."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.models import Assessment, Organisation
from tests.stored_results import (
    LEMANS_2026_11_0,
    RHEL9_2026_11_1,
    lemans_reading,
    rhel9_reading,
    save_stored,
    stored,
)

TEXT = "text/plain"


def url(assessment: Assessment, query: str = "") -> str:
    return f"/api/v1/assessments/{assessment.pk}/verify{query}"


@pytest.fixture
def sasgrid(org: Organisation) -> Assessment:
    return save_stored(org, RHEL9_2026_11_1)


@pytest.fixture
def lemans_then(org: Organisation) -> Assessment:
    return save_stored(org, LEMANS_2026_11_0)


def test_an_assessment_of_older_rules_verifies_against_its_own_advice(
    api: APIClient, sasgrid: Assessment
) -> None:
    response = api.post(url(sasgrid), rhel9_reading(), content_type=TEXT)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["rules_version"] == "2026.11.1"
    given = stored(RHEL9_2026_11_1)["recommendations"]
    assert [(r["target"], r["setting"], r["recommended"]) for r in body["rows"]] == [
        (r["target"], r["setting"], r["value"]) for r in given
    ]
    bufsize = next(r for r in body["rows"] if r["setting"] == "BUFSIZE")
    assert bufsize | {"rule": ""} == {
        "rule": "", "target": "sasv9_local.cfg", "setting": "BUFSIZE", "recommended": "1M",
        "current": "1M", "status": "keep", "compliant": True, "how": None,
    }  # fmt: skip
    assert (body["compliant"], body["non_compliant"], body["not_read"]) == (9, 0, 0)
    assert body["host"] == {
        "hostname": "sasgrid01.example.com", "os": "linux", "read_hostname": "sasgrid01",
        "read_os": "linux", "renamed": False, "notes": [],
    }  # fmt: skip


def test_rules_2026_11_0_advice_under_sasv9_cfg(api: APIClient, lemans_then: Assessment) -> None:
    body = api.post(url(lemans_then), {"bundle": lemans_reading()}, format="json").json()
    drift = {r["setting"]: r["current"] for r in body["rows"] if r["compliant"] is False}
    assert drift == {"j2_minPageReadAhead": "2", "j2_nPagesPerWriteBehindCluster": "32",
                     "sync_release_ilock": "0"}  # fmt: skip
    memsize = next(r for r in body["rows"] if r["setting"] == "MEMSIZE")
    shown = (memsize["target"], memsize["current"], memsize["compliant"])
    assert shown == ("sasv9.cfg", "8G", True)


def test_another_host_is_400_naming_both(api: APIClient, sasgrid: Assessment) -> None:
    response = api.post(url(sasgrid), rhel9_reading(host="web07"), content_type=TEXT)
    assert response.status_code == 400
    assert response.json()["errors"] == {"server.hostname": [
        "the reading is of host web07 (from `hostname`, line 6), the assessment of "
        "sasgrid01.example.com; if the server was renamed, send allow_renamed_host=true"
    ]}  # fmt: skip


@pytest.mark.parametrize("how", ["query", "body"])
def test_a_renamed_host_verifies_when_the_caller_says_so(
    api: APIClient, sasgrid: Assessment, how: str
) -> None:
    text = rhel9_reading(host="web07")
    if how == "query":
        response = api.post(url(sasgrid, "?allow_renamed_host=true"), text, content_type=TEXT)
    else:
        body = {"bundle": text, "allow_renamed_host": True}
        response = api.post(url(sasgrid), body, format="json")
    assert response.status_code == 200, response.content
    host = response.json()["host"]
    assert (host["read_hostname"], host["renamed"]) == ("web07", True)
    assert host["notes"] == [
        "The reading is of host web07, the assessment of sasgrid01.example.com: verified as "
        "the same server renamed."
    ]


def test_another_os_is_400_even_with_the_override(api: APIClient, lemans_then: Assessment) -> None:
    for query in ("", "?allow_renamed_host=true"):
        response = api.post(url(lemans_then, query), rhel9_reading(host="lemans"),
                            content_type=TEXT)  # fmt: skip
        assert response.status_code == 400
        assert response.json()["errors"] == {"server.os": [
            "the reading is of Linux (from `uname -a`, line 3), the assessment of AIX: a "
            "reading of another OS cannot verify this advice"
        ]}  # fmt: skip


def test_a_reading_without_a_host_name_says_so(api: APIClient, lemans_then: Assessment) -> None:
    text = "# cat /usr/lpp/SAS/SASFoundation/9.1/sasv9.cfg\n-MEMSIZE 2G\n"
    body = api.post(url(lemans_then), text, content_type=TEXT).json()
    assert body["host"]["read_hostname"] is None
    assert body["host"]["notes"][0] == (
        "The reading names no host, so it could not be checked that it is lemans."
    )


@pytest.mark.parametrize(
    ("query", "body", "field", "message"),
    [
        ("?allow_renamed_host=maybe", None, "allow_renamed_host", "must be true or false"),
        ("", {"allow_renamed_host": "yes"}, "allow_renamed_host",
         "must be true or false (a boolean)"),
        ("?renamed=1", None, "renamed",
         "is not a parameter of this operation (it takes allow_renamed_host)"),
        ("", {"allow_renamed": True}, "allow_renamed", 'is not a field: send {"bundle": "…"}'),
    ],
)  # fmt: skip
def test_a_bad_override_is_400_naming_it(
    api: APIClient, sasgrid: Assessment, query: str, body: Any, field: str, message: str
) -> None:
    text = rhel9_reading(host="web07")
    if body is None:
        response = api.post(url(sasgrid, query), text, content_type=TEXT)
    else:
        response = api.post(url(sasgrid, query), {"bundle": text, **body}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]


def test_an_outsider_gets_404(outsider_api: APIClient, sasgrid: Assessment) -> None:
    response = outsider_api.post(url(sasgrid), rhel9_reading(), content_type=TEXT)
    assert response.status_code == 404
