"""ZFS data sets: `zfs list` and `zfs get` (Solaris 10/11, illumos; OpenZFS prints the same).

Sources: the zfs(8) manual page of illumos (EXAMPLES: `zfs list`, `zfs get all`, `zfs get
-H -o value`, `zfs get -r -s local -o name,property,value`); real captures in
tests/fixtures/parse/solaris/ (Solaris 11.3 from an ansible issue, OpenSolaris on EC2,
OmniOS and Oxide Helios from their issue trackers, ohai's `zfs get -p -H all`).

`zfs list` prints a header of upper-case column names (NAME USED AVAIL REFER MOUNTPOINT by
default; `-o` picks others, RECSIZE for recordsize) and one row a data set; `-H` drops the
header and separates fields by tabs, `-p` prints exact bytes. `zfs get` prints NAME
PROPERTY VALUE SOURCE (a VALUE may hold blanks: a creation date; a SOURCE may be
"inherited from rpool"), or with `-H -o value` the values alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, require
from rules.parse.registry import Argv, Garbled, Section, command, parser

# A data set, snapshot (@) or bookmark (#) name: ZFS allows letters, digits and _ - : . /.
DATASET = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/@#%+-]{0,255}")
# Header words of `zfs list` → property names (the column names ZFS prints for -o).
LIST_COLUMNS = {"AVAIL": "available", "REFER": "referenced", "RECSIZE": "recordsize"}
LIST_DEFAULT = ("name", "used", "available", "referenced", "mountpoint")
GET_DEFAULT = ("name", "property", "value", "source")
_SOURCES = frozenset({"-", "default", "local", "temporary", "received"})
_PROPERTY = re.compile(r"[a-z0-9_:.@-]{1,64}")
_PROPERTY_ALIASES = {"avail": "available", "refer": "referenced", "recsize": "recordsize"}


def getopt(argv: Argv, takes: str) -> tuple[set[str], dict[str, str], list[str]]:
    """(flags, option values, operands) of a getopt-style argument list: `-Hpo value`,
    `-o name,used`, `-oname`; `takes` names the letters that take a value."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    operands: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        for j, letter in enumerate(arg[1:], start=1):
            if letter not in takes:
                flags.add(letter)
                continue
            rest = arg[j + 1 :]
            if rest:
                values[letter] = rest
            elif i < len(args):
                values[letter], i = args[i], i + 1
            break
    return flags, values, operands


def property_names(text: str) -> tuple[str, ...]:
    """'name,used,avail' (an -o list) → the property names, aliases spelt out."""
    names = [p.strip().lower() for p in text.split(",") if p.strip()]
    return tuple(_PROPERTY_ALIASES.get(n, n) for n in names)


def header_names(words: list[str]) -> tuple[str, ...] | None:
    """A `zfs list`/`zpool list` header's words as property names, or None when the line
    is not a header (every word upper case, NAME first)."""
    if not words or words[0] != "NAME" or not all(w.isupper() for w in words):
        return None
    return tuple(LIST_COLUMNS.get(w, w.lower()) for w in words)


def split_row(line: str, count: int, tabbed: bool) -> list[str]:
    """A row's fields: by tabs when -H printed them, else by blanks with the last field
    keeping its own (a mount point may hold blanks)."""
    if tabbed and "\t" in line:
        return [f.strip() for f in line.strip("\n").split("\t")]
    return line.split(None, max(0, count - 1))


# ---------------------------------------------------------------------------------------
# zfs list


@dataclass(frozen=True)
class ZfsDataset:
    name: str  # pool/fs, pool/vol, pool/fs@snap
    mountpoint: str | None  # '/export', 'legacy', 'none'; None: '-' (a volume) or not listed
    used_bytes: int | None = None
    available_bytes: int | None = None
    recordsize_bytes: int | None = None
    mounted: bool | None = None  # where -o asked for the MOUNTED column


def _dataset(fields: dict[str, str]) -> ZfsDataset | None:
    name = fields.get("name", "")
    if not DATASET.fullmatch(name):
        return None
    mountpoint = fields.get("mountpoint")
    mounted = fields.get("mounted")
    return ZfsDataset(
        name,
        None if mountpoint in (None, "-") else mountpoint,
        human_bytes(fields.get("used")),
        human_bytes(fields.get("available")),
        human_bytes(fields.get("recordsize")),
        None if mounted is None else mounted == "yes",
    )


