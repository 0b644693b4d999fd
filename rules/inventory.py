"""The inventory contract (v1), declared once.

Each class is a frozen dataclass; each contract field carries its kind, label and help
(`rules.fields.spec`). Validation (`rules.validate.parse`), the JSON Schema the API serves
(`rules.schema`), the web form's fields, choices and limits, and the result's `inventory`
echo (`Inventory.to_dict`) are all read off these declarations: a new optional field is
one line here. Names that end up in generated shell scripts (host names, mount points,
device names) are held to strict character sets, so no renderer ever sees a hostile value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from rules.current import Current
from rules.echo import to_document
from rules.fields import (
    Bool,
    Const,
    Int,
    ListOf,
    Num,
    Obj,
    Pattern,
    Text,
    internal,
    spec,
    specs,
)
from rules.inventory_checks import (
    MIX_TOLERANCE,
    maintenance_fits,
    mix_sums_to_one,
    server_fits,
    storage_fits,
    unique_mounts,
)
from rules.inventory_storage import Filesystem as Filesystem
from rules.inventory_storage import Media as Media
from rules.inventory_storage import Raid as Raid
from rules.inventory_storage import Role as Role
from rules.inventory_storage import Shared as Shared
from rules.inventory_storage import Storage as Storage
from rules.inventory_storage import VolumeKind as VolumeKind
from rules.kinds import (
    DISTRIBUTION_CHOICE,
    DOTTED,
    FS_CHOICE,
    HOSTNAME,
    KERNEL,
    MEDIA_CHOICE,
    OS_CHOICE,
    OS_VERSION,
    RAID_CHOICE,
    ROLE_CHOICE,
    SAS_CHOICE,
)
from rules.kinds_estate import (
    GB,
    MAINTENANCE_CHOICE,
    NUMA_NODES,
    VIRTUAL_CHOICE,
    WINDOWS_RELEASE_CHOICE,
)
from rules.versions import version_tuple

OsName = Literal["aix", "linux", "solaris", "hpux", "windows"]
Distribution = Literal[
    "rhel", "ol", "centos", "rocky", "alma", "sles", "opensuse", "ubuntu", "debian", "other"
]
Virtual = Literal[
    "none", "lpar", "ldom", "vmware", "kvm", "hyperv", "xen", "aws", "azure", "gcp", "oci", "other"
]
WindowsRelease = Literal["2016", "2019", "2022", "2025"]
Maintenance = Literal["M0", "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9"]

SCHEMA_VERSION = 1
MAX_NAME = 200
MAX_STORAGE = 512


@dataclass(frozen=True, kw_only=True)
class Server:
    hostname: str = spec(HOSTNAME, label="Host name", example="lemans")
    os: OsName = spec(OS_CHOICE, label="Operating system")
    os_version: str = spec(
        OS_VERSION, label="OS version", example="7.2", help="compared as dotted numbers"
    )
    cpus: int = spec(Int(1, 4096), label="Logical CPUs", help="logical CPUs the OS sees")
    ram_gb: float = spec(Num(0, 65536, exclusive_lo=True), label="RAM (GB)", example=64)
    cores: int | None = spec(
        Int(1, 4096), default=None, nullable=True, label="Physical cores",
        help="physical cores, SMT threads not counted (AIX: lparstat -i; Linux: lscpu)",
    )  # fmt: skip
    smt_threads: int | None = spec(
        Int(1, 16), default=None, nullable=True, label="SMT threads per core",
        help="hardware threads per core (AIX: smtctl; Linux: lscpu 'Thread(s) per core')",
    )  # fmt: skip
    distribution: Distribution | None = spec(
        DISTRIBUTION_CHOICE, default=None, nullable=True, label="Linux distribution",
        help="os-release ID (rhel, ol, sles, ubuntu …); Linux only, os_version is its release",
    )  # fmt: skip
    kernel: str | None = spec(
        KERNEL, default=None, nullable=True, label="Kernel release", example="5.14.0",
        help="the dotted numbers of `uname -r` (5.14.0-427.el9.x86_64 → 5.14.0)",
    )  # fmt: skip
    # Added to contract v1 later: echoed only when set (echo_default=False).
    os_release_name: WindowsRelease | None = spec(
        WINDOWS_RELEASE_CHOICE, default=None, nullable=True, echo_default=False,
        label="Windows Server release",
        help="Windows only: the release, since OS version 10.0 is every one from 2016 to 2025 "
        "(winver; 10.0.20348 is 2022)",
    )  # fmt: skip
    numa_nodes: int | None = spec(
        NUMA_NODES, default=None, nullable=True, echo_default=False, label="NUMA nodes",
        help="memory nodes the OS sees (Linux: lscpu 'NUMA node(s)'; AIX: lssrad -av; "
        "Solaris: lgrpinfo)",
    )  # fmt: skip
    virtual: Virtual | None = spec(
        VIRTUAL_CHOICE, default=None, nullable=True, echo_default=False, label="Runs on",
        help="none for bare metal, else the hypervisor (lpar: PowerVM; ldom: SPARC) or cloud; "
        "on a VM each vCPU is a hardware thread, not a core",
    )  # fmt: skip
    zfs_arc_max_gb: float | None = spec(
        GB, default=None, nullable=True, echo_default=False, label="ZFS ARC max (GB)",
        help="the ZFS cache's bound now (Solaris: kstat -p zfs:0:arcstats:c_max; Linux: "
        "/sys/module/zfs/parameters/zfs_arc_max); Solaris and Linux only",
    )  # fmt: skip
    gpfs_pagepool_gb: float | None = spec(
        GB, default=None, nullable=True, echo_default=False, label="GPFS pagepool (GB)",
        help="this node's IBM Storage Scale (GPFS) page pool (mmlsconfig pagepool); only "
        "with a gpfs file system in the storage",
    )  # fmt: skip

    @cached_property
    def version(self) -> tuple[int, ...]:
        return version_tuple(self.os_version)

    def os_at_least(self, name: str, version: str) -> bool:
        return self.os == name and self.version >= version_tuple(version)

    @property
    def ram_mb(self) -> float:
        return self.ram_gb * 1024


def _plain_parts(path: str) -> str | None:
    """No empty, '.' or '..' folder between the separators (a trailing one may end it)."""
    parts = path.replace("\\", "/").rstrip("/").split("/")[1:]
    if any(p in ("", ".", "..") for p in parts):
        return "must be a path without empty, '.' or '..' folders"
    return None


# SASHOME: a POSIX path as a mount point is written, or a Windows drive path whose folder
# names may hold spaces and parentheses (C:\Program Files\SASHome); no script is given it.
_INSTALL_PART = r"[A-Za-z0-9_.$()-](?:[A-Za-z0-9_.$() -]{0,253}[A-Za-z0-9_.$()-])?"
INSTALL_PATH = Pattern(
    rf"/[A-Za-z0-9/_.-]*|[A-Za-z]:\\(?:{_INSTALL_PART}(?:\\{_INSTALL_PART})*\\?)?",
    "must be an absolute path such as /opt/sas/SASHome, or on Windows a drive path such as "
    "C:\\Program Files\\SASHome",
    max_len=1024,
    check=_plain_parts,
)


@dataclass(frozen=True, kw_only=True)
class Spds:
    version: str = spec(
        Pattern(DOTTED, "must be a dotted version number such as '5.3'"),
        label="SPD Server version", example="5.3",
    )  # fmt: skip

    @cached_property
    def release(self) -> tuple[int, ...]:
        return version_tuple(self.version)


@dataclass(frozen=True, kw_only=True)
class Sas:
    version: str = spec(SAS_CHOICE, label="SAS version")
    connect_licensed: bool = spec(
        Bool(), label="SAS/CONNECT licensed", help="SAS/CONNECT available for MP CONNECT piping"
    )
    spds: Spds | None = spec(
        Obj(Spds), nullable=True, label="SPD Server", help="SPD Server, or null when there is none"
    )
    maintenance: Maintenance | None = spec(
        MAINTENANCE_CHOICE, default=None, nullable=True, echo_default=False,
        label="SAS maintenance release",
        help="M8 for 9.4M8 (the log's first lines; %put &sysvlong; gives 9.04.01M8P…)",
    )  # fmt: skip
    install_path: str | None = spec(
        INSTALL_PATH, default=None, nullable=True, echo_default=False,
        label="SAS installation folder", example="/opt/sas/SASHome",
        help="where SAS is installed, its SASHOME (/opt/sas/SASHome, /usr/local/SASHome; "
        "Windows: C:\\Program Files\\SASHome)",
    )  # fmt: skip

    @cached_property
    def at_least_92(self) -> bool:
        return version_tuple(self.version) >= (9, 2)

    @cached_property
    def config_file(self) -> str:
        """The file the SAS options go to: sasv9_local.cfg from 9.2 (SAS's own file for site
        options); on 9.1.3 a file to append to the installed sasv9.cfg, named so that it is
        never mistaken for (and dropped over) that master file, which carries -PATH."""
        return "sasv9_local.cfg" if self.at_least_92 else "sasv9_append.cfg"


SHARE = Num(0, 1)


@dataclass(frozen=True, kw_only=True)
class Mix:
    etl: float = spec(SHARE, default=0.0, label="ETL, sort, merge", help="sort/merge/ETL batch")
    summary: float = spec(
        SHARE, default=0.0, label="Summaries", help="DATA step → PROC SUMMARY/TABULATE pipelines"
    )
    analytics: float = spec(
        SHARE, default=0.0, label="Analytics",
        help="CPU-bound modelling (REG, GLM, LOESS, IML)",
    )  # fmt: skip
    spds_query: float = spec(
        SHARE, default=0.0, label="SPD Server queries", help="SPD Server warehouse queries"
    )


@dataclass(frozen=True, kw_only=True)
class Workload:
    concurrent_sessions: int = spec(
        Int(1, 100000), label="Peak SAS sessions", help="peak simultaneous SAS sessions"
    )
    mix: Mix = spec(
        Obj(Mix, post=mix_sums_to_one, min_properties=1), label="Workload mix",
        help=f"fractions summing to 1 (±{MIX_TOLERANCE:g}); absent keys are 0",
    )  # fmt: skip
    largest_table_gb: float = spec(
        Num(0, 1e9), label="Largest table (GB)",
        help="at most the total data, which holds it (unless that is 0: not known)",
    )  # fmt: skip
    total_data_gb: float = spec(Num(0, 1e9), label="Total data (GB)")
    growth_gb_per_week: float = spec(
        Num(0, 1e9), default=0.0, nullable=True, label="Growth (GB/week)"
    )


@dataclass(frozen=True, kw_only=True)
class Inventory:
    schema_version: int = spec(Const(SCHEMA_VERSION), label="Contract version")
    name: str = spec(Text(MAX_NAME), label="Assessment name")
    server: Server = spec(Obj(Server, post=server_fits), label="Server")
    sas: Sas = spec(Obj(Sas, post=maintenance_fits), label="SAS")
    storage: tuple[Storage, ...] = spec(
        ListOf(
            Obj(Storage, post=storage_fits), MAX_STORAGE, "must be a list",
            too_long=f"must have at most {MAX_STORAGE} entries",
            post=unique_mounts, index_field="index",
        ),
        label="Storage",
    )  # fmt: skip
    workload: Workload = spec(Obj(Workload), label="Workload")
    current: Current | None = spec(
        Obj(Current), default=None, nullable=True, label="Current settings",
        help="what the server runs now, read by the collector; null when unknown",
    )  # fmt: skip
    _memo: dict[str, Any] = internal(None)

    @property
    def memo(self) -> dict[str, Any]:
        """A cache for facts derived from this (immutable) inventory (rules.derive.memo)."""
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        return memo

    @property
    def config_file(self) -> str:
        """The file the SAS options go to. On Windows, SAS reads !SASROOT\\sasv9.cfg and the
        language file it names (!SASROOT\\nls\\en\\sasv9.cfg), and no sasv9_local.cfg (SAS
        9.4 Companion for Windows, 'Files Used by SAS'): the lines are to be appended there."""
        return "sasv9_append.cfg" if self.server.os == "windows" else self.sas.config_file

    def by_role(self, *roles: str) -> tuple[Storage, ...]:
        """Storage entries with any of these roles, in inventory order."""
        memo, key = self.memo, "roles:" + ",".join(roles)
        if key not in memo:
            memo[key] = tuple(s for s in self.storage if s.role in roles)
        found: tuple[Storage, ...] = memo[key]
        return found

    def to_dict(self) -> dict[str, Any]:
        """The validated document, defaults filled in (the contract's `inventory`)."""
        return to_document(self)


# The contract's choices, as tuples, for code that lists them.
OS_NAMES = OS_CHOICE.options
SAS_VERSIONS = SAS_CHOICE.options
ROLES = ROLE_CHOICE.options
RAID_LEVELS = RAID_CHOICE.options
MEDIA = MEDIA_CHOICE.options
FILESYSTEMS = FS_CHOICE.options
MIX_KEYS: tuple[str, ...] = tuple(name for name, _ in specs(Mix))
