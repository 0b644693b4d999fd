"""Typed records a rule attaches to a recommendation for the renderer of its file.

Each record checks itself when the rule builds it, so a renderer never meets a malformed
one and a rule bug fails at the rule, not half-way through writing a file. `as_extra`
gives the record as the flat strings the contract's result carries in `extra`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# Tokens a generated shell script may carry unquoted in a comment or pass to a command.
SHELL_TOKEN = re.compile(r"[A-Za-z0-9_.:%/=-]+")
# A Windows drive or UNC path as the contract allows them (SPD Server runs on Windows too);
# no Windows path ever reaches a shell script.
WINDOWS_PATH = re.compile(r"(?:[A-Za-z]:|\\\\)[A-Za-z0-9_.$\\-]*")


def plain_path(path: str) -> bool:
    return bool(SHELL_TOKEN.fullmatch(path) or WINDOWS_PATH.fullmatch(path))


TUNABLE_NAME = re.compile(r"[A-Za-z0-9_%]{1,64}")
TUNABLE_VALUE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# A kernel name, or nvme*: every NVMe namespace, whose kernel names may change at boot.
DEVICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}|nvme\*")


class PayloadError(ValueError):
    """A payload that breaks its own shape: a rule bug, never bad input."""


@dataclass(frozen=True)
class Tunable:
    """An OS tunable changed by a command such as `ioo -p -o NAME=VALUE`."""

    command: Literal["ioo", "vmo"]
    default: str

    def __post_init__(self) -> None:
        if self.command not in ("ioo", "vmo") or not TUNABLE_VALUE.fullmatch(self.default):
            raise PayloadError(f"bad tunable payload {self!r}")

    def as_extra(self) -> dict[str, str]:
        # "restricted" stays in the contract and is always "no": a tunable the vendor marks
        # as not for end users is never changed, the rules emit a read-only Check instead.
        return {"command": self.command, "default": self.default, "restricted": "no"}


LINUX_OPTION = re.compile(r"[A-Za-z0-9_.]{1,64}")
LINUX_VALUE = re.compile(r"[A-Za-z0-9_.,>:-]{1,64}")  # '>4096' is tuned's 'at least'
# Where a value lives without tuned: under /proc/sys, /sys/kernel or /sys/block/DEV/queue;
# '{dev}' stands for each device, '{cpu}' for each CPU.
LINUX_PATH = re.compile(r"/(?:proc/sys|sys)/[A-Za-z0-9_./{}-]{1,128}")


@dataclass(frozen=True)
class LinuxTunable:
    """A Linux setting, carried by tuned.conf and applied by linux_tuning.sh.

    `plugin` is tuned's plugin (its section: [sysctl], [vm], [disk], [cpu]); `option` is the
    option in that section ('vm.swappiness', 'transparent_hugepages', 'readahead',
    'elevator', 'governor'); the recommendation's value is written as tuned writes it.
    `devices` names the block devices a [disk] setting is for (kernel names: sdb, nvme0n1,
    dm-3); `path` is where the script reads and writes it without tuned; `default` is the
    distribution's value where known, '' otherwise.
    """

    plugin: Literal["sysctl", "vm", "disk", "cpu"]
    option: str
    path: str
    devices: tuple[str, ...] = ()
    default: str = ""
    # Values to fall back on, in order, where the kernel does not offer the first (an I/O
    # scheduler: /sys/block/DEV/queue/scheduler lists what it offers).
    alternatives: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        ok = (
            self.plugin in ("sysctl", "vm", "disk", "cpu")
            and LINUX_OPTION.fullmatch(self.option)
            and LINUX_PATH.fullmatch(self.path)
            and ".." not in self.path
            and all(DEVICE_NAME.fullmatch(d) for d in self.devices)
            and (self.plugin == "disk") == bool(self.devices)
            and (not self.default or LINUX_VALUE.fullmatch(self.default))
            and all(LINUX_VALUE.fullmatch(a) for a in self.alternatives)
        )
        if not ok:
            raise PayloadError(f"bad Linux tunable {self!r}")

    def as_extra(self) -> dict[str, str]:
        extra = {"command": "tuned", "plugin": self.plugin, "option": self.option}
        extra |= {"path": self.path, "default": self.default}
        if self.alternatives:
            extra["alternatives"] = " ".join(self.alternatives)
        return extra | ({"devices": " ".join(self.devices)} if self.devices else {})


@dataclass(frozen=True)
class Check:
    """A read-only command the script runs, and what a healthy answer looks like."""

    argv: tuple[str, ...]
    expect: str

    def __post_init__(self) -> None:
        if not self.argv or not all(SHELL_TOKEN.fullmatch(t) for t in self.argv):
            raise PayloadError(f"check argv must be tokens of [A-Za-z0-9_.:%/=-]: {self.argv}")

    def as_extra(self) -> dict[str, str]:
        return {"command": "check", "argv": " ".join(self.argv), "expect": self.expect}


@dataclass(frozen=True)
class DiskCheck:
    """Read-only attributes of every disk behind a logical volume: the script lists the
    disks with `lslv -l LV` and runs `lsattr -El DISK -a ATTR` on each."""

    lv: str
    attributes: tuple[str, ...]
    expect: str

    def __post_init__(self) -> None:
        names = all(TUNABLE_NAME.fullmatch(a) for a in self.attributes)
        if not self.attributes or not names or not DEVICE_NAME.fullmatch(self.lv):
            raise PayloadError(f"bad disk check {self!r}")

    def as_extra(self) -> dict[str, str]:
        return {
            "command": "check",
            "argv": f"lslv -l {self.lv}",
            "expect": self.expect,
            "disk_attributes": " ".join(self.attributes),
        }


@dataclass(frozen=True)
class DioMounts:
    """File systems mounted a second time with `mount -o dio` (file system, mount point)."""

    mounts: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        paths = [p for pair in self.mounts for p in pair]
        if not self.mounts or not all(SHELL_TOKEN.fullmatch(p) and p.startswith("/")
                                      for p in paths):  # fmt: skip
            raise PayloadError(f"dio mounts must be absolute plain paths: {self.mounts}")

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(point for _, point in self.mounts)

    def as_extra(self) -> dict[str, str]:
        return {
            "directories": " ".join(self.points),
            "mounts": " ".join(f"{fs}={point}" for fs, point in self.mounts),
        }


@dataclass(frozen=True)
class Watch:
    """What to watch by hand and with which tool (free text for a person, never run)."""

    tool: str

    def as_extra(self) -> dict[str, str]:
        return {"command": self.tool}


@dataclass(frozen=True)
class CodeExample:
    """SAS code showing the advice, and what to avoid."""

    code: str
    avoid: str = ""

    def as_extra(self) -> dict[str, str]:
        return {"example": self.code, **({"avoid": self.avoid} if self.avoid else {})}


@dataclass(frozen=True)
class Directories:
    """Directories that must exist before the setting works (SPD Server checks at start-up)."""

    paths: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.paths or not all(plain_path(p) for p in self.paths):
            raise PayloadError(f"directories must be plain paths: {self.paths}")

    def as_extra(self) -> dict[str, str]:
        return {"directories": " ".join(self.paths)}


@dataclass(frozen=True)
class Domain:
    """An SPD Server domain for libnames.parm; the renderer writes its LIBNAME line."""

    name: str
    pathname: str
    keyword: Literal["OPTIONS", "ROPTIONS"]
    datapath: tuple[str, ...] = ()
    indexpath: tuple[str, ...] = ()
    metapath: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        paths = (self.pathname, *self.datapath, *self.indexpath, *self.metapath)
        if not re.fullmatch(r"[A-Z][A-Z0-9_]{0,7}", self.name) or not all(
            plain_path(p) for p in paths
        ):
            raise PayloadError(f"bad domain {self!r}")

    @property
    def directories(self) -> tuple[str, ...]:
        paths = (self.pathname, *self.datapath, *self.indexpath, *self.metapath)
        return tuple(dict.fromkeys(paths))

    def as_extra(self) -> dict[str, str]:
        return {"directories": " ".join(self.directories)}


@dataclass(frozen=True)
class PathCount:
    """How many of something exist against how many the rule asks for."""

    have: int
    needed: int

    def as_extra(self) -> dict[str, str]:
        return {"have": str(self.have), "needed": str(self.needed)}


Payload = (
    Tunable
    | LinuxTunable
    | Check
    | DiskCheck
    | DioMounts
    | Watch
    | CodeExample
    | Directories
    | Domain
    | PathCount
)
