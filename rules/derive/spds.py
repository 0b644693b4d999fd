"""SPD Server facts: the paper's figures, the paths planned, where the domains live.

Sources: bogacz2012 (the production spdsserv.parm of an 8-CPU, 64 GB AIX server running
SPD Server 4.4), and the SPD Server 5.3 Administrator's Guide (spds5-docs) for what
changed in 5.x. Every rule in `spds_*` reads its thresholds from here, so a figure that
comes from the paper has exactly one home.
"""

from __future__ import annotations

import math

from rules.derive.hardware import processors
from rules.derive.memo import per_inventory
from rules.inventory import Inventory, Storage

# Two SPD Server data paths per CPU: bogacz2012 put 16 file systems on 8 CPUs.
SPDS_PATHS_PER_CPU = 2
# The paper sized the warehouse for three years of weekly growth (2.88 TB → 16 × 180 GB).
SPDS_PLANNING_WEEKS = 3 * 52
# The paper's layout next to 2.88 TB of data: one index file system of 325 GB, one
# metadata file system of 30 GB, two work file systems of 177 GB each.
BOGACZ_DATA_GB = 2880
BOGACZ_INDEX_GB = 325
BOGACZ_META_GB = 30
BOGACZ_WORK_GB = 177
SPDS_MIN_WORK_PATHS = 2
# "A stripe size of 64K is commonly used" (bogacz2012 l.32, after the SAS documentation),
# explained by the read/write heads of the disks it spreads I/O over.
SPDS_STRIPE_KB = 64
# The paper's server and test (bogacz2012): l.20 the hardware, l.32 the stripe, l.34 the
# striped/unstriped test, Figures 1-2 (l.66-160) its 4-disk volume groups.
BOGACZ_HARDWARE = (
    "an 8-CPU, 64 GB AIX server with 4 Gb fibre channels running SPD Server 4.4 (l.20), "
    "whose disks it striped so that 'read/write heads' work at once (l.32)"
)
# bogacz2012 l.219 tested 1, 2, 4, 6, 8 and 16 threads; beyond 16 nothing was measured.
SPDS_MAXWHTHREADS_CAP = 16

# libnames.parm domains. SAS librefs are at most eight characters; "SPDSDATA" is the
# advisor's default for the warehouse domain, "TMP" is the domain bogacz2012's
# TMPDOMAIN=TMP names.
DATA_DOMAIN = "SPDSDATA"
TMP_DOMAIN = "TMP"


def spds_version(inv: Inventory) -> tuple[int, ...]:
    """The SPD Server release as numbers; only called once a rule knows spds is set."""
    assert inv.sas.spds is not None
    return inv.sas.spds.release


@per_inventory
def maxwhthreads(inv: Inventory) -> int:
    """One thread per CPU, as bogacz2012's test found (flat past 8 on 8 CPUs), ≤ 16."""
    return min(processors(inv)[0], SPDS_MAXWHTHREADS_CAP)


def is_5x(inv: Inventory) -> bool:
    return spds_version(inv)[0] >= 5


def mounts(entries: tuple[Storage, ...]) -> str:
    """'/spds01, /spds02' for rationales; '(none)' for an empty list."""
    return ", ".join(s.mount for s in entries) or "(none)"


def path_list(paths: list[str]) -> str:
    """SPD Server path list syntax: ('/a' '/b'). Mounts are validated to [A-Za-z0-9/_.-]."""
    return "(" + " ".join(f"'{p}'" for p in paths) + ")"


def on_spindles(s: Storage) -> bool:
    """Storage whose spinning disks the host sees: what bogacz2012's rules of thumb (data
    paths per CPU, 64K stripes) were about. Solid state (media ssd, nvme, ram) has no heads
    to spread, and a SAN LUN's disks, cache and striping are the array's, out of sight."""
    return not s.solid_state and s.san is not True


@per_inventory
def spindle_paths(inv: Inventory) -> bool:
    """The paper's two-paths-per-CPU rule fits: some data path is on spindles the host sees,
    or none is listed yet (a layout still to be built)."""
    have = inv.by_role("spds_data")
    return not have or any(on_spindles(s) for s in have)


@per_inventory
def planned_paths(inv: Inventory) -> int:
    """Data paths the layout should have: two per CPU on spindles, or more if the site
    already has them; on solid-state or SAN data paths, the ones listed."""
    have = len(inv.by_role("spds_data"))
    if not spindle_paths(inv):
        return have
    return max(have, SPDS_PATHS_PER_CPU * processors(inv)[0])


def ceil_gb(value: float) -> int:
    return math.ceil(value - 1e-9)


def domain_dir(mount: str, domain: str) -> str:
    """A domain's own directory on a file system, as the SAS guide's examples do
    ('/data01/skulist'): domain paths must never be shared between domains."""
    if not mount.startswith("/"):  # a Windows drive or UNC path
        return f"{mount.rstrip(chr(92))}{chr(92)}{domain.lower()}"
    return f"{mount.rstrip('/')}/{domain.lower()}"


@per_inventory
def tmp_domain_home(inv: Inventory) -> Storage | None:
    """Where the TMP domain lives: the first SPD work file system, else (beside a described
    warehouse) the first SAS WORK file system, else nowhere: TMPDOMAIN is then left unset.
    Temporary files belong on a work area (bogacz2012 l.24); never on the metadata file
    system (30 GB beside 2.88 TB in l.22, and every table's metadata lives there) nor on one
    data path of the set the tables are spread evenly over (l.22)."""
    roles = ("spds_work", "work") if inv.by_role("spds_data") else ("spds_work",)
    for role in roles:
        found = inv.by_role(role)
        if found:
            return found[0]
    return None


@per_inventory
def planned_size_gb(inv: Inventory) -> float:
    """Data today plus growth over the planning horizon (bogacz2012: three years)."""
    w = inv.workload
    return w.total_data_gb + w.growth_gb_per_week * SPDS_PLANNING_WEEKS
