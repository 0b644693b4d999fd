"""Rules placement.work_in_data, placement.instance_storage and placement.stripe_alignment:
where SAS's files land and how their pages meet the stripe.

- WORK on the data file system's own disks (a /sasdata/saswork directory of /sasdata on
  the same LUN) is one set of disks doing both jobs: xu gave WORK storage of its own (a
  dedicated controller and disks, l.36-42, l.96), and throughput.estimate counts those
  disks once (rules.derive.storage_layers.work_on_data_disks).
- Cloud instance storage (storage[].ephemeral) is emptied when the VM stops, moves or is
  redeployed (cloud-instance-storage): fit for WORK and UTILLOC, which SAS deletes anyway,
  never for data; the file system has to be made and mounted again at every boot.
- A stripe unit that neither divides nor is a multiple of the SAS page leaves pages
  straddling stripe units: Crevar aligns stripe unit and BUFSIZE at 64K, 128K or 256K
  (sas569-2017); bogacz2012 striped at 64K (l.32); bartucca2005 sized pages to the 256 KB
  transfer (l.246-252, l.486-495).
"""

from __future__ import annotations

from rules.derive.io import page_choice, transfer_choice
from rules.derive.storage_layers import nested_in, same_disks, work_on_data_disks
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule
from rules.units import kb_text

WORK_ROLES = ("work", "utilloc")
SCRATCH = ("work", "utilloc", "spds_work")  # deleted by SAS at the end: fine on wiped disks


def _where(w: Storage, d: Storage) -> str:
    if nested_in(w, d):
        return f"{w.mount} is inside {d.mount} on the same disks"
    return f"{w.mount} and {d.mount} are on the same disks"


@rule(
    id="placement.work_in_data",
    title="WORK on the data file system's own disks",
    sources=("xu",),
    inputs=("storage[].role", "storage[].mount", "storage[].devices", "storage[].name"),
)
def work_in_data(inv: Inventory, out: Emitter) -> None:
    """Warn plainly where WORK and data share their disks; note unclear nesting."""
    work, data = inv.by_role(*WORK_ROLES), inv.by_role("data")
    pairs = work_on_data_disks(work, data)
    for w, d in pairs:
        disks = ", ".join(sorted(set(w.devices) & set(d.devices))) or d.name
        out.warn(
            f"{w.role.upper()} is not storage of its own: {_where(w, d)} ({disks}), so every "
            f"WORK write competes with reads and writes of the data it is made from. xu gave "
            "WORK a dedicated controller and disks (l.36-42, l.96); the throughput estimate "
            "counts these disks once.",
            action=f"Move {w.mount} to disks or a LUN of its own (solid state or a stripe, xu "
            "Tables 1-2) and point -WORK there.",
            severity="medium",
        )  # fmt: skip
    seen = {w.index for w, _ in pairs}
    for w in work:
        outer = [d for d in data if nested_in(w, d) and w.index not in seen]
        if outer and not (w.devices and outer[0].devices) and not same_disks(w, outer[0]):
            out.warn(
                f"{w.mount} lies inside {outer[0].mount}, and the inventory does not say "
                "whether it is a file system of its own or a directory of the data file "
                "system's disks.",
                action=f"Run df -P {w.mount} {outer[0].mount}: the same device on both lines "
                "means WORK shares the data disks (record the devices of both).",
                severity="low",
            )  # fmt: skip


def _ephemeral(inv: Inventory) -> str | None:
    if not any(s.ephemeral for s in inv.storage):
        return "no storage[].ephemeral instance storage"
    return None


