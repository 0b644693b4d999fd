"""Parsers of Linux mounts and block devices: findmnt, /proc/mounts, lsblk.

Shapes from util-linux (findmnt(8), lsblk(8) and their tests/expected outputs):
`-P` prints KEY="value" pairs with `\\x20` escapes, `-r` prints raw columns with the
same escapes, `-l` and the default tree print aligned columns (tree drawn with └─ ├─ │
or, under a non-UTF-8 locale, `-i`: `-- |- |`). lsblk before 2.27 appended the kernel
name to a device-mapper NAME: "vg_root-lv_root (dm-0)" (insights-core test_lsblk.py).
/proc/mounts (and /etc/mtab, a link to it on current systems) is fstab(5)-shaped with the
kernel's octal escapes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from rules.parse.columns import by_width, unfill
from rules.parse.linux_text import human_bytes, meaningful, pairs, require, unhex, unoctal
from rules.parse.registry import Argv, Garbled, Section, command_with, parser, reads_file
from rules.parse.unix import Mount

_TREE = "│├└─|`- "
_WORD = re.compile(r"\S+")
_GLUED_OUTPUT = re.compile(r"-[a-np-zA-Z]*o.+")  # -oNAME,SIZE or -bnoNAME
_TREE_ROW = re.compile(r"([\s│├└─|`-]*)(\S+)(?:\s+\((\S+)\))?(.*)")
_ROTATIONAL = {"1": True, "0": False}
MAX_MOUNTS = 100_000  # a JSON document's file systems read at most
_FINDMNT_DEFAULT = ("TARGET", "SOURCE", "FSTYPE", "OPTIONS")


def _options(text: str | None) -> tuple[str, ...]:
    return tuple(o for o in (text or "").split(",") if o)


def _output_columns(argv: Argv, default: tuple[str, ...]) -> tuple[str, ...]:
    """The -o/--output column list of a command line ('+X' appends to the default)."""
    for i, arg in enumerate(argv):
        value = None
        if arg in ("-o", "--output") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--output="):
            value = arg.split("=", 1)[1]
        elif _GLUED_OUTPUT.fullmatch(arg):
            value = arg[arg.index("o") + 1 :]
        if value:
            names = tuple(v.upper() for v in value.lstrip("+").split(",") if v)
            return default + names if value.startswith("+") else names
    return default


def _columns(line: str, names: tuple[str, ...], starts: list[int] | None) -> dict[str, str]:
    """One aligned (or raw) row as {column: text}; a value with spaces is re-joined
    using the header's column starts, and tree drawing before the first value dropped."""
    tokens = [(m.start(), m.group()) for m in _WORD.finditer(line)]
    while tokens and all(c in _TREE for c in tokens[0][1]):
        tokens.pop(0)
    if not tokens:
        return {}
    first_at, first = tokens[0]
    stripped = first.lstrip(_TREE)
    tokens[0] = (first_at + len(first) - len(stripped), stripped)
    if len(tokens) <= len(names) or starts is None:
        return dict(zip(names, (t for _, t in tokens), strict=False))
    out: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    for at, text in tokens:
        column = max((i for i, s in enumerate(starts) if s <= at), default=0)
        name = names[min(column, len(names) - 1)]
        begin = spans.get(name, (at, at))[0]
        spans[name] = (begin, at + len(text))
    for name, (begin, end) in spans.items():
        out[name] = line[begin:end]
    return out


def _header(line: str, first: str) -> tuple[tuple[str, ...], list[int]] | None:
    words = line.split()
    if not words or words[0] != first:
        return None
    return tuple(words), [m.start() for m in _WORD.finditer(line)]


@parser("findmnt", command_with("findmnt"), commands=("findmnt",))
def findmnt(section: Section) -> tuple[Mount, ...]:
    if any(line.lstrip().startswith("{") for line in section.lines[:3]):
        return _findmnt_json(section)
    rows: list[Mount] = []
    names, starts = _output_columns(section.argv, _FINDMNT_DEFAULT), None
    for _offset, line in meaningful(section):
        if 'TARGET="' in line:
            values = pairs(line)
        elif (head := _header(line, "TARGET")) is not None:
            (names, starts) = head
            continue
        else:
            values = {k: unhex(v) for k, v in _columns(line, names, starts).items()}
        if values.get("TARGET", "").startswith("/"):
            rows.append(_mount_of(values))
    require(rows, section, "mount rows")
    return tuple(rows)


