"""Rules linux.thp, linux.dirty and linux.swappiness: Linux virtual memory for SAS.

Sources: tuned's own profiles (tuned-profiles: throughput-performance sets swappiness 10
and dirty 40 %/10 %; the oracle and postgresql profiles set transparent_hugepages=never;
the vm plugin writes /sys/kernel/mm/transparent_hugepage/enabled); SAS tuned child profiles
in public deployment scripts (sas-linux-community, unconfirmed: THP never, dirty 30 %/10 %).
tuned 2.25 moved the dirty values from [sysctl] to [vm] (rules.derive.linux).
"""

from __future__ import annotations

from rules.catalog.linux.common import (
    ON_LINUX,
    PARENT_DIRTY_PCT,
    PARENT_SWAPPINESS,
    tune,
)
from rules.derive.linux import linux_release, tuned_dirty_in_vm
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import TUNED, Rule, rule
from rules.payloads import LinuxTunable

THP_PATH = "/sys/kernel/mm/transparent_hugepage/enabled"
# sas-linux-community (unconfirmed): the SAS child profiles lower the parent's 40 % to 30 %.
SAS_DIRTY_PCT, SAS_DIRTY_BACKGROUND_PCT = 30, 10
UNCONFIRMED = " This value rests on community SAS profiles only: unconfirmed."


@rule(
    id="linux.thp",
    title="Transparent huge pages off for SAS sessions",
    sources=("tuned-profiles", "sas-linux-community"),
    settings=((TUNED, "transparent_hugepages"),),
    applies=ON_LINUX,
    inputs=("server.os",),
)
def thp(inv: Inventory, out: Emitter) -> None:
    """SAS sessions allocate and free memory constantly; khugepaged compaction stalls them."""
    tune(
        out, LinuxTunable("vm", "transparent_hugepages", THP_PATH, default="always"), "never",
        setting="transparent_hugepages",
        rationale="THP never, as tuned's oracle and postgresql profiles set it for "
        "allocation-heavy servers, and as the SAS child profiles do: many SAS sessions "
        "allocating and freeing memory otherwise wait on huge-page compaction. RHEL's "
        "default is always; throughput-performance leaves it (it sets never only on ThunderX "
        "aarch64)." + UNCONFIRMED,
        evidence="tuned profiles/oracle/tuned.conf [vm] transparent_hugepages=never",
    )  # fmt: skip


def _dirty_tunables(inv: Inventory) -> tuple[LinuxTunable, LinuxTunable, str]:
    if tuned_dirty_in_vm(inv):
        where = "[vm] (tuned 2.25 and later read the dirty values there)"
        return (
            LinuxTunable("vm", "dirty_ratio", "/proc/sys/vm/dirty_ratio", default="20"),
            LinuxTunable(
                "vm", "dirty_background_ratio", "/proc/sys/vm/dirty_background_ratio",
                default="10",
            ),
            where,
        )  # fmt: skip
    where = "[sysctl], where this release's tuned (before 2.25) and its parent profile set them"
    return (
        LinuxTunable("sysctl", "vm.dirty_ratio", "/proc/sys/vm/dirty_ratio", default="20"),
        LinuxTunable(
            "sysctl", "vm.dirty_background_ratio", "/proc/sys/vm/dirty_background_ratio",
            default="10",
        ),
        where,
    )  # fmt: skip


@rule(
    id="linux.dirty",
    title="Dirty page cache limits: start writeback early, throttle writers before stalls",
    sources=("tuned-profiles", "sas-linux-community"),
    settings=((TUNED, "dirty_ratio"), (TUNED, "dirty_background_ratio")),
    applies=ON_LINUX,
    inputs=("server.os_version", "server.distribution", "server.ram_gb"),
)
def dirty(inv: Inventory, out: Emitter) -> None:
    """Lower throughput-performance's 40 % so a burst of SAS writes cannot pile up."""
    ratio, background, where = _dirty_tunables(inv)
    ram = inv.server.ram_gb
    release = linux_release(inv)
    why = (
        f"throughput-performance lets {PARENT_DIRTY_PCT} % of RAM ({ram * 0.4:g} GB of "
        f"{ram:g} GB) be dirty before writers block; the SAS child profiles lower it to "
        f"{SAS_DIRTY_PCT} % and keep writeback starting at {SAS_DIRTY_BACKGROUND_PCT} %, so "
        f"WORK writes reach disk steadily. On {release.label} the values go in {where}."
        + (f" ({release.assumed}.)" if release.assumed else "")
        + UNCONFIRMED
    )
    evidence = "tuned profiles/throughput-performance/tuned.conf (dirty 40 %, background 10 %)"
    tune(out, ratio, str(SAS_DIRTY_PCT), setting="dirty_ratio", rationale=why, evidence=evidence)
    tune(
        out, background, str(SAS_DIRTY_BACKGROUND_PCT), setting="dirty_background_ratio",
        rationale=why, evidence=evidence,
    )  # fmt: skip


@rule(
    id="linux.swappiness",
    title="Swappiness 10: keep SAS sessions in memory, evict file cache first",
    sources=("tuned-profiles",),
    settings=((TUNED, "vm.swappiness"),),
    applies=ON_LINUX,
    inputs=("server.os",),
)
def swappiness(inv: Inventory, out: Emitter) -> None:
    """Written out although the parent sets it, so the script applies it where tuned is
    absent."""
    tune(
        out, LinuxTunable("sysctl", "vm.swappiness", "/proc/sys/vm/swappiness", default="60"),
        PARENT_SWAPPINESS, setting="vm.swappiness",
        rationale="throughput-performance's value: file I/O is usually much more efficient "
        "than swapping, so swapping is kept low (the profile's own comment). It is written "
        "here too so that linux_tuning.sh applies it where tuned is not installed.",
        evidence="tuned profiles/throughput-performance/tuned.conf [sysctl] vm.swappiness=10",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (thp, dirty, swappiness)
