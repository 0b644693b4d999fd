"""Parsers of Linux volume layout: LVM `lvs` and /proc/mdstat.

Shapes: lvs(8) (lvm2) prints a heading row whose columns align with the values (text
left-aligned, numbers right-aligned) unless `--noheadings`, where the `-o` field list
gives the order (`--noheading` is taken too), `--nameprefixes` prints LVM2_LV_NAME='root'
fields; Devices reads "/dev/sdb1(0),/dev/sdc1(0)" (PV and first extent);
warnings ("WARNING: …", "Incorrect metadata …") come first on stderr. /proc/mdstat
(drivers/md/md.c, md_seq_show): "md0 : active raid5 sdb1[0] sdc1[1](F)" then a line with
"… 64k chunk" (raid0: "… 512k chunks", raid10: "… 256K chunks 2 near-copies");
sosreport/sos and insights-core hold captures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import meaningful, number, require
from rules.parse.registry import Argv, Garbled, Section, command_with, parser, reads_file

_NOISE = re.compile(
    r"\s*(WARNING|Reloading|Wiping|Configuration|Incorrect|Found|Using|Archiving|Creating"
    r"|Reading|Couldn't|Failed|Skipping|Scan|Device|File descriptor)\b"
)
_FIELDS = {  # lvs -o field names and headings → our names
    "lv_name": "lv",
    "LV": "lv",
    "vg_name": "vg",
    "VG": "vg",
    "lv_path": "path",
    "Path": "path",
    "stripes": "stripes",
    "#Str": "stripes",
    "stripe_size": "stripe",
    "stripesize": "stripe",
    "Stripe": "stripe",
    "devices": "devices",
    "Devices": "devices",
    "lv_attr": "attr",
    "Attr": "attr",
}
_UNITS = {"b": 1 / 1024, "s": 0.5, "k": 1, "m": 1024, "g": 1024**2, "t": 1024**3, "p": 1024**4}


@dataclass(frozen=True)
class LogicalVolume:
    lv: str
    vg: str | None  # None where `-o` asked for vg_uuid, not vg_name
    path: str | None
    stripes: int | None
    stripe_size_kb: int | None  # 0 for a linear LV
    devices: tuple[str, ...]  # PVs, without the "(first extent)" suffix


@parser("lvs", command_with("lvs"), commands=("lvs",))
def lvs(section: Section) -> tuple[LogicalVolume, ...]:
    columns = _noheading_columns(section.argv)
    starts: list[int] | None = None
    rows: list[LogicalVolume] = []
    headed = not any(a.startswith("--nohead") for a in section.argv)  # lvs takes --noheading
    for _offset, line in meaningful(section):
        if _NOISE.match(line):
            continue
        words = line.split()
        if words[0] == "LV" and starts is None and headed:
            columns, starts = _heading(line)
            continue
        if "LVM2_" in line:  # --nameprefixes: LVM2_LV_NAME='root'|LVM2_VG_NAME='rhel'|…
            values: dict[str, str] | None = _prefixed(line)
        else:
            values = _by_position(line, columns, starts) if starts else _by_order(words, columns)
        if values is not None and (row := _volume(values, section.argv)) is not None:
            rows.append(row)
    if not rows and starts is None:
        require(rows, section, "logical volumes")
    return tuple(rows)


_PREFIXED = re.compile(r"LVM2_([A-Z_]{1,40})='([^']{0,4096})'")


def _prefixed(line: str) -> dict[str, str]:
    """`--nameprefixes` fields, by lvs field name (LVM2_LV_NAME → lv_name → lv)."""
    return {_FIELDS.get(k.lower(), k.lower()): v.strip() for k, v in _PREFIXED.findall(line)}


def _noheading_columns(argv: Argv) -> list[str]:
    for i, arg in enumerate(argv[:-1]):
        if arg in ("-o", "--options") and not argv[i + 1].startswith("+"):
            return [_FIELDS.get(f.strip(), f.strip()) for f in argv[i + 1].split(",")]
    return ["lv", "vg", "attr"]


def _heading(line: str) -> tuple[list[str], list[int]]:
    names: list[str] = []
    starts: list[int] = []
    end, previous = -2, ""
    for m in re.finditer(r"\S+", line):
        if names and m.start() == end + 1 and previous in ("LV", "VG", "PV"):
            names[-1] = f"{previous} {m.group()}"  # "LV Tags", "VG UUID": one column
        else:
            names.append(_FIELDS.get(m.group(), m.group()))
            starts.append(m.start())
        end, previous = m.end(), m.group()
    return names, starts


def _by_position(line: str, columns: list[str], starts: list[int]) -> dict[str, str]:
    values: dict[str, str] = {}
    for m in re.finditer(r"\S+", line):
        index = max((i for i, s in enumerate(starts) if s <= m.start()), default=0)
        name = columns[index]
        values[name] = f"{values[name]} {m.group()}" if name in values else m.group()
    return values


def _by_order(words: list[str], columns: list[str]) -> dict[str, str] | None:
    if len(words) == len(columns):
        return dict(zip(columns, words, strict=True))
    if "path" in columns and len(words) == len(columns) - 1:  # hidden LVs have no path
        return dict(zip([c for c in columns if c != "path"], words, strict=True))
    return None


def _volume(values: dict[str, str], argv: Argv) -> LogicalVolume | None:
    lv, vg = values.get("lv"), values.get("vg")
    attr = values.get("attr")
    if not lv or not (vg or values.get("vg_uuid")):  # -o vg_uuid names the VG by UUID only
        return None
    if attr is not None and not re.fullmatch(r"[-a-zA-Z]{4,10}", attr):
        return None
    devices = tuple(re.sub(r"\(\d+\)$", "", d) for d in values.get("devices", "").split(",") if d)
    return LogicalVolume(
        lv=lv,
        vg=vg,
        path=values.get("path"),
        stripes=number(values.get("stripes"), 1 << 16),
        stripe_size_kb=_size_kb(values.get("stripe"), _default_unit(argv)),
        devices=devices,
    )


def _default_unit(argv: Argv) -> str:
    for i, arg in enumerate(argv[:-1]):
        if arg == "--units":
            return argv[i + 1].lower()[:1]
    return "k"


def _size_kb(text: str | None, unit: str) -> int | None:
    found = re.fullmatch(r"<?(\d{1,15})(?:[.,](\d{1,6}))?([bBsSkKmMgGtTpP]?)", (text or "").strip())
    if found is None:
        return None
    value = float(f"{found.group(1)}.{found.group(2) or 0}")
    return int(value * _UNITS.get((found.group(3) or unit).lower(), 1))


@dataclass(frozen=True)
class MdArray:
    name: str  # md0
    state: str  # active, inactive
    level: str | None  # raid0, raid1, raid5, linear; None while inactive
    members: tuple[str, ...]
    failed: tuple[str, ...]  # members marked (F)
    chunk_kb: int | None
    blocks: int | None


_ARRAY = re.compile(r"(?P<name>md\S{0,32}) : (?P<state>active|inactive)(?P<rest>.*)")
_MEMBER = re.compile(r"(?P<dev>[\w/.-]{1,64})\[\d{1,5}\](?P<flags>(?:\([A-Z]\))*)")


@parser("mdstat", reads_file("/proc/mdstat"), commands=("cat",))
def mdstat(section: Section) -> tuple[MdArray, ...]:
    arrays: list[MdArray] = []
    seen_header = False
    for _offset, line in meaningful(section):
        if line.startswith("Personalities"):
            seen_header = True
        elif found := _ARRAY.fullmatch(line.rstrip()):
            arrays.append(_array(found))
        elif arrays and line[0].isspace() and "blocks" in line:
            arrays[-1] = _with_geometry(arrays[-1], line)
    if not arrays and not seen_header:
        raise Garbled("neither a 'Personalities' line nor an md array found", 0)
    return tuple(arrays)


def _array(found: re.Match[str]) -> MdArray:
    words = [w for w in found.group("rest").split() if not w.startswith("(")]
    level = words[0] if words and _MEMBER.fullmatch(words[0]) is None else None
    members = [m for w in words if (m := _MEMBER.fullmatch(w))]
    return MdArray(
        name=found.group("name"),
        state=found.group("state"),
        level=level,
        members=tuple(m.group("dev") for m in members),
        failed=tuple(m.group("dev") for m in members if "(F)" in m.group("flags")),
        chunk_kb=None,
        blocks=None,
    )


def _with_geometry(array: MdArray, line: str) -> MdArray:
    blocks = re.match(r"\s*(\d{1,20}) blocks", line)
    chunk = re.search(r"(\d{1,9})[kK] chunks?", line)  # raid10 prints "512K chunks"
    return MdArray(
        array.name,
        array.state,
        array.level,
        array.members,
        array.failed,
        number(chunk.group(1)) if chunk else None,
        number(blocks.group(1)) if blocks else None,
    )
