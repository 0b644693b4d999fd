"""Reading a server: a collector bundle or transcript to a draft inventory, and verify.

Thin services over `rules.parse` and `rules.verify`, shared by the web pages and the API.
The text is untrusted: its size is bounded here before any parsing, and nothing in it is
ever executed.
"""

from __future__ import annotations

from advisor.models import Assessment
from rules import collect
from rules.inventory import Inventory
from rules.parse import Draft, TooLarge, draft
from rules.parse.sections import MAX_BYTES
from rules.validate import parse as parse_inventory
from rules.verify import Verification, verify

__all__ = [
    "COLLECTOR_NAME",
    "MAX_BYTES",
    "TooLarge",
    "bundle_draft",
    "collector",
    "verify_assessment",
]
COLLECTOR_NAME = collect.COLLECTOR_NAME


def bundle_draft(*, text: str) -> Draft:
    """The draft inventory a bundle or transcript gives. Raises TooLarge over MAX_BYTES."""
    return draft(text)


def verify_assessment(*, assessment: Assessment, text: str) -> Verification:
    """The saved assessment's recommendations against a newer reading of its server."""
    inventory: Inventory = parse_inventory(assessment.inventory)
    return verify(inventory, text)


def collector() -> tuple[str, str]:
    """The collector script's file name and text, stamped with its version."""
    return COLLECTOR_NAME, collect.collector_script()
