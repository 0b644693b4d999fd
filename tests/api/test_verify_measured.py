"""POST /assessments/{id}/verify gives measured throughput before → after in `measured`: a
record per file system and direction the bundle measured (a real collector bundle measured
here), matched by mount point, with the MB/s, MB/s per core and verdict of each side, the
tool and date, valid against the schema it declares; an empty list when nothing was."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from advisor.models import Organisation
from tests.api.contract import closed, schema_errors
from tests.stored_results import RHEL9_2026_11_1, rhel9_reading, save_stored
from tests.web.measured_bundle import measured_bundle, measured_document, remeasured, saved

TEXT = "text/plain"
BEFORE_MB_S = 120.0  # the assessment's figure, before the storage changed


def verification_schema(anon: APIClient) -> tuple[dict[str, Any], dict[str, Any]]:
    answer = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document: dict[str, Any] = closed(answer.json())
    return document, document["components"]["schemas"]["Verification"]


@pytest.mark.django_db
def test_verify_gives_the_measured_comparison_per_mount(
    api: APIClient, anon: APIClient, user: User, tmp_path: Path
) -> None:
    text = measured_bundle(tmp_path)
    document = measured_document(text)
    entry = remeasured(document, measured_mb_s=BEFORE_MB_S, measured_by="fio")
    assessment = saved(user, copy.deepcopy(document))

    answer = api.post(f"/api/v1/assessments/{assessment.pk}/verify", text, content_type=TEXT)

    assert answer.status_code == 200, answer.content
    body = answer.json()
    schema_document, schema = verification_schema(anon)
    assert "measured" in schema["properties"]
    assert schema_errors(schema_document, schema, body) == []
    records = [r for r in body["measured"] if r["mount"] == entry["mount"]]
    directions = {r["direction"]: r for r in records}
    assert {"read", "write", "lower"} <= set(directions)
    lower = directions["lower"]
    cores = lower["cores"]
    assert lower["before"]["mb_s"] == BEFORE_MB_S
    assert lower["before"]["per_core"] == round(BEFORE_MB_S / cores, 1)
    assert lower["before"]["verdict"] == "short" and lower["before_tool"] == "fio"
    write = directions["write"]
    assert write["before"] is None and write["after"]["mb_s"] > 0
    assert write["after"]["per_core"] == round(write["after"]["mb_s"] / cores, 1)
    assert write["after_tool"] == "dd" and write["method_changed"] is True
    assert write["method_change"].startswith("before: fio; after: dd")


@pytest.mark.django_db
def test_a_bundle_that_measured_nothing_gives_an_empty_list(
    api: APIClient, org: Organisation
) -> None:
    sasgrid = save_stored(org, RHEL9_2026_11_1)
    answer = api.post(f"/api/v1/assessments/{sasgrid.pk}/verify", rhel9_reading(),
                      content_type=TEXT)  # fmt: skip
    assert answer.status_code == 200, answer.content
    assert answer.json()["measured"] == []
