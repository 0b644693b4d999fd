"""The combiner's notebook: a document being filled, with provenance and what is missing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from rules.inventory import MAX_STORAGE
from rules.parse import Found
from rules.parse.draft import Missing, Provenance

LEFT_OUT_NAMED = 5  # file systems a note names when the contract's maximum leaves some out
Record = TypeVar("Record", Provenance, Missing)
_STORAGE_PATH = re.compile(r"storage\[([0-9]+)\]")


@dataclass
class Builder:
    doc: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Provenance] = field(default_factory=dict)
    missing: dict[str, Missing] = field(default_factory=dict)  # by path, in first-seen order
    notes: list[str] = field(default_factory=list)
    used: dict[tuple[int, str], list[str]] = field(default_factory=dict)  # section → fields

    def _set(self, path: str, value: Any) -> None:
        """Put `value` at a dotted path with list indexes: 'storage[2].name'."""
        target: Any = self.doc
        parts = path.split(".")
        for part in parts[:-1]:
            name, _, index = part.partition("[")
            if index:
                target = target.setdefault(name, [])
                i = int(index.rstrip("]"))
                while len(target) <= i:
                    target.append({})
                target = target[i]
            else:
                target = target.setdefault(name, {})
        target[parts[-1]] = value

    def put(self, path: str, value: Any, found: Found, *, raw: str = "", note: str = "") -> None:
        """A field read from the server, with where it was read."""
        self._set(path, value)
        self.missing.pop(path, None)
        section = found.section
        self.provenance[path] = Provenance(path, value, section.command, section.line, raw, note)
        for s in (section, *found.also):
            self.used.setdefault((s.line, s.command), []).append(path)

    def guess(self, path: str, value: Any, reason: str) -> None:
        """A value the contract needs and the server did not tell: held, and listed."""
        if path in self.provenance:
            return  # a value read stays: a later combiner's fallback does not replace it
        self._set(path, value)
        self.missing.pop(path, None)
        self.missing[path] = Missing(path, reason, value)

    def needs(self, path: str, reason: str) -> None:
        """A field the admin must give and the draft leaves out (a guess held there
        before, by a combiner that knew less, is taken out)."""
        if path not in self.provenance:
            self._unset(path)
        self.missing.pop(path, None)
        self.missing[path] = Missing(path, reason, None)

    def _unset(self, path: str) -> None:
        """Take the value at a dotted path out of the document (no list indexes)."""
        *parents, key = path.split(".")
        target: Any = self.doc
        for part in parents:
            target = target.get(part) if isinstance(target, dict) else None
        if isinstance(target, dict):
            target.pop(key, None)

    def keep_largest_storage(self, limit: int = MAX_STORAGE) -> None:
        """At most `limit` file systems, the contract's maximum: the largest by size, in the
        order read; the rest left out with a note naming them, and every path renumbered."""
        entries = self.doc.get("storage") or []
        if len(entries) <= limit:
            return
        largest = sorted(range(len(entries)), key=lambda i: -_size(entries[i]))[:limit]
        index = {old: new for new, old in enumerate(sorted(largest))}
        left = [e for i, e in enumerate(entries) if i not in index]
        self.doc["storage"] = [entries[i] for i in sorted(largest)]
        self.provenance = _renumbered_records(self.provenance, index)
        self.missing = _renumbered_records(self.missing, index)
        self.used = {
            key: [new for old in paths if (new := _renumbered(old, index)) is not None]
            for key, paths in self.used.items()
        }
        names = ", ".join(str(e.get("mount") or e.get("name")) for e in left[:LEFT_OUT_NAMED])
        more = f" and {len(left) - LEFT_OUT_NAMED} more" if len(left) > LEFT_OUT_NAMED else ""
        self.notes.append(
            f"{len(entries)} file systems read, the contract holds {limit}: the largest kept, "
            f"{len(left)} smaller ones left out ({names}{more})"
        )


def _size(entry: dict[str, Any]) -> float:
    size = entry.get("size_gb")
    return float(size) if isinstance(size, int | float) else 0.0


def _renumbered_records(records: dict[str, Record], index: dict[int, int]) -> dict[str, Record]:
    return {
        new: replace(record, path=new)
        for old, record in records.items()
        if (new := _renumbered(old, index)) is not None
    }


def _renumbered(path: str, index: dict[int, int]) -> str | None:
    """`path` with its storage entry's new index, or None where the entry was left out."""
    m = _STORAGE_PATH.match(path)
    if m is None:
        return path
    new = index.get(int(m[1]))
    return None if new is None else f"storage[{new}]{path[m.end() :]}"
