"""Listings of one command with other columns: one reading, each device's cells from all.

`lsblk -f` prints FSTYPE, LABEL, UUID and MOUNTPOINT; plain `lsblk` SIZE, TYPE and
MOUNTPOINT; `lsblk -o NAME,MODEL` the model: they list the same devices with different
columns, so neither says more than the other and neither replaces it. Whole listings of
different options (no `-d`, no `| grep`, no device named) are one reading: the fullest
tree's rows (of as many, the one printing most cells), each cell it leaves blank filled
from the same device's row in the others (the latest first), and the rows only the others
list after them. The readings merged are named in a note, none as left out. Where the
fullest prints every cell the others do (`lsblk -o +KNAME,…` beside `lsblk`), it is read
alone and the others "say as much".
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from rules.parse.repeats import short

if TYPE_CHECKING:
    from rules.parse import Found, Parsed

# Parsers whose rows are devices by name, printed with the columns their options ask for.
BY_DEVICE = frozenset({"lsblk"})
MAX_NAMED = 4  # commands the note names


def by_device(readings: list[Found], parsed: Parsed) -> Found | None:
    """One reading of whole listings with different columns (see the module's docstring);
    None where the fullest prints all the others do (`lsblk -o +KNAME,…` beside `lsblk`),
    which is then read alone."""
    base = max(readings, key=lambda f: (len(f.value), _cells(f), f.section.line))
    others = sorted((f for f in readings if f is not base), key=lambda f: -f.section.line)
    rows = [_filled(row, others) for row in base.value]
    names = {r.name for r in rows}
    for other in sorted(others, key=lambda f: f.section.line):
        for row in other.value:
            if row.name not in names:
                names.add(row.name)
                rows.append(row)
    if tuple(rows) == base.value:
        return None
    commands = ", ".join(
        f"`{short(f.section.command)}` (line {f.section.line})"
        for f in sorted(readings, key=lambda f: f.section.line)[:MAX_NAMED]
    )
    parsed.notes.append((base.section.line, (
        f"{commands} list the same devices with other columns: read as one listing, "
        "each device's cells from all of them")))  # fmt: skip
    return dataclasses.replace(
        base, value=tuple(rows), size=sum(f.size for f in readings),
        digits=sum(f.digits for f in readings), also=tuple(f.section for f in others),
    )  # fmt: skip


def _filled(row: Any, others: list[Found]) -> Any:
    """The row with each blank cell taken from the same device's row in the others."""
    for other in others:
        same = [r for r in other.value if r.name == row.name]
        match = next((r for r in same if r.parent == row.parent), same[0] if same else None)
        if match is None:
            continue
        changes = {
            f.name: getattr(match, f.name)
            for f in dataclasses.fields(row)
            if _blank(getattr(row, f.name)) and not _blank(getattr(match, f.name))
        }
        if isinstance(row.queue, dict) and match.queue:
            changes["queue"] = {**match.queue, **row.queue}
        row = dataclasses.replace(row, **changes) if changes else row
    return row


def _cells(found: Found) -> int:
    """How many cells a listing prints: of two of as many rows, the fuller is the base."""
    return sum(
        not _blank(getattr(row, f.name)) for row in found.value for f in dataclasses.fields(row)
    )


def _blank(value: Any) -> bool:
    return value is None or value == () or value == {} or value == ""
