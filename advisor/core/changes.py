"""What changed between two results, setting by setting: for a re-evaluation on newer
rules, and for a fleet's drift against its previous run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Key = tuple[str, str]


def _index(result: Mapping[str, Any]) -> dict[Key, dict[str, Any]]:
    return {
        (rec["target"], rec["setting"]): rec
        for rec in result.get("recommendations", [])
        if rec.get("kind") != "check"
    }


def setting_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every setting whose value the new result changes, adds or drops, with the new
    rule's reason (or the old one's, for a setting no longer recommended)."""
    before, after = _index(old), _index(new)
    rows = []
    for key in sorted(set(before) | set(after)):
        was, now = before.get(key), after.get(key)
        if was is not None and now is not None and was["value"] == now["value"]:
            continue
        change = "changed" if was and now else ("added" if now else "removed")
        reason = (now or was or {}).get("rationale", "")
        rows.append({
            "target": key[0], "setting": key[1], "change": change,
            "old": was["value"] if was else None, "new": now["value"] if now else None,
            "why": reason if now else f"no longer recommended (was: {reason})",
            "rule": (now or was or {}).get("rule", ""),
            "sources": (now or was or {}).get("sources", []),
        })  # fmt: skip
    return rows


def settings_drift(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(setting, old, new) for two hosts' recommended SAS configurations."""
    return [
        (name, old.get(name), new.get(name))
        for name in sorted(set(old) | set(new))
        if old.get(name) != new.get(name)
    ]