def _findmnt_json(section: Section) -> tuple[Mount, ...]:
    """`findmnt -J`: {"filesystems": [{target, source, fstype, options, children}]}."""
    try:
        document = json.loads("\n".join(section.lines))
    except (ValueError, RecursionError) as exc:
        raise Garbled(f"not findmnt's JSON: {str(exc)[:80]}", 0) from None
    rows: list[Mount] = []
    todo = list(document.get("filesystems", ())) if isinstance(document, dict) else []
    todo.reverse()  # a stack, so the tree is read in its printed order
    while todo and len(rows) < MAX_MOUNTS:
        item = todo.pop()
        if not isinstance(item, dict):
            continue
        values = {k.upper(): str(v) for k, v in item.items() if isinstance(v, str | int)}
        if values.get("TARGET", "").startswith("/"):
            rows.append(_mount_of(values))
        children = item.get("children")
        todo.extend(reversed(children) if isinstance(children, list) else ())
    require(rows, section, "file systems in findmnt's JSON")
    return tuple(rows)


def _mount_of(values: dict[str, str]) -> Mount:
    size = values.get("SIZE")
    return Mount(
        target=values["TARGET"],
        source=values.get("SOURCE", ""),
        fstype=values.get("FSTYPE") or None,
        options=_options(values.get("OPTIONS")),
        size_bytes=human_bytes(size) if size else None,
    )


_PROC_MOUNTS, _MTAB = reads_file("/proc/*mounts"), reads_file("/etc/mtab")


def _mount_table_file(argv: Argv) -> bool:
    """/proc/mounts, /proc/self/mounts, or /etc/mtab (the same lines, or a link to them)."""
    return _PROC_MOUNTS(argv) or _MTAB(argv)


@parser("proc_mounts", _mount_table_file, commands=("cat",))
def proc_mounts(section: Section) -> tuple[Mount, ...]:
    rows: list[Mount] = []
    for _offset, line in meaningful(section):
        words = line.split()
        if len(words) >= 4 and words[1].startswith("/"):
            target, source = unoctal(words[1]), unoctal(words[0])
            rows.append(Mount(target, source, words[2], _options(words[3])))
    require(rows, section, "mount table lines")
    return tuple(rows)


@dataclass(frozen=True)
class BlockDevice:
    name: str
    kname: str | None  # kernel name (dm-0) where the output gives it
    parent: str | None  # PKNAME, or the device above it in the tree
    type: str | None  # disk, part, lvm, raid0, mpath, crypt, rom, loop
    size_bytes: int | None
    rotational: bool | None
    mountpoint: str | None
    fstype: str | None
    model: str | None
    queue: dict[str, str] = field(default_factory=dict)  # ROTA, SCHED, RA… by sysfs name
    path: str | None = None  # the PATH column (or -p's NAME): /dev/mapper/vg-lv
    label: str | None = None  # LABEL (an installer disc's: RHEL-8-0-0-BaseOS-x86_64)
    # Every mount point, the first (`mountpoint`) and MOUNTPOINTS' further lines (btrfs
    # subvolumes, bind mounts): what `mountpoint` says, extended, so not compared.
    mountpoints: tuple[str, ...] = field(default=(), compare=False)


_LSBLK_DEFAULT = ("NAME", "MAJ:MIN", "RM", "SIZE", "RO", "TYPE", "MOUNTPOINT")


@parser("lsblk", command_with("lsblk"), commands=("lsblk",))
def lsblk(section: Section) -> tuple[BlockDevice, ...]:
    rows: list[BlockDevice] = []
    names = _output_columns(section.argv, _LSBLK_DEFAULT)
    spans: list[tuple[int, int]] | None = None  # the header's columns, where it was pasted
    stack: list[tuple[int, str]] = []  # (depth, name) of the tree path to this line
    for _offset, line in meaningful(section):
        if 'NAME="' in line:
            rows.append(_device(pairs(line), None))
        elif (head := _header(line, "NAME")) is not None:
            names = head[0]
            spans = [(m.start(), m.end()) for m in _WORD.finditer(line)]
        elif (more := _further_mount(line)) is not None:
            if rows and rows[-1].mountpoints:
                rows[-1] = replace(rows[-1], mountpoints=(*rows[-1].mountpoints, more))
        elif (row := _tree_row(by_width(line), names, stack, spans)) is not None:
            rows.append(row)
    require(rows, section, "block devices")
    return tuple(rows)


