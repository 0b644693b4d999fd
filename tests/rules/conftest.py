"""Helpers the rule tests share: advise a document, pick recommendations and warnings.

Plain functions rather than fixtures: each test builds its own document and calls them.
"""

from __future__ import annotations

from typing import Any

import rules
from rules import Result
from rules.model import Recommendation
from tests.conftest import example
from tests.rules.fitting import fit_filesystems


def advise(doc: dict[str, Any]) -> Result:
    """The typed result for a document (raises InventoryError for a bad one)."""
    return rules.advise_inventory(rules.inventory_from(doc))


def only(result: Result, setting: str) -> Recommendation:
    """The one recommendation for a setting; fails when there are none or several."""
    (found,) = [r for r in result.recommendations if r.setting == setting]
    return found


def recs(result: dict[str, Any], rule_id: str) -> dict[str, dict[str, Any]]:
    """One rule's recommendations in the result dict, by setting."""
    return {r["setting"]: r for r in result["recommendations"] if r["rule"] == rule_id}


def warnings(result: dict[str, Any], rule_id: str) -> list[dict[str, Any]]:
    """One rule's warnings in the result dict."""
    return [w for w in result["warnings"] if w["rule"] == rule_id]


def lemans(**server: Any) -> dict[str, Any]:
    """bartucca2005's lemans box with server fields changed."""
    doc = example("lemans-aix53-etl")
    doc["server"].update(server)
    return fit_filesystems(doc)
