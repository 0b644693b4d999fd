"""What the Linux rules share: when they apply, and the two ways they speak to the tuned
profile and linux_tuning.sh (a setting the profile carries, a read-only check the script
runs)."""

from __future__ import annotations

from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import LINUX_SCRIPT, TUNED
from rules.payloads import Check, LinuxTunable

ON_LINUX = on_os("linux")
# Red Hat's throughput-performance, the profile the advisor's child profile includes
# (tuned-profiles: profiles/throughput-performance/tuned.conf at tuned 2.19-2.27).
PARENT_SWAPPINESS = "10"
PARENT_READAHEAD_KB = 4096
PARENT_GOVERNOR = "performance"
PARENT_DIRTY_PCT, PARENT_DIRTY_BACKGROUND_PCT = 40, 10
SAS_ROLES = ("data", "work", "utilloc", "spds_data", "spds_index", "spds_work", "spds_meta")


def tune(
    out: Emitter,
    tunable: LinuxTunable,
    value: str,
    *,
    setting: str,
    rationale: str,
    evidence: str,
    sources: tuple[str, ...] | None = None,
) -> None:
    """A setting of the tuned profile (and of the script where tuned is absent)."""
    out.set(
        TUNED, setting, value, rationale=rationale, evidence=evidence, sources=sources,
        payload=tunable,
    )  # fmt: skip


def check(out: Emitter, setting: str, argv: tuple[str, ...], expect: str, why: str) -> None:
    """A read-only command linux_tuning.sh runs and prints, with what a healthy answer is."""
    out.set(
        LINUX_SCRIPT, setting, " ".join(argv), rationale=why, kind="check",
        payload=Check(argv, expect),
    )  # fmt: skip


def devices_of(inv: Inventory, *roles: str) -> tuple[str, ...]:
    """The block devices behind the storage entries of these roles, in inventory order."""
    seen: dict[str, None] = {}
    for entry in inv.by_role(*roles):
        seen.update(dict.fromkeys(entry.devices))
    return tuple(seen)
