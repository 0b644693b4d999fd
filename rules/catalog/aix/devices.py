"""Rule aix.max_transfer: lsattr checks that the transfer sizes the other rules assume are
real (bartucca2005; ibm-aix-ioo)."""

from __future__ import annotations

from rules.catalog.aix.common import (
    _FCS,
    _FSCSI,
    ON_AIX,
    check,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule


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
        if s.filesystem not in ("jfs2", "jfs"):
            continue
        want = (
            f"0x{s.max_transfer_kb * 1024:x} ({s.max_transfer_kb} KB) as the inventory says"
            if s.max_transfer_kb
            else "a value to record as max_transfer_kb"
        )
        check(
            out, "check:lslv -l", f"lslv -l {s.name}",
            f"lists the hdisks or vpaths of {s.name}; lsattr -El hdiskN -a max_transfer on "
            f"each shows {want}",
            f"The page sizes and ioo values assume {s.name}'s disks take {want}.",
        )  # fmt: skip


@rule(
    id="aix.max_transfer",
    title="Check hdisk max_transfer and FC adapter transfer size and queue",
    sources=("bartucca2005", "ibm-aix-ioo"),
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


RULES: tuple[Rule, ...] = (max_transfer,)
