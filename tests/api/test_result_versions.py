"""A stored result of any version is read as the records of the current one: the API's
schema for it is generated from those records, an older one is answered in the current
shape with nothing it held removed, and the count columns hold what its pages show."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from advisor.api.schemas import COMPONENTS
from advisor.assessments import statuses
from advisor.assessments.presenting import warnings
from advisor.core import results
from advisor.models import Assessment, Organisation
from rules.result_fields import fields
from rules.result_read import read_result
from rules.result_records import ResultDocument, ResultRecommendation
from rules.verify import verify
from rules.version import RESULT_VERSION
from tests.api.contract import schema_errors
from tests.stored_results import (
    LEMANS_2026_11_0,
    RHEL9_2026_11_1,
    lemans_reading,
    save_stored,
    stored,
    stored_text,
)

OLDER = (LEMANS_2026_11_0, RHEL9_2026_11_1)
DOCUMENT = {"components": {"schemas": COMPONENTS}}
BEFORE = [("advisor", "0016_worker_requeues_and_delivery_lifecycle")]
AFTER = [("advisor", "0018_assessment_result_counts")]


def kept(old: Any, new: Any) -> bool:
    """Whether `new` holds every key and value `old` holds (it may hold more)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and kept(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(kept, old, new))
    return bool(old == new)


def test_the_served_schema_is_the_records_own() -> None:
    result = COMPONENTS["Result"]
    assert result["required"] == [f.name for f in fields(ResultDocument)]
    recommendation = COMPONENTS["ResultRecommendation"]["properties"]
    assert list(recommendation) == [f.name for f in fields(ResultRecommendation)]
    assert recommendation["status"]["enum"] == ["change", "unknown", "keep", "check"]
    assert set(COMPONENTS["Assessment"]["properties"]) == {"id", "url", *result["properties"]}


@pytest.mark.parametrize("name", OLDER)
def test_an_older_result_is_answered_in_the_current_shape_with_all_it_held(
    org: Organisation, name: str
) -> None:
    assessment = save_stored(org, name)
    assert assessment.result_version == 1 and "result_version" not in stored(name)
    answered = json.loads(results.result_text(assessment))
    assert answered["result_version"] == RESULT_VERSION
    assert kept(stored(name), answered)
    assert schema_errors(DOCUMENT, {"$ref": "#/components/schemas/Result"}, answered) == []
    unread = {(r["status"], r["current"]) for r in answered["recommendations"]}
    assert unread <= {("unknown", None), ("check", None)}  # nothing was read then


def test_a_result_stored_in_the_current_version_is_answered_as_stored(
    org: Organisation, lemans: dict[str, Any], user: Any
) -> None:
    from advisor.assessments.services import assessment_create

    fresh, _ = assessment_create(user=user, document=lemans)
    again = Assessment.objects.get(pk=fresh.pk)
    assert again.result_version == RESULT_VERSION
    assert results.result_text(again) is again.result_json
    assert results.result_of(again) == results.result_of(fresh)


@pytest.mark.parametrize("name", OLDER)
def test_the_count_columns_are_what_the_pages_count(org: Organisation, name: str) -> None:
    assessment = save_stored(org, name)
    result = results.result_of(assessment)
    rows = statuses.current_rows(result.recommendations)
    assert statuses.stored_counts(assessment) == statuses.tally(rows)
    shown = dict(warnings(result).counts)
    assert {sev: n for sev, n in shown.items() if n} == {
        sev: getattr(assessment, column)
        for sev, column in results.SEVERITY_COLUMNS.items()
        if getattr(assessment, column)
    }


def test_an_assessment_of_older_rules_verifies_against_its_own_advice(org: Organisation) -> None:
    assessment = save_stored(org, LEMANS_2026_11_0)
    advice = results.advice(assessment)
    assert (advice.result_version, advice.rules_version, advice.config_file) == (
        1, "2026.11.0", "sasv9.cfg",
    )  # fmt: skip
    checked = verify(advice, lemans_reading())
    given = [(r["target"], r["setting"]) for r in stored(LEMANS_2026_11_0)["recommendations"]]
    assert [(r.target, r.setting) for r in checked.rows] == given


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_every_stored_result() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        organisation = old.get_model("advisor", "Organisation").objects.create(name="Then")
        for name in OLDER:
            document = stored(name)
            old.get_model("advisor", "Assessment").objects.create(
                organisation=organisation, hostname=name, os="aix", os_version="5.3", cpus=4,
                ram_gb=16, rules_version=document["rules_version"],
                inventory=document["inventory"], result_json=stored_text(name),
            )  # fmt: skip
        MigrationExecutor(connection).migrate(AFTER)
        for name in OLDER:
            row = Assessment.objects.only("result_version", *results.COUNT_COLUMNS).get(
                hostname=name
            )
            counts = results.counts(read_result(stored(name)))
            assert row.result_version == 1 and counts["unknown_count"] > 0
            assert {column: getattr(row, column) for column in counts} == counts
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())
