"""An assessment's stored result, read as the contract's records: the one reader in advisor/.

The rows hold the result as compact JSON text (`Assessment.result_json`) in the shape of
the day it was stored. Everything else in advisor/ — the pages, reports, compare, fleets,
logs, capacity, verify — reads it through here, as `rules.result_records.ResultDocument`,
and never by dict keys: `rules.result_read` reads every shape stored so far and upgrades
the older ones in one place. The counts the lists and summaries show are columns, set
here when a result is stored (`store`), so a list never reads a result.

The API answers with the result in its current version: the stored text as it is when it
was stored in that version (no decoding), upgraded otherwise (`result_text`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

import rules
from rules.result_read import read_result, stored_version
from rules.result_records import ResultDocument
from rules.verify_advice import Advice, advice_of
from rules.version import RESULT_VERSION

if TYPE_CHECKING:
    from advisor.models import Assessment

# The columns counted from a result: warnings by severity, recommendations by status
# (a check that is advice counts as advice), as every summary of a result counts them.
SEVERITY_COLUMNS = {"high": "high_warnings", "medium": "medium_warnings", "low": "low_warnings"}
STATUS_COLUMNS = {
    "change": "change_count", "unknown": "unknown_count", "keep": "keep_count",
    "check": "check_count", "advice": "advice_count",
}  # fmt: skip
COUNT_COLUMNS = (*SEVERITY_COLUMNS.values(), *STATUS_COLUMNS.values())


def result_of(assessment: Assessment) -> ResultDocument:
    """The assessment's result as records, read once per instance (and again only when
    its stored text is replaced)."""
    text = assessment.result_json
    cached = assessment.__dict__.get("_records")
    if cached is None or cached[0] is not text:
        cached = (text, read_result(orjson.loads(text)))
        assessment.__dict__["_records"] = cached
    found: ResultDocument = cached[1]
    return found


def result_text(assessment: Assessment) -> str:
    """The result as compact JSON in the current version, keys in the contract's order."""
    if assessment.result_version == RESULT_VERSION:
        return assessment.result_json
    from advisor.models import compact_json

    return compact_json(result_of(assessment).to_dict())


def result_document(assessment: Assessment) -> dict[str, Any]:
    """The result as JSON data in the current version (for a renderer that wants data)."""
    return result_of(assessment).to_dict()


def recommendations_json(assessment: Assessment) -> str:
    """recommendations.json exactly as `manage.py advise` writes it."""
    return rules.result_json(result_document(assessment))


def artifact(assessment: Assessment, name: str) -> str | None:
    """One generated file's text, None when the result has no file of that name."""
    return result_of(assessment).artifacts.get(name)


def advice(assessment: Assessment) -> Advice:
    """The advice the assessment gave, as verify holds a server against it."""
    return advice_of(result_of(assessment), assessment.result_version)


def counts(result: ResultDocument) -> dict[str, int]:
    """The count columns of a result."""
    severities, statuses = result.severity_counts(), result.status_counts()
    out = {column: severities[key] for key, column in SEVERITY_COLUMNS.items()}
    return out | {column: statuses[key] for key, column in STATUS_COLUMNS.items()}


def store(assessment: Assessment, result: ResultDocument) -> None:
    """Put a result on an (unsaved) assessment: its text, version and count columns."""
    from advisor.models import compact_json

    assessment.result_json = compact_json(result.to_dict())
    assessment.result_version = result.result_version
    assessment.warnings_count = len(result.warnings)
    for column, value in counts(result).items():
        setattr(assessment, column, value)
    assessment.__dict__["_records"] = (assessment.result_json, result)


def stored_shape(text: str) -> tuple[int, ResultDocument]:
    """(the version a stored text was written in, its records): for the migration that
    counts the results stored before the columns existed."""
    document = orjson.loads(text)
    return stored_version(document), read_result(document)
