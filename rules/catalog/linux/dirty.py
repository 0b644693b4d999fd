"""Rule linux.dirty: how much dirty page cache builds before writers are throttled.

Sources: tuned's throughput-performance (tuned-profiles: dirty 40 %, background 10 %); the
SAS child profiles of public deployment scripts (sas-linux-community, unconfirmed: 30 % and
10 %); the kernel (kernel-vm-sysctl): Documentation/admin-guide/sysctl/vm.rst says
dirty_bytes and dirty_background_bytes are the counterparts of the two ratios, only one of
each pair in effect, writing one zeroing the other; commit 2da02997 added them because a
percentage of memory stops being a sensible limit on large machines.

On large memory the percentages become byte limits with a bound (96 GiB and 32 GiB, the SAS
profiles' 3:1 proportion). No vendor source gives that bound for SAS, so the rationale says
"unconfirmed" and what to measure. tuned carries the byte forms in [vm] from 2.25
(rules.derive.linux) and in [sysctl] where its parent's ratios can be dropped (`drop=`,
tuned 2.13); where neither is known, the percentages themselves are lowered to the bound.
"""

from __future__ import annotations

import math

from rules.catalog.linux.common import ON_LINUX, PARENT_DIRTY_PCT, tune
from rules.derive.linux import linux_release, tuned_dirty_in_vm
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import TUNED, Rule, rule
from rules.payloads import LinuxTunable

# sas-linux-community (unconfirmed): the SAS child profiles lower the parent's 40 % to 30 %.
SAS_DIRTY_PCT, SAS_DIRTY_BACKGROUND_PCT = 30, 10
# The bound on large memory (unconfirmed): 96 GiB is about 100 s of writing at 1 GB/s,
# inside the kernel's 120 s hung-task timeout; writeback starts at a third of it.
DIRTY_BOUND_GIB, DIRTY_BACKGROUND_BOUND_GIB = 96, 32
HUNG_TASK_TIMEOUT_S = 120  # kernel.hung_task_timeout_secs (CONFIG_DEFAULT_HUNG_TASK_TIMEOUT)
GIB = 1024**3
# The first release whose tuned takes `drop=` (tuned 2.13, commit 598c506), so a child
# profile can remove the parent's [sysctl] ratios: taken from the tuned release dates of
# RHEL 8.2 and Ubuntu 22.04 (tuned 2.15); unconfirmed. Elsewhere the tuned is unknown.
TUNED_DROP_SINCE = {"rhel": (8, 2), "ubuntu": (22, 4)}
PROFILES = ("tuned-profiles", "sas-linux-community")
LARGE = ("kernel-vm-sysctl", *PROFILES, "suse-dirty-cache")
UNCONFIRMED = " This value rests on community SAS profiles only: unconfirmed."
EVIDENCE = "tuned profiles/throughput-performance/tuned.conf (dirty 40 %, background 10 %)"
MEASURE = (
    " Measure before keeping it: the write rate of the SAS file systems (the collector's "
    "--measure, or dd with conv=fsync) and Dirty and Writeback in /proc/meminfo during the "
    "heaviest ETL; keep dirty_bytes below what the slowest of them writes in 100 s, and "
    "lower it if Writeback stays high or writers stall."
)


def _tunable(inv: Inventory, name: str, default: str) -> LinuxTunable:
    """The [vm] option from tuned 2.25, else the [sysctl] key, with its /proc/sys path."""
    path = f"/proc/sys/vm/{name}"
    if tuned_dirty_in_vm(inv):
        return LinuxTunable("vm", name, path, default=default)
    return LinuxTunable("sysctl", f"vm.{name}", path, default=default)


def _where(inv: Inventory) -> str:
    if tuned_dirty_in_vm(inv):
        return "[vm] (tuned 2.25 and later read the dirty values there)"
    return "[sysctl], where this release's tuned (before 2.25) and its parent profile set them"


def _drops_parent_ratio(inv: Inventory) -> bool:
    """Whether the child profile can carry byte limits without the parent's ratios."""
    if tuned_dirty_in_vm(inv):
        return True
    since = TUNED_DROP_SINCE.get(linux_release(inv).family)
    return since is not None and inv.server.version >= since


def _large(inv: Inventory) -> bool:
    return inv.server.ram_gb * SAS_DIRTY_PCT / 100 > DIRTY_BOUND_GIB


