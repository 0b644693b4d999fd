"""ZFS facts → a Solaris file system's size, pool layout and record size.

A ZFS file system is a data set `pool/fs`; what lies behind it is its pool. From `zpool
status` the pool's data vdevs give the contract's RAID level (one disk: jbod; several bare
disks: a stripe, 0; one mirror: 1; several: 10; raidz1: 5; raidz2: 6; raidz3, triple
parity, is taken as 6, its nearest) and the disks (log, cache and spare devices hold none
of its data and are left out). `zfs get recordsize` (or `zfs list -o …,recordsize`) gives
the unit ZFS reads and writes the data set's files in, its I/O size (domain notes, ZFS):
the contract's stripe_kb, the unit the SPD Server rules compare their buffers with. Sizes:
df first (what the file system holds now), else `zfs list`'s USED + AVAIL (what df would
print), else the pool's SIZE from `zpool list`, the most it can grow to.

A paste without a mount table or df still has its file systems in `zfs list`: each data
set with a mount point (not legacy, none or '-'); where two name one mount point (boot
environments), the first mounted one is kept and the others named in a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import printable, safe_devices
from rules.parse.linux_text import human_bytes
from rules.parse.solaris_zfs import ZfsDataset, recordsize_kb
from rules.parse.solaris_zpool import Pool

KIB_PER_GIB = 1024**2
RAID_OF = {"mirror": "1", "raidz1": "5", "raidz2": "6", "raidz3": "6", "draid1": "5",
           "draid2": "6", "draid3": "6"}  # fmt: skip


@dataclass
class ZfsFacts:
    """What the paste says of each data set and pool, read once."""

    datasets: dict[str, tuple[ZfsDataset, Found]] = field(default_factory=dict)
    recordsize: dict[str, tuple[int, Found, str]] = field(default_factory=dict)
    pools: dict[str, tuple[Pool, Found]] = field(default_factory=dict)
    pool_sizes: dict[str, tuple[int, Found]] = field(default_factory=dict)


def zfs_facts(parsed: Parsed) -> ZfsFacts:
    facts = ZfsFacts()
    for found in parsed.all("zfs_list"):
        for ds in found.value:
            facts.datasets.setdefault(ds.name, (ds, found))
            if (size := ds.recordsize_bytes) and size >= 512:
                facts.recordsize.setdefault(ds.name, (size // 1024, found, f"{size} bytes"))
    for found in parsed.all("zfs_get"):
        _from_get(facts, found)
    for found in parsed.all("zpool_status"):
        for pool in found.value:
            facts.pools.setdefault(pool.name, (pool, found))
    for found in parsed.all("zpool_list"):
        for row in found.value:
            if row.size_bytes:
                facts.pool_sizes.setdefault(row.name, (row.size_bytes, found))
    return facts


def _from_get(facts: ZfsFacts, found: Found) -> None:
    """Record sizes, and (`zfs get all`) the data sets `zfs list` did not name: a file
    system's mountpoint, used, available and mounted properties."""
    props: dict[str, dict[str, str]] = {}
    for prop in found.value:
        if not prop.dataset:
            continue
        props.setdefault(prop.dataset, {})[prop.property] = prop.value
        kb = recordsize_kb(prop.value) if prop.property == "recordsize" else None
        if kb is not None:
            facts.recordsize[prop.dataset] = (kb, found, prop.value)
    for name, have in props.items():
        if name in facts.datasets or "mountpoint" not in have:
            continue
        if have.get("type", "filesystem") != "filesystem":
            continue
        mounted = have.get("mounted")
        ds = ZfsDataset(
            name, have["mountpoint"], human_bytes(have.get("used")),
            human_bytes(have.get("available")), None,
            None if mounted is None else mounted == "yes",
        )  # fmt: skip
        facts.datasets[name] = (ds, found)


