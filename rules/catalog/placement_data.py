"""Rule placement.scratch_with_data: WORK or UTILLOC on a file system or disks that SPD
Server's files or (on Windows) a data drive share.

placement.work_in_data already says where WORK shares the SAS data's disks or lies inside
its mount on a UNIX server. This rule adds what that one does not see: SPD Server's data,
index, metadata and work file systems (bogacz2012 gave each its own file systems), and on
Windows a data folder on WORK's drive, which is one volume whatever the folder. When a step
reads its data and writes WORK at once, the two share the disks' throughput, about half
each: general storage reasoning, unconfirmed by the papers (the warning says so); xu gave
WORK a dedicated controller and disks.
"""

from __future__ import annotations

from rules.catalog.placement_system import ROOT, SCRATCH_ROLES, drive
from rules.catalog.placement_words import fs_name, own_file_system, scratch_label
from rules.derive.storage_layers import nested_in, same_disks
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import Rule, rule

DATA_ROLES = ("data", "spds_data", "spds_index", "spds_meta", "spds_work")
SHOWN = 5  # relations named in one warning
SPDS_APART = ", and SPD Server's data, indexes, metadata and work file systems of their own"


def _unclear_nesting(w: Storage, d: Storage) -> bool:
    """w's mount lies inside d's and the devices do not tell them apart."""
    return nested_in(w, d) and not (w.devices and d.devices) and not same_disks(w, d)


def _covered(w: Storage, d: Storage) -> bool:
    """What placement.work_in_data says already: WORK on the SAS data's disks or inside it."""
    return d.role == "data" and (same_disks(w, d) or _unclear_nesting(w, d))


def relation(w: Storage, d: Storage) -> str | None:
    """How w shares d's file system or disks, in words; None where it does not."""
    what = f"{scratch_label(d)} at {d.mount}"
    if (letter := drive(w.mount)) is not None and letter == drive(d.mount):
        return f"it is on {fs_name(w)}, as is {what}"
    if same_disks(w, d):
        return f"it is on the same disks as {what}"
    if _unclear_nesting(w, d):
        return f"it lies inside {what}, and nothing listed says it has disks of its own"
    return None


def shared(w: Storage, data: tuple[Storage, ...]) -> list[str]:
    """How w shares data's file systems or disks, sorted so that the order of the storage
    entries never changes the words."""
    found = (relation(w, d) for d in data if d.index != w.index and not _covered(w, d))
    return sorted(r for r in found if r is not None)


def _listed(found: list[str]) -> str:
    """The first few relations, and how many more: a warning stays readable at 512 entries."""
    more = len(found) - SHOWN
    return "; ".join(found[:SHOWN]) + (f"; and {more} more like these" if more > 0 else "")


@rule(
    id="placement.scratch_with_data",
    title="WORK and UTILLOC apart from SPD Server's file systems and data drives",
    sources=("xu", "bogacz2012"),
    inputs=("storage[].role", "storage[].mount", "storage[].name", "storage[].devices"),
)
def scratch_with_data(inv: Inventory, out: Emitter) -> None:
    """One warning per WORK or UTILLOC file system that shares data's disks or drive."""
    data = inv.by_role(*DATA_ROLES)
    for w in inv.by_role(*SCRATCH_ROLES):
        found = shared(w, data) if w.mount != ROOT else []
        if not found:
            continue
        spds = any(d.role.startswith("spds") for d in data)
        out.warn(
            f"{scratch_label(w)} at {w.mount} is not storage of its own: {_listed(found)}. "
            "When a step reads its data and writes WORK at once, the two compete for the same "
            "disks and each gets about half their throughput (general storage reasoning, "
            "unconfirmed by the papers); the papers gave WORK a dedicated controller and "
            f"disks{SPDS_APART if spds else ''}.",
            action=f"Give {scratch_label(w, short=True)} {own_file_system(inv)}, and point "
            "it there.",
            severity="medium",
        )  # fmt: skip


RULES: tuple[Rule, ...] = (scratch_with_data,)
