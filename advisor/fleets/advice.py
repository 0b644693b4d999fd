"""One fleet server's advice: its document read (an inventory, or a collector bundle with
the upload's workload), its problems re-rooted by position (`servers[417].storage[1]`),
and the columns the fleet view sorts, filters and groups by."""

from __future__ import annotations

import hashlib
from typing import Any

import rules
from advisor.fleets.reading import BUNDLE_KEY
from advisor.models import FleetItem
from rules.parse import draft
from rules.result_records import ResultDocument


def host(document: Any) -> str:
    server = document.get("server") if isinstance(document, dict) else None
    name = server.get("hostname") if isinstance(server, dict) else None
    return name[:253] if isinstance(name, str) else ""


def rerooted(position: int, exc: rules.InventoryError) -> list[str]:
    out = []
    for problem in exc.problems:
        path = problem.path
        where = f"servers[{position}]" + ("" if path == "$" else f".{path}".replace(".[", "["))
        out.append(f"{where}: {problem.message}")
    return out


def config_key(text: str) -> str:
    """What makes two configuration files the same file to apply: their option lines. The
    comments (the host name, the derivation) differ from server to server."""
    lines = [line.strip() for line in text.splitlines()]
    options = [line for line in lines if line and not line.startswith(("/*", "*", "#"))]
    return hashlib.sha256("\n".join(options).encode()).hexdigest()


def summarise(item: FleetItem, result: ResultDocument) -> None:
    """The columns the fleet view sorts, filters and groups by."""
    counts = result.severity_counts()
    item.high, item.medium, item.low = counts["high"], counts["medium"], counts["low"]
    item.host = item.host or host(result.inventory)
    config = next((name for name in result.artifacts if name.endswith(".cfg")), "")
    item.config_name = config
    item.config_key = config_key(result.artifacts[config]) if config else ""
    item.settings = {
        rec.setting: rec.value
        for rec in result.recommendations
        if rec.target == config and rec.kind == "change"
    }


def document(raw: Any) -> Any:
    """The inventory an item holds: itself, or the draft its collector bundle reads into
    with the workload the upload gave."""
    if not (isinstance(raw, dict) and isinstance(raw.get(BUNDLE_KEY), str)):
        return raw
    drafted = dict(draft(raw[BUNDLE_KEY]).document)
    if raw.get("workload") is not None:
        drafted["workload"] = raw["workload"]
    return drafted