def zfs_rows(facts: ZfsFacts, b: Builder) -> list[tuple[str, str, str, Found]]:
    """(mount point, data set, 'zfs', found) of each mounted file system `zfs list` (or
    `zfs get all`) names."""
    rows: dict[str, tuple[str, str, str, Found]] = {}
    for name, (ds, found) in facts.datasets.items():
        mount = ds.mountpoint or ""
        if not mount.startswith("/") or "@" in name or ds.mounted is False:
            continue
        if mount in rows:
            b.notes.append(
                f"{printable(name)} also names mount point {printable(mount)} (another boot "
                f"environment?): {printable(rows[mount][1])}, listed first, is kept"
            )
            continue
        rows[mount] = (mount, name, "zfs", found)
    return list(rows.values())


def zfs_size(facts: ZfsFacts, b: Builder, at: str, dataset: str) -> bool:
    """The data set's size from `zfs list` (USED + AVAIL), else its pool's from `zpool
    list`; False when neither was read."""
    held = facts.datasets.get(dataset)
    used = avail = None
    if held is not None:
        used, avail = held[0].used_bytes, held[0].available_bytes
    if held is not None and used is not None and avail is not None:
        gb = round((used + avail) / 1024 / KIB_PER_GIB, 2)
        b.put(f"{at}.size_gb", gb, held[1], raw=f"{used} + {avail} bytes",
              note="USED + AVAIL, as df shows a data set")  # fmt: skip
        return True
    pool = facts.pool_sizes.get(dataset.split("/", 1)[0])
    if pool is None:
        return False
    gb = round(pool[0] / 1024 / KIB_PER_GIB, 2)
    note = "the pool's SIZE: the most the data set can grow to (zpool list)"
    b.put(f"{at}.size_gb", gb, pool[1], raw=f"{pool[0]} bytes", note=note)
    return True


def zfs_layout(facts: ZfsFacts, b: Builder, at: str, dataset: str) -> None:
    """RAID level, disks and devices of the data set's pool, and its record size."""
    _record(facts, b, at, dataset)
    pool_name = dataset.split("/", 1)[0]
    held = facts.pools.get(pool_name)
    raid = None if held is None else raid_level(held[0])
    if held is None or raid is None:
        why = (
            "the pool's layout was not read (zpool status)"
            if held is None
            else (f"pool {pool_name} mixes vdev kinds: its RAID level is yours to give")
        )
        b.guess(f"{at}.raid", "jbod", why)
        b.guess(f"{at}.disks", 1, why)
        b.guess(f"{at}.media", "hdd", "zpool status does not say what the disks are")
        return
    pool, found = held
    disks = [d for v in pool.data for d in v.devices]
    kinds = sorted({v.kind for v in pool.data})
    layout = f"{len(pool.data)} × {'/'.join(kinds)}, {len(disks)} disks"
    b.put(f"{at}.raid", raid, found, raw=layout, note=f"pool {pool_name}")
    b.put(f"{at}.disks", max(1, len(disks)), found, raw=layout)
    named = safe_devices(disks, b)
    if named:
        b.put(f"{at}.devices", named, found, note=f"pool {pool_name}'s data disks")
    b.guess(f"{at}.media", "hdd", "zpool status does not say what the disks are")


def raid_level(pool: Pool) -> str | None:
    """The contract's RAID level of a pool's data vdevs; None for a mix of kinds."""
    kinds = {v.kind for v in pool.data}
    if not kinds or len(kinds) > 1:
        return None
    kind = kinds.pop()
    if kind == "disk":
        return "jbod" if len(pool.data) == 1 else "0"
    if kind == "mirror":
        return "1" if len(pool.data) == 1 else "10"
    return RAID_OF.get(kind)


def _record(facts: ZfsFacts, b: Builder, at: str, dataset: str) -> None:
    held = facts.recordsize.get(dataset)
    if held is None:
        return
    kb, found, raw = held
    note = "ZFS recordsize: the unit ZFS reads and writes this data set's files in"
    b.put(f"{at}.stripe_kb", kb, found, raw=raw, note=note)
