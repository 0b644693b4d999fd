"""Findings a rule repeats for each storage entry, shown once with the entries listed.

A server with hundreds of LUNs gets hundreds of findings that differ only in the entry
they name: aix.max_transfer's `lslv -l lvN` check, work.raid5's warning for each WORK
file system. One by one they filled over 200 of the 357 pages of a 512-LUN report, and
about half of the 35 s WeasyPrint took to lay it out. Here a finding's storage entry
(the first name or mount in its text) is replaced by a marker; a rule's findings whose
marked texts and other fields are the same, FOLD_AT or more of them, are shown once with
every entry they were said of. Nothing is dropped: each finding's text is the folded
text with its entry's name and mount put back in place of the markers.

A name two entries share is not read as anyone's (only the mount tells them apart), and a
text that names no entry is never folded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.assessments import statuses

FOLD_AT = 16  # this many findings alike but for their storage entry are shown once
ENTRY_MARK = "‹entry›"
MOUNT_MARK = "‹mount›"
# A name or a mount as it stands in a sentence (DEVICE and MOUNT in rules/kinds.py).
_TOKEN = re.compile(r"[A-Za-z0-9_.$:\\/-]+")
WARNING_TEXT = ("message", "action")
WARNING_SAME = ("rule", "severity", "sources")
REC_TEXT = ("setting", "value", "rationale", "evidence", "effect", "current")
REC_SAME = ("rule", "target", "kind", "status", "sources", "measured_gain_pct")


@dataclass(frozen=True)
class Entry:
    name: str
    mount: str

    def __str__(self) -> str:
        return f"{self.name} ({self.mount})"


class Entries:
    """The inventory's storage entries, found by their name or mount in a text."""

    def __init__(self, storage: Iterable[Mapping[str, Any]]) -> None:
        found = [Entry(str(s["name"]), str(s["mount"])) for s in storage]
        names: dict[str, list[Entry]] = {}
        for e in found:
            names.setdefault(e.name, []).append(e)
        self.by_token = {n: es[0] for n, es in names.items() if len(es) == 1}
        self.by_token.update((e.mount, e) for e in found)

    def _lookup(self, token: str) -> Entry | None:
        return self.by_token.get(token) or self.by_token.get(token.rstrip(".:"))

    def subject(self, texts: Iterable[str]) -> Entry | None:
        """The first entry the texts name, or None."""
        for text in texts:
            for m in _TOKEN.finditer(text):
                if (e := self._lookup(m.group())) is not None:
                    return e
        return None


def mask(text: str, entry: Entry) -> str:
    """`text` with the entry's name and mount replaced by ENTRY_MARK and MOUNT_MARK."""

    def swap(m: re.Match[str]) -> str:
        token = m.group()
        core = token if token in (entry.name, entry.mount) else token.rstrip(".:")
        mark = {entry.name: ENTRY_MARK, entry.mount: MOUNT_MARK}.get(core)
        return token if mark is None else mark + token[len(core) :]

    return _TOKEN.sub(swap, text)


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _key(
    item: Mapping[str, Any], entries: Entries, text: Sequence[str], same: Sequence[str]
) -> Any:
    """What two findings share when they fold together, with the entry marked; None for
    a finding that names no entry."""
    present = [str(item[f]) for f in text if item.get(f) is not None]
    entry = entries.subject(present)
    if entry is None:
        return None
    marked = tuple(None if item.get(f) is None else mask(str(item[f]), entry) for f in text)
    return entry, (tuple(_frozen(item.get(f)) for f in same), marked)


def fold(
    items: Sequence[dict[str, Any]],
    entries: Entries,
    *,
    text: Sequence[str],
    same: Sequence[str],
    anchor: str,
) -> list[dict[str, Any]]:
    """`items` in their order, each set of FOLD_AT or more alike but for their entry
    replaced by one item where the first of them stood: its `text` fields marked,
    `entries` the entries in order and `anchor` an id to link to. Other items are
    returned as they are, with `entries` None."""
    keys = [_key(item, entries, text, same) for item in items]
    groups: dict[Any, list[int]] = {}
    for i, key in enumerate(keys):
        if key is not None:
            groups.setdefault(key[1], []).append(i)
    shown: list[dict[str, Any]] = []
    folded = 0
    for i, (item, key) in enumerate(zip(items, keys, strict=True)):
        members = groups[key[1]] if key is not None else []
        if len(members) < FOLD_AT:
            shown.append({**item, "entries": None})
        elif members[0] == i:
            folded += 1
            shown.append({
                **item,
                **dict(zip(text, key[1][1], strict=True)),
                "entries": [keys[j][0] for j in members],
                "anchor": f"{anchor}-{folded}",
            })  # fmt: skip
    return shown


def fold_warnings(warnings: Sequence[dict[str, Any]], entries: Entries) -> list[dict[str, Any]]:
    return fold(warnings, entries, text=WARNING_TEXT, same=WARNING_SAME, anchor="warning")


def fold_recs(recs: Sequence[dict[str, Any]], entries: Entries) -> list[dict[str, Any]]:
    return fold(recs, entries, text=REC_TEXT, same=REC_SAME, anchor="rec")


@dataclass(frozen=True)
class Folded:
    """How many findings were folded, into how many."""

    findings: int
    sets: int


def folded_count(shown: Sequence[dict[str, Any]]) -> Folded | None:
    """None when nothing was folded."""
    sets = [len(item["entries"]) for item in shown if item["entries"]]
    return Folded(sum(sets), len(sets)) if sets else None


@dataclass(frozen=True)
class ShownRow:
    """A line of the current → recommended table as shown: one recommendation, or a
    folded set of them (`entries` of them, described at `anchor`)."""

    row: statuses.CurrentRow
    entries: int = 0
    anchor: str = ""


def current_shown(shown_recs: Sequence[dict[str, Any]]) -> list[ShownRow]:
    """The table's lines for the recommendations as shown, changes first (as
    statuses.current_rows orders them)."""
    rows = [
        ShownRow(
            statuses.shown_row(rec),
            len(rec["entries"] or ()),
            str(rec.get("anchor", "")),
        )
        for rec in shown_recs
    ]
    last = len(statuses.STATUS_ORDER)
    return sorted(rows, key=lambda r: statuses.STATUS_ORDER.get(r.row.status, last))
