"""Parsers of what Linux storage sits on: `nvme list`, `multipath -ll`, `xfs_info`.

Shapes: nvme-cli's `nvme list` in its header generations (tests/fixtures/parse/linux/
nvme_list_*: the 1.x "Version" and "Namepace" columns, the 2.x "Generic" column, hex
namespace ids, `4 KiB` formats, columns pushed right by a long serial), the Node column
first and the Usage column "USED UNIT / SIZE UNIT" in decimal units. multipath-tools'
`multipath -l`/`-ll`/`-v4 -ll`: a map line "NAME (WWID) dm-N VENDOR,PRODUCT" (or "WWID
dm-N …" without a friendly name), `size=…`, then path lines "H:C:T:L sdX MAJ:MIN state"
under `|-+- policy=` groups; `-v4` adds a paths list and log lines first. xfsprogs'
`xfs_info`: `meta-data=DEV … agcount=N`, `data = bsize=B …`, `sunit=S swidth=W blks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, number, require
from rules.parse.registry import Garbled, Section, command, command_with, parser

_DECIMAL = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15}
_NODE = re.compile(r"(?:/dev/)?nvme\d{1,4}n\d{1,6}\s")
_USAGE = re.compile(
    r"(?<![\d.])(\d{1,9}(?:\.\d{1,4})?)\s{1,4}([KMGTP]?B)\s{1,4}/"
    r"\s{1,6}(\d{1,9}(?:\.\d{1,4})?)\s{1,4}([KMGTP]?B)"
)


@dataclass(frozen=True)
class NvmeNamespace:
    node: str  # nvme0n1
    model: str | None
    size_bytes: int | None  # the namespace's size as nvme list prints it (decimal units)


@parser("nvme_list", command("nvme", "list"), commands=("nvme",))
def nvme_list(section: Section) -> tuple[NvmeNamespace, ...]:
    rows: list[NvmeNamespace] = []
    model_at: tuple[int, int] | None = None
    for _offset, line in meaningful(section):
        if line.startswith("Node"):
            model_at = _column(line, "Model")
            continue
        if not _NODE.match(line):
            continue
        node = line.split(None, 1)[0].rsplit("/", 1)[-1]
        usage = _USAGE.search(line)
        size = None
        if usage is not None:
            size = int(float(usage.group(3)) * _DECIMAL[usage.group(4)])
        model = line[model_at[0] : model_at[1]].strip() or None if model_at else None
        rows.append(NvmeNamespace(node, model, size))
    require(rows, section, "/dev/nvme namespace rows")
    return tuple(rows)


def _column(header: str, name: str) -> tuple[int, int] | None:
    """Where a header column starts and where the next one starts."""
    found = re.search(rf"\b{name}\b", header)
    if found is None:
        return None
    following = re.search(r"\s\S", header[found.end() :])
    end = found.end() + following.end() - 1 if following else len(header)
    return found.start(), end


@dataclass(frozen=True)
class MultipathMap:
    name: str  # mpatha, or the WWID where no friendly name is set
    wwid: str | None
    dm: str | None  # dm-2
    size_bytes: int | None
    paths: tuple[str, ...]  # sdc, sdi, …


_MAP = re.compile(
    r"(?P<name>[\w.:-]{1,128})(?: \((?P<wwid>[\w.:-]{1,128})\))?\s(?P<dm>dm-\d{1,6})\b.*"
)
_PATH = re.compile(
    r"[\s|`+-]{0,40}\d{1,5}:\d{1,5}:\d{1,5}:\d{1,9}\s+(?P<dev>[a-z]{1,8}\d{0,4})\s.*"
)
_SIZE = re.compile(r"size=(\S{1,20})")


@parser("multipath", command_with("multipath"), commands=("multipath",))
def multipath(section: Section) -> tuple[MultipathMap, ...]:
    maps: list[MultipathMap] = []
    paths: list[str] = []
    for _offset, line in meaningful(section):
        if found := _MAP.fullmatch(line.rstrip()):
            _close(maps, paths)
            paths = []
            name, wwid = found.group("name"), found.group("wwid")
            maps.append(MultipathMap(name, wwid, found.group("dm"), None, ()))
        elif maps and (found := _PATH.fullmatch(line.rstrip())):
            paths.append(found.group("dev"))
        elif maps and (size := _SIZE.match(line.strip())):
            last = maps[-1]
            maps[-1] = MultipathMap(last.name, last.wwid, last.dm, human_bytes(size.group(1)), ())
    _close(maps, paths)
    if not maps and not any("paths list" in line for line in section.lines):
        require(maps, section, "multipath maps")
    return tuple(maps)


def _close(maps: list[MultipathMap], paths: list[str]) -> None:
    if maps and paths:
        last = maps[-1]
        maps[-1] = MultipathMap(last.name, last.wwid, last.dm, last.size_bytes, tuple(paths))


@dataclass(frozen=True)
class XfsInfo:
    device: str | None  # what meta-data= names (a device, or the mount point asked)
    agcount: int | None
    block_bytes: int | None  # data bsize
    sunit_blocks: int | None  # stripe unit, in file system blocks
    swidth_blocks: int | None

    @property
    def stripe_kb(self) -> int | None:
        """The stripe unit in KB (sunit × bsize), None where none is set."""
        if not self.sunit_blocks or not self.block_bytes:
            return None
        return self.sunit_blocks * self.block_bytes // 1024


_META = re.compile(r"meta-data=(\S{1,4096})")
_KEY = re.compile(r"\b(agcount|bsize|sunit|swidth)=(\d{1,12})")


@parser("xfs_info", command_with("xfs_info"), commands=("xfs_info",))
def xfs_info(section: Section) -> XfsInfo:
    device = None
    values: dict[str, int | None] = {}
    section_name = ""
    for _offset, line in meaningful(section):
        head = line.split("=", 1)[0].strip()
        section_name = head or section_name  # "data", "log": a blank name continues one
        if found := _META.match(line.strip()):
            device = found.group(1)
        if section_name not in ("meta-data", "data"):
            continue
        for key, value in _KEY.findall(line):
            values.setdefault(key, number(value))
    if device is None and not values:
        raise Garbled("no meta-data= or data = lines of xfs_info", 0)
    return XfsInfo(
        device,
        values.get("agcount"),
        values.get("bsize"),
        values.get("sunit"),
        values.get("swidth"),
    )
