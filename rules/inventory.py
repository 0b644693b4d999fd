"""The inventory contract (v1) as typed, frozen objects.

`rules.validate.parse` is the only way in: it checks a raw document once and returns an
`Inventory`, so every rule can trust its input. `Inventory.to_dict` gives the validated
document back with defaults filled in, as the contract's output echoes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

OsName = Literal["aix", "linux", "solaris", "hpux", "windows"]
Role = Literal[
    "data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other"
]
Raid = Literal["0", "1", "5", "6", "10", "jbod"]
Media = Literal["hdd", "ssd", "nvme", "ram"]
Filesystem = Literal["jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "other"]

OS_NAMES: tuple[str, ...] = ("aix", "linux", "solaris", "hpux", "windows")
SAS_VERSIONS: tuple[str, ...] = ("9.1.3", "9.2", "9.3", "9.4")
ROLES: tuple[str, ...] = (
    "data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other",
)  # fmt: skip
RAID_LEVELS: tuple[str, ...] = ("0", "1", "5", "6", "10", "jbod")
MEDIA: tuple[str, ...] = ("hdd", "ssd", "nvme", "ram")
FILESYSTEMS: tuple[str, ...] = (
    "jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "other",
)  # fmt: skip
MIX_KEYS: tuple[str, ...] = ("etl", "summary", "analytics", "spds_query")
SCHEMA_VERSION = 1


def version_tuple(text: str) -> tuple[int, ...]:
    """'7.2' -> (7, 2); versions are compared as dotted numbers (the contract)."""
    return tuple(int(part) for part in text.split("."))


@dataclass(frozen=True)
class Server:
    hostname: str
    os: OsName
    os_version: str
    cpus: int
    ram_gb: float

    @cached_property
    def version(self) -> tuple[int, ...]:
        return version_tuple(self.os_version)

    def os_at_least(self, name: str, version: str) -> bool:
        return self.os == name and self.version >= version_tuple(version)

    @property
    def ram_mb(self) -> float:
        return self.ram_gb * 1024


@dataclass(frozen=True)
class Spds:
    version: str

    @cached_property
    def major(self) -> int:
        return version_tuple(self.version)[0]


@dataclass(frozen=True)
class Sas:
    version: str
    connect_licensed: bool
    spds: Spds | None

    @cached_property
    def at_least_92(self) -> bool:
        return version_tuple(self.version) >= (9, 2)

    @cached_property
    def config_file(self) -> str:
        """The site configuration file: sasv9.cfg on 9.1.3, sasv9_local.cfg from 9.2."""
        return "sasv9_local.cfg" if self.at_least_92 else "sasv9.cfg"


@dataclass(frozen=True)
class Storage:
    name: str
    mount: str
    role: Role
    raid: Raid
    disks: int
    size_gb: float
    media: Media
    filesystem: Filesystem
    stripe_kb: int | None = None
    max_transfer_kb: int | None = None
    adapters: tuple[str, ...] = ()

    @property
    def striped(self) -> bool:
        """Data spread over several spindles (RAID 0, 5, 6, 10 on two or more disks)."""
        return self.raid in ("0", "5", "6", "10") and self.disks >= 2

    @property
    def solid_state(self) -> bool:
        return self.media in ("ssd", "nvme", "ram")


@dataclass(frozen=True)
class Mix:
    etl: float = 0.0
    summary: float = 0.0
    analytics: float = 0.0
    spds_query: float = 0.0


@dataclass(frozen=True)
class Workload:
    concurrent_sessions: int
    mix: Mix
    largest_table_gb: float
    total_data_gb: float
    growth_gb_per_week: float = 0.0


@dataclass(frozen=True)
class Inventory:
    schema_version: int
    name: str
    server: Server
    sas: Sas
    storage: tuple[Storage, ...]
    workload: Workload
    _by_role: dict[str, tuple[Storage, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def by_role(self, *roles: str) -> tuple[Storage, ...]:
        """Storage entries with any of these roles, in inventory order."""
        key = ",".join(roles)
        if key not in self._by_role:
            self._by_role[key] = tuple(s for s in self.storage if s.role in roles)
        return self._by_role[key]

    def to_dict(self) -> dict[str, Any]:
        """The validated document, defaults filled in (the contract's `inventory`)."""
        return {
            "schema_version": self.schema_version,
            "name": self.name,
            "server": {
                "hostname": self.server.hostname,
                "os": self.server.os,
                "os_version": self.server.os_version,
                "cpus": self.server.cpus,
                "ram_gb": self.server.ram_gb,
            },
            "sas": {
                "version": self.sas.version,
                "connect_licensed": self.sas.connect_licensed,
                "spds": None if self.sas.spds is None else {"version": self.sas.spds.version},
            },
            "storage": [
                {
                    "name": s.name,
                    "mount": s.mount,
                    "role": s.role,
                    "raid": s.raid,
                    "disks": s.disks,
                    "stripe_kb": s.stripe_kb,
                    "max_transfer_kb": s.max_transfer_kb,
                    "size_gb": s.size_gb,
                    "media": s.media,
                    "filesystem": s.filesystem,
                    "adapters": list(s.adapters),
                }
                for s in self.storage
            ],
            "workload": {
                "concurrent_sessions": self.workload.concurrent_sessions,
                "mix": {k: getattr(self.workload.mix, k) for k in MIX_KEYS},
                "largest_table_gb": self.workload.largest_table_gb,
                "total_data_gb": self.workload.total_data_gb,
                "growth_gb_per_week": self.workload.growth_gb_per_week,
            },
        }
