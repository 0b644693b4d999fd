"""Rules linux.thp, linux.dirty (rules.catalog.linux.dirty) and linux.swappiness: Linux
virtual memory for SAS.

Sources: tuned's own profiles (tuned-profiles: throughput-performance sets swappiness 10
and dirty 40 %/10 %; the oracle and postgresql profiles set transparent_hugepages=never;
the vm plugin writes /sys/kernel/mm/transparent_hugepage/enabled); SAS tuned child profiles
in public deployment scripts (sas-linux-community, unconfirmed: THP never, dirty 30 %/10 %).
"""

from __future__ import annotations

from rules.catalog.linux import dirty
from rules.catalog.linux.common import ON_LINUX, PARENT_SWAPPINESS, tune
from rules.catalog.linux.distro import thp_default, thp_sentence
from rules.derive.linux import linux_release
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import TUNED, Rule, rule
from rules.payloads import LinuxTunable

THP_PATH = "/sys/kernel/mm/transparent_hugepage/enabled"
UNCONFIRMED = " This value rests on community SAS profiles only: unconfirmed."


@rule(
    id="linux.thp",
    title="Transparent huge pages off for SAS sessions",
    sources=("tuned-profiles", "sas-linux-community", "kernel-thp-config", "oracle-linux-thp"),
    settings=((TUNED, "transparent_hugepages"),),
    applies=ON_LINUX,
    inputs=("server.os", "server.distribution"),
)
def thp(inv: Inventory, out: Emitter) -> None:
    """SAS sessions allocate and free memory constantly; khugepaged compaction stalls them."""
    release = linux_release(inv)
    tunable = LinuxTunable("vm", "transparent_hugepages", THP_PATH, default=thp_default(release))
    tune(
        out, tunable, "never", setting="transparent_hugepages",
        rationale="THP never, as tuned's oracle and postgresql profiles set it for "
        "allocation-heavy servers, and as the SAS child profiles do: many SAS sessions "
        "allocating and freeing memory otherwise wait on huge-page compaction. "
        + thp_sentence(release) + UNCONFIRMED,
        evidence="tuned profiles/oracle/tuned.conf [vm] transparent_hugepages=never",
        sources=_thp_sources(release.distribution, thp_default(release)),
    )  # fmt: skip


def _thp_sources(distribution: str, default: str) -> tuple[str, ...]:
    extra = {"ol": ("oracle-linux-thp",)}.get(distribution, ())
    return ("tuned-profiles", "sas-linux-community", *extra) + (
        () if default else ("kernel-thp-config",)
    )


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


RULES: tuple[Rule, ...] = (thp, *dirty.RULES, swappiness)
