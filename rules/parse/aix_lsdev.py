"""AIX lsdev parsers: `lsdev -C[c CLASS]` in its default columns and in any `-F` format.

Sources: the IBM AIX 7.2 command reference (lsdev); real captures in
tests/fixtures/parse/aix (disks and processors from the GLPI agent's samples, bond-huang's
and Andy0583's AIX notes, chef/ohai, ansible's GCC farm data, an AIX 7.2 blog post).
The default columns are `name state location description` (a virtual device has no
location). `-F FORMAT` prints the named fields joined by the format's own separators:
`-F name`, `-F 'name:description'`, `-F 'name:type:description'` (a vendor type such as
`IBM,l-lan` holds a comma, a description may hold anything, so it is the last field and
takes the rest of the line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.aix_devices import nothing_found
from rules.parse.registry import Argv, Match, Section, parser

_STATES = frozenset({"Available", "Defined", "Stopped", "Unknown"})
# lsdev prints the state in the locale's words: French (an admin's Unix2Aix memo, in the
# corpus) "Disponible" and "Défini". A state word of another locale is still a row when a
# location code follows it; its state is then not known (None).
_LOCALIZED = {"Disponible": "Available", "Défini": "Defined"}
_NAME = re.compile(r"[A-Za-z][\w.-]{0,63}")
# A location code: 00-00, 02-08-02, C2-T1-01, 05-08-00-3,0 (never a plain word or number).
_LOCATION = re.compile(r"[0-9A-Za-z]{1,8}(?:-[0-9A-Za-z,]{1,16}){1,8}")
# What marks a disk or adapter as reached over Fibre Channel: the words themselves, or the
# machine types of IBM's FC storage (SVC 2145, Storwize/FlashSystem 2076, DS8000 2107,
# XIV 2810, DS4000 1814/DS4K). A VIOS virtual SCSI disk is not FC to the LPAR.
_FC = re.compile(
    r"\bFC\b|\bFCP\b|Fibre|\b(?:2145|2076|2107|2810|1814|1750)\b|DS4K|DS8K|XIV|SAN Volume",
    re.IGNORECASE,
)
_FIELD = re.compile(r"[A-Za-z_]{1,32}")
MAX_FIELDS = 16  # lsdev has 12 printable fields; more is not its output


@dataclass(frozen=True)
class DeviceRow:
    name: str
    state: str | None  # Available / Defined; None where the format does not print it
    location: str | None  # None for virtual devices printed without one
    description: str
    fibre_channel: bool  # a hint from the description, see _FC


@dataclass(frozen=True)
class Devices:
    """`lsdev -Cc CLASS` (or `lsdev -C`): one row per device."""

    device_class: str | None
    rows: tuple[DeviceRow, ...]

    @property
    def available(self) -> tuple[DeviceRow, ...]:
        return tuple(r for r in self.rows if r.state in (None, "Available"))


def lsdev_class(argv: Argv) -> str | None:
    """The -c class of an lsdev command line (`-Cc disk`, `-C -c disk`, `-c disk`)."""
    for i, arg in enumerate(argv[1:], 1):
        if arg.startswith("-") and "c" in arg[1:]:
            glued = arg[arg.index("c", 1) + 1 :]
            return glued or (argv[i + 1] if i + 1 < len(argv) else None)
    return None


def lsdev_format(argv: Argv) -> tuple[list[str], str] | None:
    """The fields and separator of `-F FORMAT` ('name:description' → ([name,
    description], ':')); None without -F. A blank separator splits on white space."""
    for i, arg in enumerate(argv[1:], 1):
        if arg == "-F" and i + 1 < len(argv):
            text = argv[i + 1]
        elif arg.startswith("-F") and len(arg) > 2:
            text = arg[2:]
        else:
            continue
        fields = _FIELD.findall(text)[:MAX_FIELDS]
        between = text.strip()[len(fields[0]) :] if fields else ""
        separator = between[:1] if between[:1] not in ("", " ", "\t") else " "
        return fields, separator
    return None


def _fc(description: str) -> bool:
    return bool(_FC.search(description)) and "virtual scsi" not in description.lower()


def device_row(line: str) -> DeviceRow | None:
    """A row of the default columns: name state [location] description."""
    words = line.split()
    if not words or not _NAME.fullmatch(words[0]):
        return None
    if len(words) == 1:
        return DeviceRow(words[0], None, None, "", False)
    state: str | None = _LOCALIZED.get(words[1], words[1])
    if state not in _STATES:
        if len(words) < 3 or not _LOCATION.fullmatch(words[2]) or not words[1].isalpha():
            return None
        state = None
    rest = words[2:]
    location = rest.pop(0) if rest and _LOCATION.fullmatch(rest[0]) else None
    description = " ".join(rest)
    return DeviceRow(words[0], state, location, description, _fc(description))


def formatted_row(fields: list[str], separator: str, line: str) -> DeviceRow | None:
    """A row of `-F FORMAT`: the fields in order, the last taking the rest of the line."""
    if not line.strip():
        return None
    cut = len(fields) - 1
    parts = line.split(None, cut) if separator == " " else line.split(separator, cut)
    row = dict(zip(fields, (p.strip() for p in parts), strict=False))
    name = row.get("name", "")
    state = row.get("status") or row.get("state")
    if not _NAME.fullmatch(name) or (state is not None and state not in _STATES):
        return None
    description = row.get("description", "")
    return DeviceRow(name, state, row.get("location") or None, description, _fc(description))


def _lsdev_of(*classes: str | None) -> Match:
    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] != "lsdev" or "-P" in argv:
            return False
        flagged = any(a.startswith("-") and ("C" in a or "c" in a) for a in argv[1:])
        return flagged and (lsdev_class(argv) in classes or None in classes)

    return match


def read_lsdev(section: Section) -> Devices:
    form = lsdev_format(section.argv)
    if form is None or "name" not in form[0]:
        rows = [row for row in map(device_row, section.lines) if row is not None]
    else:
        rows = [r for r in (formatted_row(*form, line) for line in section.lines) if r]
    if not rows and any(line.strip() for line in section.lines):
        raise nothing_found(section, "lsdev device rows")
    return Devices(lsdev_class(section.argv), tuple(rows))


@parser("aix_lsdev_processor", _lsdev_of("processor"), commands=("lsdev",))
def lsdev_processor(section: Section) -> Devices:
    return read_lsdev(section)


@parser("aix_lsdev_disk", _lsdev_of("disk"), commands=("lsdev",))
def lsdev_disk(section: Section) -> Devices:
    return read_lsdev(section)


@parser("aix_lsdev_adapter", _lsdev_of("adapter"), commands=("lsdev",))
def lsdev_adapter(section: Section) -> Devices:
    return read_lsdev(section)


@parser("aix_lsdev", _lsdev_of(None), commands=("lsdev",))
def lsdev_any(section: Section) -> Devices:
    return read_lsdev(section)