@parser("zfs_list", command("zfs", "list"), commands=("zfs",))
def zfs_list(section: Section) -> tuple[ZfsDataset, ...]:
    flags, values, _ = getopt(section.argv[2:], "odsSt")
    columns = property_names(values["o"]) if "o" in values else LIST_DEFAULT
    tabbed = "H" in flags
    rows: list[ZfsDataset] = []
    for _offset, line in meaningful(section):
        header = None if tabbed else header_names(line.split())
        if header is not None:
            columns = header
            continue
        fields = split_row(line, len(columns), tabbed)
        if len(fields) == len(columns) and (
            row := _dataset(dict(zip(columns, fields, strict=True)))
        ):
            rows.append(row)
    require(rows, section, "zfs list rows (NAME USED AVAIL REFER MOUNTPOINT)")
    return tuple(rows)


# ---------------------------------------------------------------------------------------
# zfs get


@dataclass(frozen=True)
class ZfsProperty:
    dataset: str  # '' where `-o value` printed values alone for several data sets
    property: str
    value: str
    source: str | None  # 'local', 'default', 'inherited from rpool'; None: not printed


def _get_fields(words: list[str], columns: tuple[str, ...]) -> dict[str, str] | None:
    """A `zfs get` row read from its ends: the name and property lead, the source (one
    word, or 'inherited from X') ends it, the value is what lies between."""
    fields: dict[str, str] = {}
    rest = list(words)
    for key in ("name", "property"):
        if key in columns:
            if not rest:
                return None
            fields[key] = rest.pop(0)
    if "source" in columns:
        if len(rest) >= 3 and rest[-3:-1] == ["inherited", "from"]:
            fields["source"], rest = " ".join(rest[-3:]), rest[:-3]
        elif rest and rest[-1] in _SOURCES:
            fields["source"] = rest.pop()
        else:
            return None
    fields["value"] = " ".join(rest)
    return fields


def _property(fields: dict[str, str], single: tuple[str, str]) -> ZfsProperty | None:
    dataset = fields.get("name", single[0])
    dataset = dataset if DATASET.fullmatch(dataset) else ""  # `zfs get … /zone`: a path
    prop = fields.get("property", single[1]).lower()
    if ("name" in fields and not dataset) or not _PROPERTY.fullmatch(prop):
        return None
    return ZfsProperty(dataset, prop, fields.get("value", ""), fields.get("source"))


def _get_row(line: str, columns: tuple[str, ...], tabbed: bool) -> dict[str, str] | None:
    if tabbed and "\t" in line:
        words = [w.strip() for w in line.split("\t")]
        return dict(zip(columns, words, strict=True)) if len(words) == len(columns) else None
    return _get_fields(line.split(), columns)


@parser("zfs_get", command("zfs", "get"), commands=("zfs",))
def zfs_get(section: Section) -> tuple[ZfsProperty, ...]:
    flags, values, operands = getopt(section.argv[2:], "dost")
    columns = property_names(values["o"]) if "o" in values else GET_DEFAULT
    columns = GET_DEFAULT if columns == ("all",) else columns
    asked = property_names(operands[0]) if operands else ()
    single = (operands[1] if len(operands) == 2 else "", asked[0] if len(asked) == 1 else "")
    rows: list[ZfsProperty] = []
    for _offset, line in meaningful(section):
        words = line.split()
        if "H" not in flags and words[0] == "NAME" and all(w.isupper() for w in words):
            columns = tuple(w.lower() for w in words)
            continue
        fields = _get_row(line, columns, "H" in flags)
        if fields is not None and (row := _property(fields, single)):
            rows.append(row)
    if not rows:
        offset = next((i for i, _ in meaningful(section)), 0)
        raise Garbled("no zfs get rows (NAME PROPERTY VALUE SOURCE) in this output", offset)
    return tuple(rows)


def recordsize_kb(value: str) -> int | None:
    """'128K' or 131072 (`-p`) → 128; None for another text."""
    size = human_bytes(value)
    return None if size is None or size < 512 else size // 1024