def _further_mount(line: str) -> str | None:
    """A further MOUNTPOINTS line of the device above (a btrfs subvolume, a bind mount):
    a lone path after blanks or the tree's bars, never after a branch (├─, |-, `-)."""
    text = line.rstrip()
    path = text.lstrip(" \t\f\v│|")
    return path if len(path) < len(text) and path.startswith("/") else None


def _tree_row(
    line: str,
    names: tuple[str, ...],
    stack: list[tuple[int, str]],
    spans: list[tuple[int, int]] | None,
) -> BlockDevice | None:
    found = _TREE_ROW.match(line)
    if found is None or found.group(2).endswith(":"):
        return None  # "lsblk: dm-0: failed to get device path" and other messages
    depth = len(found.group(1)) // 2
    name = _short(found.group(2))  # `lsblk -p` names /dev/sda2: the tree knows sda2
    while stack and stack[-1][0] >= depth:
        stack.pop()
    parent = stack[-1][1] if stack else None
    stack.append((depth, name))
    rest = found.group(4).split()
    if spans is not None and len(spans) == len(names) > 1 and len(rest) != len(names) - 1:
        # A blank cell or a cell with blanks: the header's columns say which is which.
        values = _aligned(line, found.start(4), names, spans)
    else:  # one word a column (deep trees push the words off their columns)
        rest = found.group(4).split(None, max(0, len(names) - 2))
        values = dict(zip(names[1:], rest, strict=False))
    values["NAME"] = found.group(2)
    if found.group(3):
        values.setdefault("KNAME", found.group(3))
    return _device({column: unfill(text) for column, text in values.items()}, parent)


def _aligned(
    line: str, start: int, names: tuple[str, ...], spans: list[tuple[int, int]]
) -> dict[str, str]:
    """The cells after NAME, each given to the header column it overlaps (lsblk aligns
    text left and numbers right, and leaves a cell blank: STATE of a partition), or to
    the nearest one; the words of one cell (a mount point with blanks) joined again."""
    cells: dict[str, tuple[int, int]] = {}
    for m in _WORD.finditer(line, start):
        begin, end = m.span()
        name = names[_column(spans, begin, end)]
        cells[name] = (cells[name][0], end) if name in cells else (begin, end)
    return {name: line[b:e] for name, (b, e) in cells.items()}


def _column(spans: list[tuple[int, int]], begin: int, end: int) -> int:
    """The column after NAME the cell overlaps with the nearest centre, else the nearest."""
    best, best_key = 1, (True, 0)
    for i in range(1, len(spans)):
        left, right = spans[i]
        key = (max(left, begin) >= min(right, end), abs(left + right - begin - end))
        if i == 1 or key < best_key:  # no overlap sorts last; the first of equals wins
            best, best_key = i, key
    return best


# lsblk columns that are a disk's queue attributes, by their /sys/block/X/queue/ names.
QUEUE_COLUMNS = {
    "ROTA": "rotational", "SCHED": "scheduler", "RA": "read_ahead_kb",
    "MIN-IO": "minimum_io_size", "OPT-IO": "optimal_io_size", "PHY-SEC": "physical_block_size",
    "LOG-SEC": "logical_block_size", "RQ-SIZE": "nr_requests",
}  # fmt: skip


def _device(values: dict[str, str], parent: str | None) -> BlockDevice:
    rota = values.get("ROTA")
    queue = {
        attr: values[column].strip()
        for column, attr in QUEUE_COLUMNS.items()
        if values.get(column, "").strip() not in ("", "-")
    }
    mountpoint = values.get("MOUNTPOINT", values.get("MOUNTPOINTS", "")).strip()
    name = values.get("NAME", "")
    return BlockDevice(
        name=_short(name),
        kname=_short(values.get("KNAME", "")) or None,
        parent=_short(values.get("PKNAME", "")) or parent,
        type=values.get("TYPE") or None,
        size_bytes=human_bytes(values.get("SIZE")),
        rotational=_ROTATIONAL.get(rota.strip()) if rota else None,
        mountpoint=mountpoint or None,
        fstype=values.get("FSTYPE") or None,
        model=(values.get("MODEL") or "").strip() or None,
        queue=queue,
        path=values.get("PATH") or (name if name.startswith("/dev/") else None),
        label=(values.get("LABEL") or "").strip() or None,
        mountpoints=(mountpoint,) if mountpoint else (),
    )


def _short(name: str) -> str:
    """A device's name as lsblk prints it without -p: /dev/mapper/vg-lv → vg-lv."""
    return name.rsplit("/", 1)[-1] if name.startswith("/dev/") else name
