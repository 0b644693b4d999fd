"""Reading a server: a collector bundle or transcript to a draft inventory, and verify.

Thin services over `rules.parse` and `rules.verify`, shared by the web pages and the API.
The text is untrusted: its size is bounded here before any parsing, and nothing in it is
ever executed. Verify holds the reading against the advice the assessment gave, as stored
(`advisor.core.results`, which reads every stored shape), never against a new run of the
rules.
"""

from __future__ import annotations

from advisor.core import results
from advisor.models import Assessment
from rules import collect
from rules.parse import Draft, TooLarge, draft
from rules.parse.sections import MAX_BYTES
from rules.verify import ReadingMismatch, Verification, verify

__all__ = [
    "COLLECTOR_NAME",
    "MAX_BYTES",
    "ReadingMismatch",
    "TooLarge",
    "bundle_draft",
    "collector",
    "verify_assessment",
]
COLLECTOR_NAME = collect.COLLECTOR_NAME


def bundle_draft(*, text: str) -> Draft:
    """The draft inventory a bundle or transcript gives. Raises TooLarge over MAX_BYTES."""
    return draft(text)


def verify_assessment(
    *, assessment: Assessment, text: str, allow_renamed_host: bool = False
) -> Verification:
    """The advice the assessment gave against a newer reading of its server. Raises
    TooLarge, ReadingMismatch (another host, unless renamed, or another OS) and
    InventoryError (a reading whose current block breaks the contract)."""
    return verify(results.advice(assessment), text, allow_renamed_host=allow_renamed_host)


def collector() -> tuple[str, str]:
    """The collector script's file name and text, stamped with its version."""
    return COLLECTOR_NAME, collect.collector_script()
