"""Rules aix.max_transfer and aix.fsbuf: read-only checks that the disks, adapters and file
system buffers can carry the transfers the other rules assume (bartucca2005 l.246-252;
ibm-aix-ioo, ibm-aix-queue-depth, ibm-aix-fsbuf)."""

from __future__ import annotations

from rules.catalog.aix.common import (
    _FCS,
    _FSCSI,
    ON_AIX,
    check,
    with_tuning_commands,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule
from rules.payloads import DEVICE_NAME, DiskCheck

QUEUE_DEPTH_EXPECT = (
    "queue_depth: IBM's defaults are low (3 for IBM disks, 0/1 for others); a SAN LUN that "
    "carries SAS's parallel I/O usually runs the storage vendor's value (often 16-64). "
    "Raise it (chdev -l hdiskN -a queue_depth=N -P, at reboot) only if iostat -D shows "
    "sqfull growing while SAS runs; vpathN: check the hdisks under it"
)
FSBUF_EXPECT = (
    "'filesystem I/Os blocked with no fsbuf' (JFS) and 'external pager filesystem I/Os "
    "blocked with no fsbuf' (JFS2) not growing between two runs taken during the big sorts; "
    "if the JFS2 count grows, raise ioo j2_dynamicBufferPreallocation first, as IBM advises"
)


def _fc_adapters(inv: Inventory) -> list[str]:
    """fcsN for each FC adapter named in storage[].adapters (fscsiN's parent is fcsN)."""
    found: list[str] = []
    for s in inv.storage:
        for a in s.adapters:
            match = _FSCSI.match(a)
            name = f"fcs{match.group(1)}" if match else a if _FCS.match(a) else None
            if name and name not in found:
                found.append(name)
    return found


def _lv_checks(inv: Inventory, out: Emitter) -> None:
    for s in inv.storage:
        if s.filesystem not in ("jfs2", "jfs") or not DEVICE_NAME.fullmatch(s.name):
            continue
        want = (
            f"0x{s.max_transfer_kb * 1024:x} ({s.max_transfer_kb} KB) as the inventory says"
            if s.max_transfer_kb
            else "a value to record as max_transfer_kb"
        )
        out.set(
            AIX_SCRIPT, "check:lslv -l", f"lslv -l {s.name}", kind="check",
            rationale=f"The page sizes and ioo values assume {s.name}'s disks take {want} "
            "(bartucca2005 l.246-252 measured 256 KB on every hdisk); queue_depth caps how "
            "many of those transfers each disk has in flight (ibm-aix-queue-depth).",
            payload=DiskCheck(s.name, ("max_transfer", "queue_depth"),
                              f"max_transfer {want}; {QUEUE_DEPTH_EXPECT}"),
        )  # fmt: skip


@rule(
    id="aix.max_transfer",
    title="Check hdisk max_transfer and queue_depth, FC adapter transfer size and queue",
    sources=("bartucca2005", "ibm-aix-ioo", "ibm-aix-queue-depth"),
    settings=(
        (AIX_SCRIPT, "check:lslv -l"),
        (AIX_SCRIPT, "check:lsattr max_xfer_size"),
        (AIX_SCRIPT, "check:lsattr num_cmd_elems"),
    ),
    applies=ON_AIX,
    inputs=(
        "storage[].name",
        "storage[].filesystem",
        "storage[].max_transfer_kb",
        "storage[].adapters",
    ),
)
def max_transfer(inv: Inventory, out: Emitter) -> None:
    """lsattr checks that the transfer sizes the other rules assume are real."""
    _lv_checks(inv, out)
    for fcs in _fc_adapters(inv):
        check(
            out, "check:lsattr max_xfer_size", f"lsattr -El {fcs} -a max_xfer_size",
            "0x100000 or larger, and never below the hdisks' max_transfer",
            f"{fcs} (parent of the fscsi device named in the inventory; confirm with "
            "lsdev) caps every transfer through it.",
        )  # fmt: skip
        check(
            out, "check:lsattr num_cmd_elems", f"lsattr -El {fcs} -a num_cmd_elems",
            "200 by default (range 200–4096); raise with chdev -P if fcstat shows "
            "No Command Resource Count growing",
            f"{fcs}'s command queue limits how many I/Os SAS can keep in flight.",
        )  # fmt: skip


@rule(
    id="aix.fsbuf",
    title="Check that file system I/O does not wait for buffers (vmstat -v)",
    sources=("ibm-aix-fsbuf", "bartucca2005"),
    settings=((AIX_SCRIPT, "check:vmstat -v fsbuf"),),
    applies=with_tuning_commands,
    inputs=("server.os_version", "storage[].filesystem"),
)
def fsbuf(inv: Inventory, out: Emitter) -> None:
    """Blocked-I/O counters: larger read-ahead and write-behind need more bufstructs."""
    if not any(s.filesystem in ("jfs2", "jfs") for s in inv.storage):
        out.skip("storage", "no JFS or JFS2 file system: the fsbuf counters do not apply")
        return
    check(
        out, "check:vmstat -v fsbuf", "vmstat -v", FSBUF_EXPECT,
        "Larger read-ahead and write-behind clusters (aix.ioo) put more I/O in flight per "
        "file system; when the file system runs out of bufstructs the I/O waits and the "
        "counters grow (ibm-aix-fsbuf). bartucca2005 itself has no fsbuf check: its "
        "evidence is filemon and topas.",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (max_transfer, fsbuf)
