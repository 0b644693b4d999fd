"""How much of the paste a draft used: each section read and the fields it gave, each
section read and not used and why, next to the unknown commands and unreadable outputs.

A section counts as used when some field of the draft was put from it (`Builder.put`
records the section's line), and is credited with those fields only: of a paste's
per-device `cat`s merged into one reading, each with the values it printed itself. The
`current` block keeps no provenance; a /sys/block/X/queue value that reached its devices
is credited to the section that printed it. One not used is either a repeated section the
most complete reading replaced (`rules.parse.duplicates` names it), or a reading no field
of the draft comes from: the values it held are named, and, where the section is of
another system than the one the paste is taken for, that is why.
"""

from __future__ import annotations

from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_linux_tree import queues
from rules.parse.duplicates import own_sections

MAX_LISTED = 200  # sections listed each way; the counts stay whole


def account(
    parsed: Parsed, b: Builder, os_name: str, foreign: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(used, unused) sections; `foreign` maps a parser name to the OS only it runs on."""
    used: list[dict[str, Any]] = []
    unused: list[dict[str, Any]] = [
        {"line": line, "command": cmd, "why": why} for line, cmd, why in parsed.unused
    ]
    credit = _credit(parsed, b)
    for name, found in parsed.found.items():
        for f in found:
            for section in own_sections(f):
                fields = credit.get(section.line)
                if fields:
                    used.append({"line": section.line, "command": section.command,
                                 "fields": sorted(set(fields))})  # fmt: skip
                else:
                    why = _why(name, f, os_name, foreign)
                    unused.append({"line": section.line, "command": section.command, "why": why})
    used.sort(key=lambda u: int(u["line"]))
    unused.sort(key=lambda u: int(u["line"]))
    return used[:MAX_LISTED], unused[:MAX_LISTED]


def _credit(parsed: Parsed, b: Builder) -> dict[int, list[str]]:
    """The fields each section (by its line) filled."""
    out: dict[int, list[str]] = {}
    for (line, _command), fields in b.used.items():
        out.setdefault(line, []).extend(fields)
    devices = (b.doc.get("current") or {}).get("devices") or {}
    for device, attrs in queues(parsed).items():
        for attr, (_value, found) in attrs.items():
            if attr in devices.get(device, {}):
                out.setdefault(found.section.line, []).append(f"current.devices.{device}.{attr}")
    return out


def _why(name: str, found: Found, os_name: str, foreign: dict[str, str]) -> str:
    other = foreign.get(name)
    if other is not None and other != os_name:
        return f"a {other} command, and the paste is taken for {os_name}"
    return f"read as {name}, but no field of the draft comes from what it holds"
