"""ZFS pools: `zpool status` (the vdev layout and its disks) and `zpool list` (sizes).

Sources: the zpool(8) manual page of illumos (EXAMPLES: `zpool list` with a FAULTED pool,
`zpool list -v`, a status with mirrored logs); real captures in tests/fixtures/parse/
solaris/ (ohai's Solaris specs, jc's fixtures, an OmniOS pull request: raidz2 vdevs with
log and cache devices).

`zpool status` prints, per pool, `pool:` and `state:` lines, then under `config:` a table
NAME STATE READ WRITE CKSUM whose indentation is the layout: the pool, then its top-level
vdevs (mirror-0, raidz2-1, or a bare disk: a stripe), then their disks; `logs`, `cache`,
`spares`, `special` and `dedup` head further groups at the pool's own indentation.
`zpool list` prints NAME SIZE ALLOC FREE … HEALTH (older releases USED AVAIL); `-H` drops
the header, `-p` prints bytes, `-v` adds indented vdev rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, require
from rules.parse.registry import Section, command, parser
from rules.parse.solaris_zfs import getopt, header_names, property_names, split_row

# Groups of devices that hold no data of the pool's file systems (or, for special and
# dedup, only metadata): not counted among the disks behind it.
CLASSES = frozenset({"logs", "log", "cache", "spares", "spare", "special", "dedup"})
_GROUP = re.compile(r"(mirror|raidz[123]?|draid[123]?(?::[0-9a-z:]{1,40})?)(?:-[0-9]{1,4})?")
_NESTED = re.compile(r"(?:replacing|spare)-[0-9]{1,4}")  # a disk being replaced, a spare in use
_DEVICE = re.compile(r"[A-Za-z0-9_./:+-]{1,255}")
MIN_LIST_FIELDS = 7  # Solaris 10: NAME SIZE ALLOC FREE CAP HEALTH ALTROOT
_LIST_ALIASES = {"alloc": "allocated", "used": "allocated", "avail": "free", "cap": "capacity"}


@dataclass(frozen=True)
class Vdev:
    kind: str  # 'mirror', 'raidz1', 'raidz2', 'raidz3', 'draid2', 'disk'
    devices: tuple[str, ...]
    group: str = "data"  # or 'logs', 'cache', 'spares', 'special', 'dedup'


@dataclass(frozen=True)
class Pool:
    name: str
    state: str | None
    vdevs: tuple[Vdev, ...]

    @property
    def data(self) -> tuple[Vdev, ...]:
        return tuple(v for v in self.vdevs if v.group == "data")


def _indent(line: str) -> int:
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


class _Layout:
    """The config table of one pool, read a row at a time."""

    def __init__(self, pool: str) -> None:
        self.pool = pool
        self.base: int | None = None  # the pool row's indentation
        self.top: int | None = None  # the top-level vdevs'
        self.group = "data"
        self.vdevs: list[tuple[str, list[str], str]] = []

    def add(self, line: str) -> None:
        name, indent = line.split()[0], _indent(line)
        if self.base is None or indent <= self.base:
            self.base = indent if self.base is None else self.base
            self.group = name if name in CLASSES else self.group
            return
        if self.top is None or indent < self.top:
            self.top = indent
        if indent == self.top:
            kind = _GROUP.fullmatch(name)
            if kind is not None:
                self.vdevs.append((_kind(kind.group(1)), [], self.group))
            elif _DEVICE.fullmatch(name):
                self.vdevs.append(("disk", [name], self.group))
        elif self.vdevs and not _NESTED.fullmatch(name) and _DEVICE.fullmatch(name):
            self.vdevs[-1][1].append(name)

    def pool_of(self, state: str | None) -> Pool:
        vdevs = tuple(Vdev(kind, tuple(devs), group) for kind, devs, group in self.vdevs)
        return Pool(self.pool, state, vdevs)


def _kind(word: str) -> str:
    return "raidz1" if word == "raidz" else word.split(":", 1)[0]


@parser("zpool_status", command("zpool", "status"), commands=("zpool",))
def zpool_status(section: Section) -> tuple[Pool, ...]:
    pools: list[Pool] = []
    layout: _Layout | None = None
    state: str | None = None
    in_table = False
    for _offset, line in meaningful(section):
        key, _, value = line.strip().partition(": ")
        if key in ("pool", "state") or line.strip() in ("errors:", "config:"):
            in_table = False
        if key == "pool" and value.strip():
            if layout is not None:
                pools.append(layout.pool_of(state))
            layout, state = _Layout(value.strip()), None
        elif key == "state" and layout is not None:
            state = value.strip() or None
        elif line.split()[:2] == ["NAME", "STATE"]:
            in_table = layout is not None
        elif key == "errors" or line.startswith("errors:"):
            in_table = False
        elif in_table and layout is not None:
            layout.add(line)
    if layout is not None:
        pools.append(layout.pool_of(state))
    require([p for p in pools if p.vdevs], section, "zpool status config tables (pool: …)")
    return tuple(pools)


# ---------------------------------------------------------------------------------------
# zpool list


@dataclass(frozen=True)
class PoolSize:
    name: str
    size_bytes: int | None  # None: '-' (a FAULTED pool)
    allocated_bytes: int | None
    free_bytes: int | None
    health: str | None


def _columns(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_LIST_ALIASES.get(n, n) for n in names)


@parser("zpool_list", command("zpool", "list"), commands=("zpool",))
def zpool_list(section: Section) -> tuple[PoolSize, ...]:
    flags, values, _ = getopt(section.argv[2:], "oT")
    columns = _columns(property_names(values["o"])) if "o" in values else None
    tabbed = "H" in flags
    rows: list[PoolSize] = []
    for _offset, line in meaningful(section):
        header = None if tabbed else header_names(line.split())
        if header is not None:
            columns = _columns(header)
        elif not line[:1].isspace():  # -v: a vdev's row is indented under its pool
            fields = _fields(line, columns, tabbed)
            name = fields.get("name", "")
            if name not in CLASSES and _DEVICE.fullmatch(name) and "/" not in name:
                rows.append(_pool_size(name, fields))
    require(rows, section, "zpool list rows (NAME SIZE ALLOC FREE … HEALTH)")
    return tuple(rows)


def _fields(line: str, columns: tuple[str, ...] | None, tabbed: bool) -> dict[str, str]:
    """A row by its columns; without a header or -o, by position: every release prints
    NAME SIZE ALLOC FREE first and HEALTH ALTROOT last, whatever lies between."""
    if columns is not None:
        return dict(zip(columns, split_row(line, len(columns), tabbed), strict=False))
    words = split_row(line, 0, tabbed) if tabbed and "\t" in line else line.split()
    if len(words) < MIN_LIST_FIELDS:
        return {}
    named = dict(zip(("name", "size", "allocated", "free"), words, strict=False))
    return named | {"health": words[-2]}


def _pool_size(name: str, fields: dict[str, str]) -> PoolSize:
    health = fields.get("health")
    return PoolSize(
        name,
        human_bytes(fields.get("size")),
        human_bytes(fields.get("allocated")),
        human_bytes(fields.get("free")),
        health if health and health.isalpha() else None,
    )
