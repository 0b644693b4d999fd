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
    Choice,
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
from rules.versions import version_tuple

OsName = Literal["aix", "linux", "solaris", "hpux", "windows"]
Role = Literal[
    "data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other"
]
Raid = Literal["0", "1", "5", "6", "10", "jbod"]
Media = Literal["hdd", "ssd", "nvme", "ram"]
Filesystem = Literal[
    "jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "nfs", "other"
]
Distribution = Literal["rhel", "ol", "centos", "rocky", "alma", "sles", "ubuntu", "debian", "other"]

SCHEMA_VERSION = 1
MAX_NAME = 200
MAX_STORAGE = 512
MIX_TOLERANCE = 0.01
# Binary floats put 1.01 − 1 just above 0.01; this slack (far below any share a person
# types) lets 0.99, 1.01, 0.33 + 0.33 + 0.34 and ten shares of 0.1 through, and 1.011 not.
_MIX_FLOAT_SLACK = 1e-9
MAX_KB = 1048576
OS_CHOICE = Choice(("aix", "linux", "solaris", "hpux", "windows"))
SAS_CHOICE = Choice(("9.1.3", "9.2", "9.3", "9.4"))
ROLE_CHOICE = Choice(
    ("data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other")
)
RAID_CHOICE = Choice(("0", "1", "5", "6", "10", "jbod"))
MEDIA_CHOICE = Choice(("hdd", "ssd", "nvme", "ram"))
FS_CHOICE = Choice(
    ("jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "nfs", "other")
)
DISTRIBUTION_CHOICE = Choice(
    ("rhel", "ol", "centos", "rocky", "alma", "sles", "ubuntu", "debian", "other")
)
KERNEL = Pattern(r"[0-9]{1,4}(?:\.[0-9]{1,6}){1,3}", "must be a kernel release such as '5.14.0'")

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME = Pattern(
    rf"{_LABEL}(?:\.{_LABEL})*",
    "must be an RFC 1123 host name: labels of letters, digits and '-', "
    "1-63 characters each, at most 253 in all",
    max_len=253,
)
DOTTED = r"[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}"
OS_VERSION = Pattern(DOTTED, "must be a dotted version number such as '7.2'")
DEVICE = Pattern(r"[A-Za-z0-9_.-]{1,64}", "must be 1-64 characters of [A-Za-z0-9_.-]")
_MOUNT_MESSAGE = (
    "must be an absolute path: /saswork of [A-Za-z0-9/_.-], or for Windows a drive path "
    "(D:\\saswork) or a UNC path (\\\\server\\share) of [A-Za-z0-9_.$-]"
)
_WIN_PART = r"[A-Za-z0-9_.$-]{1,255}"
WINDOWS_MOUNT = (
    rf"[A-Za-z]:\\(?:{_WIN_PART}(?:\\{_WIN_PART})*\\?)?"
    rf"|\\\\{_WIN_PART}\\{_WIN_PART}(?:\\{_WIN_PART})*\\?"
)


def is_windows_path(path: str) -> bool:
    return not path.startswith("/")


def _mount_components(value: str) -> str | None:
    if is_windows_path(value):
        parts = value.lstrip("\\").split("\\")
        if any(p in (".", "..") for p in parts):
            return _MOUNT_MESSAGE + ", without '.' or '..' components"
        return None
    if value != "/" and any(p in ("", ".", "..") for p in value.split("/")[1:]):
        return _MOUNT_MESSAGE + ", without empty, '.' or '..' components"
    return None


MOUNT = Pattern(
    rf"/[A-Za-z0-9/_.-]*|{WINDOWS_MOUNT}", _MOUNT_MESSAGE, max_len=1024, check=_mount_components
)
KB = Int(1, MAX_KB)


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
    stripe_kb: int | None = spec(KB, default=None, nullable=True, label="Stripe (KB)")
    max_transfer_kb: int | None = spec(
        KB, default=None, nullable=True, label="Max transfer (KB)",
        help="largest single transfer the device takes (AIX: lsattr -El hdiskN -a "
        "max_transfer, 0x40000 = 256)",
    )  # fmt: skip
    size_gb: float = spec(Num(0, 1e9, exclusive_lo=True), label="Size (GB)")
    media: Media = spec(MEDIA_CHOICE, label="Media")
    filesystem: Filesystem = spec(FS_CHOICE, label="File system")
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


def _unique_mounts(entries: list[Storage | None], path: str) -> list[tuple[str, str]]:
    seen: dict[str, int] = {}
    found: list[tuple[str, str]] = []
    for i, entry in enumerate(entries):
        if entry is None:
            continue
        if entry.mount in seen:
            found.append((f"{path}[{i}].mount", f"duplicates {path}[{seen[entry.mount]}].mount"))
        seen.setdefault(entry.mount, i)
    return found


def paths_fit_the_os(inv: Inventory, path: str) -> list[tuple[str, str]]:
    """Windows paths on Windows only, POSIX paths everywhere else; Windows paths compare
    without regard to case, so two that differ only in case are the same mount."""
    windows, found = inv.server.os == "windows", []
    seen: dict[str, int] = {}
    for s in inv.storage:
        if windows != is_windows_path(s.mount):
            want = (
                "a Windows path (D:\\saswork or \\\\server\\share)"
                if windows
                else ("an absolute POSIX path (/saswork)")
            )
            found.append((f"{s.path}.mount", f"must be {want} for server.os {inv.server.os}"))
        elif windows and s.mount.lower().rstrip("\\") in seen:
            other = seen[s.mount.lower().rstrip("\\")]
            found.append((f"{s.path}.mount", f"duplicates storage[{other}].mount"))
        seen.setdefault(s.mount.lower().rstrip("\\"), s.index)
    return found


def _linux_only(server: Server, path: str) -> list[tuple[str, str]]:
    if server.distribution is not None and server.os != "linux":
        return [(f"{path}.distribution", f"is for Linux; server.os is {server.os}")]
    return []


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


def _mix_sums_to_one(mix: Mix, path: str) -> list[tuple[str, str]]:
    total = mix.etl + mix.summary + mix.analytics + mix.spds_query
    if abs(total - 1.0) > MIX_TOLERANCE + _MIX_FLOAT_SLACK:
        return [(path, f"fractions must sum to 1 (±{MIX_TOLERANCE:g}), got {total:.4g}")]
    return []


@dataclass(frozen=True, kw_only=True)
class Workload:
    concurrent_sessions: int = spec(
        Int(1, 100000), label="Peak SAS sessions", help="peak simultaneous SAS sessions"
    )
    mix: Mix = spec(
        Obj(Mix, post=_mix_sums_to_one), label="Workload mix",
        help=f"fractions summing to 1 (±{MIX_TOLERANCE:g}); absent keys are 0",
    )  # fmt: skip
    largest_table_gb: float = spec(Num(0, 1e9), label="Largest table (GB)")
    total_data_gb: float = spec(Num(0, 1e9), label="Total data (GB)")
    growth_gb_per_week: float = spec(
        Num(0, 1e9), default=0.0, nullable=True, label="Growth (GB/week)"
    )


@dataclass(frozen=True, kw_only=True)
class Inventory:
    schema_version: int = spec(Const(SCHEMA_VERSION), label="Contract version")
    name: str = spec(Text(MAX_NAME), label="Assessment name")
    server: Server = spec(Obj(Server, post=_linux_only), label="Server")
    sas: Sas = spec(Obj(Sas), label="SAS")
    storage: tuple[Storage, ...] = spec(
        ListOf(
            Obj(Storage), MAX_STORAGE, "must be a list",
            too_long=f"must have at most {MAX_STORAGE} entries",
            post=_unique_mounts, index_field="index",
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