def _why_large(inv: Inventory, form: str) -> str:
    ram = inv.server.ram_gb
    release = linux_release(inv)
    seconds = DIRTY_BOUND_GIB * GIB / 1e9
    return (
        f"{ram:g} GB of RAM: the SAS profiles' {SAS_DIRTY_PCT} % would let "
        f"{ram * SAS_DIRTY_PCT / 100:g} GB of dirty pages build before writers are throttled, "
        f"and writeback would wait for {ram * SAS_DIRTY_BACKGROUND_PCT / 100:g} GB. The kernel "
        "added dirty_bytes and dirty_background_bytes because a percentage of memory stops "
        "being a sensible limit on machines this large (commit 2da02997); only one of each "
        "pair is in effect, writing one zeroes the other (Documentation/admin-guide/sysctl/"
        "vm.rst). Bounded at "
        f"{DIRTY_BOUND_GIB} GiB (writers throttled) and {DIRTY_BACKGROUND_BOUND_GIB} GiB "
        f"(writeback starts), the SAS profiles' 3:1 proportion: {DIRTY_BOUND_GIB} GiB takes "
        f"about {seconds:.0f} s to write at 1 GB/s, inside the kernel's "
        f"{HUNG_TASK_TIMEOUT_S} s hung-task timeout. {form} On {release.label} the values go "
        f"in {_where(inv)}."
        + (f" ({release.assumed}.)" if release.assumed else "")
        + " The bound is unconfirmed: no vendor source gives one for SAS (tuned's profiles "
        "use percentages; SUSE advises a few hundred MB for large-memory servers in "
        "general)." + MEASURE
    )


# Per setting: its default, for the script's and the report's "current → new".
DEFAULTS = {"dirty_ratio": "20", "dirty_background_ratio": "10", "dirty_bytes": "0",
            "dirty_background_bytes": "0"}  # fmt: skip
BYTES_EVIDENCE = (
    "Documentation/admin-guide/sysctl/vm.rst (dirty_bytes, dirty_background_bytes); kernel "
    "commit 2da02997"
)


def _emit(inv: Inventory, out: Emitter, values: dict[str, int], why: str, large: bool) -> None:
    """One recommendation per setting, with the rationale they share."""
    for name, value in values.items():
        tune(
            out, _tunable(inv, name, DEFAULTS[name]), str(value), setting=name, rationale=why,
            evidence=BYTES_EVIDENCE if name.endswith("bytes") else EVIDENCE,
            sources=LARGE if large else PROFILES,
        )  # fmt: skip


def _bytes(inv: Inventory, out: Emitter) -> None:
    form = (
        "The profile sets the byte forms and drops the parent's percentages, so the bytes "
        "are the limits in effect."
    )
    values = {
        "dirty_bytes": DIRTY_BOUND_GIB * GIB,
        "dirty_background_bytes": DIRTY_BACKGROUND_BOUND_GIB * GIB,
    }
    _emit(inv, out, values, _why_large(inv, form), large=True)


def _bounded_ratio(inv: Inventory, out: Emitter) -> None:
    ram = inv.server.ram_gb
    ratio = max(2, math.floor(DIRTY_BOUND_GIB * 100 / ram))
    background = max(1, min(ratio - 1, math.floor(DIRTY_BACKGROUND_BOUND_GIB * 100 / ram)))
    form = (
        f"This release's tuned is not known to drop its parent's percentages (drop=, tuned "
        f"2.13), and a byte limit beside them would depend on which tuned writes last, so "
        f"the percentages themselves are lowered to the bound: {ratio} % "
        f"({ram * ratio / 100:g} GB) and {background} % ({ram * background / 100:g} GB)."
    )
    values = {"dirty_ratio": ratio, "dirty_background_ratio": background}
    _emit(inv, out, values, _why_large(inv, form), large=True)


def _ratios(inv: Inventory, out: Emitter) -> None:
    ram = inv.server.ram_gb
    release = linux_release(inv)
    why = (
        f"throughput-performance lets {PARENT_DIRTY_PCT} % of RAM ({ram * 0.4:g} GB of "
        f"{ram:g} GB) be dirty before writers block; the SAS child profiles lower it to "
        f"{SAS_DIRTY_PCT} % and keep writeback starting at {SAS_DIRTY_BACKGROUND_PCT} %, so "
        f"WORK writes reach disk steadily. On {release.label} the values go in {_where(inv)}."
        + (f" ({release.assumed}.)" if release.assumed else "")
        + UNCONFIRMED
    )
    values = {"dirty_ratio": SAS_DIRTY_PCT, "dirty_background_ratio": SAS_DIRTY_BACKGROUND_PCT}
    _emit(inv, out, values, why, large=False)


@rule(
    id="linux.dirty",
    title="Dirty page cache limits: start writeback early, throttle writers before stalls",
    sources=LARGE,
    settings=(
        (TUNED, "dirty_ratio"),
        (TUNED, "dirty_background_ratio"),
        (TUNED, "dirty_bytes"),
        (TUNED, "dirty_background_bytes"),
    ),
    applies=ON_LINUX,
    inputs=("server.os_version", "server.distribution", "server.ram_gb"),
)
def dirty(inv: Inventory, out: Emitter) -> None:
    """Lower throughput-performance's 40 % so a burst of SAS writes cannot pile up; on
    large memory, bound it in bytes."""
    if not _large(inv):
        _ratios(inv, out)
    elif _drops_parent_ratio(inv):
        _bytes(inv, out)
    else:
        _bounded_ratio(inv, out)


RULES: tuple[Rule, ...] = (dirty,)
