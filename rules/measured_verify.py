"""Measured throughput before → after, as verify gives it on the page, in the API and on the
command line (`rules verify --json`).

Per file system a newer reading measured, matched to the assessment's by mount point (a
trailing / aside): the assessment's figures (before) and the reading's (after), each read
and write MB/s per core in use of the assessment's workload, with SAS's verdict in words
(`rules.measured`). Where the way of measuring changed between the two (another tool, or a
read that may have been the page cache's before and is not now) the figures are not alike,
and the comparison says so: "before: dd, read may be the page cache; after: dd --direct".
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from rules.measured import Bar, Direction, bars
from rules.problems import InventoryError
from rules.validate import parse_stored


def directions(bar: Bar) -> list[tuple[str, Direction]]:
    """Read and write where each is known apart, else the lower of the two."""
    found = [(name, d) for name, d in (("read", bar.read), ("write", bar.write)) if d]
    return found or [("lower", bar.lower)]


def inventory_bars(document: Any) -> list[Bar]:
    """The bars of a stored inventory; none for one the contract no longer reads."""
    try:
        return bars(parse_stored(document))
    except InventoryError:
        return []


def figure(per_core: float) -> str:
    """MB/s as the page writes it: one decimal at most, none when whole."""
    return f"{per_core:.1f}".removesuffix(".0")


def said(d: Direction) -> str:
    """A figure with its verdict in words: "95 MB/s per core (1520 MB/s), short"."""
    return f"{figure(d.per_core)} MB/s per core ({figure(d.mb_s)} MB/s), {d.words}"


def method(bar: Bar) -> str:
    """How a file system was measured: its tool, and whether its read may be the cache's."""
    tool = bar.tool or "tool not recorded"
    return f"{tool}, read may be the page cache" if bar.read_cached else tool


@dataclass(frozen=True)
class Step:
    """One direction of one file system, before → after (None: not measured then)."""

    label: str
    before: Direction | None
    after: Direction | None

    @property
    def words(self) -> str:
        return "lower of read and write" if self.label == "lower" else self.label

    @property
    def before_text(self) -> str:
        """The before cell: the figure with its verdict in words, or "not measured"."""
        return said(self.before) if self.before else "not measured"

    @property
    def after_text(self) -> str:
        return said(self.after) if self.after else "not measured"


@dataclass(frozen=True)
class Compared:
    name: str
    mount: str
    cores: int
    steps: list[Step]
    after: Bar
    before: Bar | None = None  # None: the assessment held no measurement of it

    @property
    def method_changed(self) -> bool:
        """Another tool, or a read that may have been the page cache's and is not now."""
        old = self.before
        if old is None:
            return False
        return old.tool != self.after.tool or (old.read_cached and not self.after.read_cached)

    @property
    def change(self) -> str:
        """The change of method in words, "" when there was none."""
        if not self.method_changed or self.before is None:
            return ""
        return f"before: {method(self.before)}; after: {method(self.after)}"

    def to_list(self) -> list[dict[str, Any]]:
        """A record per direction, for the API and `rules verify --json`."""
        return [self._record(step) for step in self.steps]

    def _record(self, step: Step) -> dict[str, Any]:
        old, new = self.before, self.after
        return {
            "name": self.name, "mount": self.mount, "direction": step.label,
            "cores": self.cores, "before": _side(step.before), "after": _side(step.after),
            "before_tool": old.tool if old else None, "before_date": old.date if old else None,
            "after_tool": new.tool, "after_date": new.date,
            "method_changed": self.method_changed, "method_change": self.change or None,
            "cluster_total": new.cluster_total,
        }  # fmt: skip


def _side(d: Direction | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"mb_s": d.mb_s, "per_core": d.per_core, "verdict": d.verdict, "words": d.words}


@dataclass(frozen=True)
class BeforeAfter:
    rows: list[Compared]
    unmatched: list[str]  # mounts the reading measured that the assessment does not hold

    def to_list(self) -> list[dict[str, Any]]:
        return [record for row in self.rows for record in row.to_list()]


def _key(mount: Any) -> str:
    text = str(mount)
    return text.rstrip("/") or "/"


def _measured(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k.startswith("measured_") and v is not None}


def _with_reading(stored: dict[str, Any], read: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The stored inventory with each entry's measured figures replaced by the reading's
    for the same mount point; entries the reading did not measure keep none."""
    after = copy.deepcopy(stored)
    for entry in after.get("storage", []):
        if not isinstance(entry, dict):
            continue
        for k in [k for k in entry if k.startswith("measured_")]:
            del entry[k]
        entry.update(read.get(_key(entry.get("mount")), {}))
    return after


def _steps(before: Bar | None, after: Bar) -> list[Step]:
    old = dict(directions(before)) if before else {}
    new = dict(directions(after))
    labels = [*new, *(k for k in old if k not in new)]
    return [Step(k, old.get(k), new.get(k)) for k in labels]


def _compared(before: Bar | None, after: Bar) -> Compared:
    return Compared(after.name, after.mount, after.cores, _steps(before, after), after, before)


def before_after(stored: Any, reading: Any) -> BeforeAfter | None:
    """Per file system the reading measured, matched to the assessment's by mount point:
    the assessment's figures (before) and the reading's (after), per core in use of the
    assessment's workload. None when the reading measured nothing."""
    entries = reading.get("storage") if isinstance(reading, dict) else None
    read = {_key(e.get("mount")): _measured(e) for e in entries or [] if isinstance(e, dict)}
    read = {mount: found for mount, found in read.items() if found}
    if not read or not isinstance(stored, dict):
        return None
    old = {_key(b.mount): b for b in inventory_bars(stored)}
    new = inventory_bars(_with_reading(stored, read))
    storage = stored.get("storage")
    held = {_key(e.get("mount")) for e in storage or [] if isinstance(e, dict)}
    rows = [_compared(old.get(_key(b.mount)), b) for b in new]
    return BeforeAfter(rows, sorted(m for m in read if m not in held))


def measured_list(stored: Any, reading: Any) -> list[dict[str, Any]]:
    """The comparison as the API and `rules verify --json` give it: [] when the reading
    measured nothing the assessment holds."""
    found = before_after(stored, reading)
    return found.to_list() if found else []
