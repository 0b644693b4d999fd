"""The report's storage table, grouped by layout when a server has many entries.

Up to STORAGE_ROWS entries the report gives each its row. A big server (a SAS grid node,
an AIX LPAR with hundreds of LUNs) has hundreds of entries that are mostly alike; for 512
of them a row each took WeasyPrint 5 s to lay out, page after page of alike rows. Beyond
STORAGE_ROWS the entries are grouped by their layout (role, RAID, disks, stripe, max
transfer, media, file system, adapters), one paragraph per layout listing each of its
entries by name and mount (and size, when the sizes differ), with a count by role first.
Every value a row would show is still in the report, for every entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

STORAGE_ROWS = 64  # more entries than this are grouped by layout


def _kb(value: Any) -> str:
    return f"{value} KB" if value else "–"


def _gb(value: float) -> str:
    return f"{value:,.0f} GB" if value == int(value) else f"{value:,.1f} GB"


@dataclass(frozen=True)
class Layout:
    """Entries alike in everything but name, mount and size."""

    role: str
    raid: str
    disks: int
    stripe: str
    max_transfer: str
    media: str
    filesystem: str
    adapters: str
    entries: tuple[Mapping[str, Any], ...] = ()

    @property
    def sizes(self) -> list[float]:
        return [float(e["size_gb"]) for e in self.entries]

    @property
    def total(self) -> str:
        return _gb(sum(self.sizes))

    @property
    def each(self) -> str | None:
        """The one size of every entry, or None when they differ."""
        return _gb(self.sizes[0]) if len(set(self.sizes)) == 1 else None

    @property
    def listed(self) -> str:
        """Every entry by name and mount, with its size when the sizes differ."""
        if self.each:
            return ", ".join(f"{e['name']} ({e['mount']})" for e in self.entries)
        return ", ".join(
            f"{e['name']} ({e['mount']}, {_gb(float(e['size_gb']))})" for e in self.entries
        )


def _layout_of(s: Mapping[str, Any]) -> Layout:
    """The entry's layout, without its entries (a key to group by)."""
    return Layout(
        str(s["role"]), str(s["raid"]), int(s["disks"]), _kb(s.get("stripe_kb")),
        _kb(s.get("max_transfer_kb")), str(s["media"]), str(s["filesystem"]),
        ", ".join(s.get("adapters") or ()),
    )  # fmt: skip


def layouts(storage: Sequence[Mapping[str, Any]]) -> list[Layout]:
    """The entries grouped by layout, in the order each layout first appears."""
    groups: dict[Layout, list[Mapping[str, Any]]] = {}
    for s in storage:
        groups.setdefault(_layout_of(s), []).append(s)
    return [replace(layout, entries=tuple(found)) for layout, found in groups.items()]


@dataclass(frozen=True)
class RoleCount:
    role: str
    entries: int
    layouts: int
    total: str


def by_role(found: Sequence[Layout]) -> list[RoleCount]:
    roles: dict[str, list[Layout]] = {}
    for layout in found:
        roles.setdefault(layout.role, []).append(layout)
    return [
        RoleCount(
            role,
            sum(len(g.entries) for g in groups),
            len(groups),
            _gb(sum(sum(g.sizes) for g in groups)),
        )
        for role, groups in roles.items()
    ]


def storage_context(storage: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """`storage_layouts` and `storage_roles` when the entries are too many for a row
    each; both None otherwise (the template lists every entry)."""
    if len(storage) <= STORAGE_ROWS:
        return {"storage_layouts": None, "storage_roles": None}
    found = layouts(storage)
    return {"storage_layouts": found, "storage_roles": by_role(found)}
