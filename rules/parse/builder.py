"""The combiner's notebook: a document being filled, with provenance and what is missing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.parse import Found
from rules.parse.draft import Missing, Provenance


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
        """A field the admin must give and the draft leaves out."""
        self.missing[path] = Missing(path, reason, None)