@rule(
    id="placement.instance_storage",
    title="Cloud instance storage: WORK only, made again at every boot",
    sources=("cloud-instance-storage", "azure-sas-guide"),
    settings=((SYSTEM, "instance storage at boot"),),
    applies=_ephemeral,
    inputs=("storage[].ephemeral", "storage[].role", "storage[].mount"),
)
def instance_storage(inv: Inventory, out: Emitter) -> None:
    """Scratch on wiped disks is fine; anything persistent there is lost at the next stop."""
    wiped = [s for s in inv.storage if s.ephemeral]
    for s in (s for s in wiped if s.role not in SCRATCH):
        out.warn(
            f"{s.mount} ({s.role}) is cloud instance storage, emptied whenever the VM stops, "
            "is deallocated, moves host or is redeployed (cloud-instance-storage): never keep "
            "SAS data, SPD Server data, index or metadata, or anything that must survive "
            "there.",
            action=f"Move {s.mount} to a persistent volume (EBS, a managed disk) and keep "
            "instance storage for WORK and UTILLOC.",
            severity="high",
        )  # fmt: skip
    scratch = [s.mount for s in wiped if s.role in SCRATCH]
    if scratch:
        out.set(
            SYSTEM, "instance storage at boot", f"mkfs and mount {', '.join(scratch)} at "
            "every boot, before SAS starts", kind="advice",
            rationale=f"{', '.join(scratch)} on instance storage suits WORK and UTILLOC, "
            "which SAS deletes at the end of each session, and Microsoft's SAS guide puts "
            "SASWORK on local disks (azure-sas-guide). The disks come back empty and "
            "unformatted after a stop or redeploy (cloud-instance-storage): a boot-time unit "
            "(systemd, cloud-init) must make the file system, mount it, create the WORK "
            "directories with their permissions, and start SAS only after it; mount it "
            "with nofail so a missing disk does not stop the boot.",
        )  # fmt: skip


def _page_kb(inv: Inventory, s: Storage) -> int | None:
    kb = s.max_transfer_kb or transfer_choice(inv).kb
    return page_choice(kb).kb if kb else None


def _straddles(stripe: int, page: int) -> bool:
    return page % stripe != 0 and stripe % page != 0


@rule(
    id="placement.stripe_alignment",
    title="Stripe unit aligned with the SAS page size",
    sources=("sas569-2017", "bogacz2012", "bartucca2005"),
    inputs=(
        "storage[].stripe_kb",
        "storage[].max_transfer_kb",
        "storage[].role",
        "storage[].raid",
    ),
)
def stripe_alignment(inv: Inventory, out: Emitter) -> None:
    """Warn where SAS pages straddle stripe units (neither size a multiple of the other)."""
    for s in inv.storage:
        page = _page_kb(inv, s) if s.stripe_kb and s.striped and s.role != "other" else None
        if not page or not s.stripe_kb or not _straddles(s.stripe_kb, page):
            continue
        out.warn(
            f"{s.mount}'s stripe unit of {kb_text(s.stripe_kb)} does not divide the "
            f"{kb_text(page)} SAS pages and transfers, nor they it: SAS pages straddle strips, "
            f"a page spanning {page / s.stripe_kb:.2f} stripe units, so most pages touch one "
            f"disk more than they need and a write ends inside a unit{_partial(s)}. Crevar "
            "aligns stripe unit and BUFSIZE at 64K, 128K or 256K (sas569-2017); bogacz2012 "
            "striped at 64K (l.32); bartucca2005 sized pages to the 256 KB transfer "
            "(l.246-252, l.486-495).",
            action=f"At the next rebuild of {s.mount}, use a stripe unit of 64K, 128K or 256K "
            f"that divides {kb_text(page)}.",
            severity="medium",
        )  # fmt: skip


def _partial(s: Storage) -> str:
    """RAID 5 and 6 recompute parity: a write short of a whole stripe reads it first."""
    if s.raid not in ("5", "6"):
        return ""
    return (
        f"; on RAID {s.raid} such a write is a partial-stripe write, which the array "
        "completes by reading old data and parity before it writes (read-modify-write)"
    )


RULES: tuple[Rule, ...] = (work_in_data, instance_storage, stripe_alignment)
