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
    linux_only,
    mix_sums_to_one,
    unique_mounts,
)
from rules.kinds import (
    DEVICE,
    DISTRIBUTION_CHOICE,
    DOTTED,
    FS_CHOICE,
    HOSTNAME,
    KB,
    KERNEL,
    MEDIA_CHOICE,
    MOUNT,
    OS_CHOICE,
    OS_VERSION,
    RAID_CHOICE,
    ROLE_CHOICE,
    SAS_CHOICE,
)
from rules.versions import version_tuple

OsName = Literal["aix", "linux", "solaris", "hpux", "windows"]
Role = Literal[
    "data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other"
]
Raid = Literal["0", "1", "5", "6", "10", "jbod"]
Media = Literal["hdd", "ssd", "nvme", "ram"]
Filesystem = Literal[
    "jfs2",
    "jfs",
    "xfs",
    "ext4",
    "zfs",
    "ufs",
    "vxfs",
    "gpfs",
    "ntfs",
    "refs",
    "nfs",
    "other",
]
Distribution = Literal["rhel", "ol", "centos", "rocky", "alma", "sles", "ubuntu", "debian", "other"]

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

    @cached_property
    def version(self) -> tuple[int, ...]:
        return version_tuple(self.os_version)

    def os_at_least(self, name: str, version: str) -> bool:
        return self.os == name and self.version >= version_tuple(version)

    @property
    def ram_mb(self) -> float:
        return self.ram_gb * 1024


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

    @cached_property
    def at_least_92(self) -> bool:
        return version_tuple(self.version) >= (9, 2)

    @cached_property
    def config_file(self) -> str:
        """The file the SAS options go to: sasv9_local.cfg from 9.2 (SAS's own file for site
        options); on 9.1.3 a file to append to the installed sasv9.cfg, named so that it is
        never mistaken for (and dropped over) that master file, which carries -PATH."""
        return "sasv9_local.cfg" if self.at_least_92 else "sasv9_append.cfg"


@dataclass(frozen=True, kw_only=True)
class Storage:
    name: str = spec(DEVICE, label="Name", example="raid0lv01", help="LV, LUN or file system")
    mount: str = spec(
        MOUNT, label="Mount point", example="/saswork",
        help="absolute path without empty, '.' or '..' components; unique across storage",
    )  # fmt: skip
    role: Role = spec(ROLE_CHOICE, label="Role")
    raid: Raid = spec(RAID_CHOICE, label="RAID")
    disks: int = spec(Int(1, 100000), label="Disks", help="physical spindles or SSDs behind it")
    stripe_kb: int | None = spec(
        KB, default=None, nullable=True, label="Stripe (KB)",
        help="stripe unit: a power of two from 4 KB to 128 MB (Linux md RAID 0: any "
        "multiple of 4 KB)",
    )  # fmt: skip
    max_transfer_kb: int | None = spec(
        KB, default=None, nullable=True, label="Max transfer (KB)",
        help="largest single transfer the device takes (AIX: lsattr -El hdiskN -a "
        "max_transfer, 0x40000 = 256)",
    )  # fmt: skip
    size_gb: float = spec(Num(0, 1e9, exclusive_lo=True), label="Size (GB)")
    media: Media = spec(MEDIA_CHOICE, label="Media")
    filesystem: Filesystem = spec(
        FS_CHOICE, label="File system", help="one the server's OS mounts; NFS and other on any"
    )
    adapters: tuple[str, ...] = spec(
        ListOf(DEVICE, 64, "must be a list of at most 64 adapter names"),
        default=(), nullable=True, label="Adapters", example=["fscsi0", "fscsi1"],
    )  # fmt: skip
    devices: tuple[str, ...] = spec(
        ListOf(DEVICE, 1024, "must be a list of at most 1024 device names"),
        default=(), nullable=True, label="Devices", example=["hdisk4", "hdisk5"],
        help="the disks or LUNs behind it (AIX: lslv -l; Linux: lsblk)",
    )  # fmt: skip
    san: bool | None = spec(
        Bool(), default=None, nullable=True, label="SAN LUN",
        help="on array LUNs (Fibre Channel, multipath): their spindles are out of sight",
    )  # fmt: skip
    measured_mb_s: float | None = spec(
        Num(0, 1e7, exclusive_lo=True), default=None, nullable=True,
        label="Measured MB/s",
        help="sequential 1 MiB-block rate measured on it, the lower of write and read",
    )  # fmt: skip
    index: int = internal(0)  # the entry's position in inventory.storage

    @property
    def path(self) -> str:
        """This entry's JSON path, for skips and problems: 'storage[3]'."""
        return f"storage[{self.index}]"

    @property
    def striped(self) -> bool:
        """Data spread over several spindles (RAID 0, 5, 6, 10 on two or more disks)."""
        return self.raid in ("0", "5", "6", "10") and self.disks >= 2

    @property
    def solid_state(self) -> bool:
        return self.media in ("ssd", "nvme", "ram")


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
    server: Server = spec(Obj(Server, post=linux_only), label="Server")
    sas: Sas = spec(Obj(Sas), label="SAS")
    storage: tuple[Storage, ...] = spec(
        ListOf(
            Obj(Storage), MAX_STORAGE, "must be a list",
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
