"""Rules linux.readahead and linux.scheduler: the block devices behind SAS data and WORK.

Sources: tuned's disk plugin and throughput-performance (tuned-profiles: `readahead=>4096`,
KiB, '>' meaning "at least"; `elevator` writes /sys/block/DEV/queue/scheduler, one name);
SAS tuned child profiles (sas-linux-community, unconfirmed: readahead 16384 KB on data
devices); the scheduler preferences follow tuned's own profiles (mq-deadline for SAS and
SATA disks, none for NVMe: profiles of Spectrum Scale ECE and SAP HANA) and saptune's
ordered IO_SCHEDULER list, checked against what the kernel offers.
"""

from __future__ import annotations

from rules.catalog.linux.common import ON_LINUX, PARENT_READAHEAD_KB, SAS_ROLES, tune
from rules.derive.linux import linux_release
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import TUNED, Rule, rule
from rules.payloads import LinuxTunable

READAHEAD_PATH = "/sys/block/{dev}/queue/read_ahead_kb"
SCHEDULER_PATH = "/sys/block/{dev}/queue/scheduler"
# sas-linux-community (unconfirmed): 16 MiB read-ahead on the devices SAS streams from.
SAS_READAHEAD_KB = 16384
# Blk-mq names from RHEL 8 (kernel 4.18); RHEL 7's single-queue kernel calls it deadline.
HDD_PREFERENCE = ("mq-deadline", "deadline", "none")
FLASH_PREFERENCE = ("none", "mq-deadline", "noop")
RHEL7_HDD_PREFERENCE = ("deadline", "mq-deadline", "noop")
MAX_DEVICES_PER_LINE = 64


def _with_devices(inv: Inventory, out: Emitter, what: str) -> list[Storage]:
    entries = [s for s in inv.by_role(*SAS_ROLES) if s.devices]
    if not entries:
        missing = inv.by_role(*SAS_ROLES)
        field = f"{missing[0].path}.devices" if missing else "storage"
        out.skip(field, f"{what} is set per block device: no SAS storage entry names its devices")
    return entries


@rule(
    id="linux.readahead",
    title="Read-ahead of 16 MiB on the devices behind SAS data and WORK",
    sources=("tuned-profiles", "sas-linux-community"),
    settings=((TUNED, "readahead"),),
    applies=ON_LINUX,
    inputs=("storage[].devices", "storage[].role"),
)
def readahead(inv: Inventory, out: Emitter) -> None:
    """SAS reads its data sets sequentially, in BUFSIZE pages, start to end."""
    entries = _with_devices(inv, out, "read-ahead")
    devices = tuple(dict.fromkeys(d for s in entries for d in s.devices))[:MAX_DEVICES_PER_LINE]
    if not devices:
        return
    mounts = ", ".join(s.mount for s in entries)
    tune(
        out, LinuxTunable("disk", "readahead", READAHEAD_PATH, devices=devices, default="128"),
        f">{SAS_READAHEAD_KB}", setting="readahead",
        rationale=f"At least {SAS_READAHEAD_KB} KB read-ahead on {', '.join(devices)} (behind "
        f"{mounts}): SAS streams its data sets sequentially, and the SAS child profiles raise "
        f"throughput-performance's >{PARENT_READAHEAD_KB} to this on data devices; '>' keeps "
        "a larger value already set. The kernel default is 128 KB. This value rests on "
        "community SAS profiles only: unconfirmed.",
        evidence="tuned profiles/throughput-performance/tuned.conf [disk] readahead=>4096",
    )  # fmt: skip


def _preference(inv: Inventory, flash: bool) -> tuple[str, ...]:
    if flash:
        return FLASH_PREFERENCE
    release = linux_release(inv)
    return RHEL7_HDD_PREFERENCE if release.kernel_at_least((4, 18)) is False else HDD_PREFERENCE


@rule(
    id="linux.scheduler",
    title="I/O scheduler per device: deadline for disks and array LUNs, none for flash",
    sources=("tuned-profiles",),
    settings=((TUNED, "elevator:flash"), (TUNED, "elevator:disk")),
    applies=ON_LINUX,
    inputs=("storage[].devices", "storage[].media", "storage[].san", "server.kernel"),
)
def scheduler(inv: Inventory, out: Emitter) -> None:
    """Deadline keeps large sequential SAS streams from starving; flash needs no reordering."""
    entries = _with_devices(inv, out, "the I/O scheduler")
    flash_of: dict[str, bool] = {}  # a device listed twice takes its first entry's media
    for entry in entries:
        for device in entry.devices:
            flash_of.setdefault(device, entry.media == "nvme")
    groups = {
        flash: tuple(d for d, f in flash_of.items() if f is flash)[:MAX_DEVICES_PER_LINE]
        for flash in (True, False)
    }
    for flash, devices in groups.items():
        if not devices:
            continue
        order = _preference(inv, flash)
        what = "NVMe devices" if flash else "disks and array LUNs"
        tune(
            out, LinuxTunable("disk", "elevator", SCHEDULER_PATH, devices=devices,
                              alternatives=order[1:]),
            order[0], setting="elevator:flash" if flash else "elevator:disk",
            rationale=f"{order[0]} for the {what} {', '.join(devices)}, then "
            f"{' or '.join(order[1:])} where the kernel does not offer it (linux_tuning.sh "
            "reads /sys/block/DEV/queue/scheduler first and says which it used). "
            + ("NVMe queues need no reordering: tuned's Spectrum Scale and SAP HANA profiles "
               "use none." if flash else
               "Deadline bounds how long a read waits behind large sequential SAS writes; "
               "tuned's Spectrum Scale profile sets mq-deadline on sd* devices."),
            evidence="tuned profiles/spectrumscale-ece/tuned.conf [disk-sas] elevator="
            "mq-deadline, [disk-nvme] elevator=none",
        )  # fmt: skip


RULES: tuple[Rule, ...] = (readahead, scheduler)
