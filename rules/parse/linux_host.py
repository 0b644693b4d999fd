"""Parsers of what a Linux host says about itself: `free`, `hostnamectl`, /etc/SuSE-release.

Shapes: procps `free` (kB by default; `-m`/`-g` whole units; `-h` human units with a
one-letter suffix, "Gi"/"Mi" since procps-ng 3.3.10; `-w` splits buffers and cache), the
"Mem:" and "Swap:" rows under a header of column names; systemd's `hostnamectl` ("Static
hostname:", "Operating System: Red Hat Enterprise Linux 8.9 (Ootpa)", "Kernel: Linux
4.18.0-…"); SUSE's /etc/SuSE-release (a product line, then "VERSION = 11" and
"PATCHLEVEL = 4", deprecated since SLES 12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, number, require
from rules.parse.registry import Argv, Garbled, Section, command, command_with, parser, reads_file

KIB = 1024
# free's units by flag, in KiB; --si and the long flags as procps-ng spells them.
_FREE_UNITS = {
    "-b": 1 / KIB, "--bytes": 1 / KIB, "-k": 1, "--kibi": 1, "-m": KIB, "--mebi": KIB,
    "-g": KIB**2, "--gibi": KIB**2, "--tebi": KIB**3,
}  # fmt: skip


@dataclass(frozen=True)
class Free:
    mem_total_kb: int | None
    swap_total_kb: int | None
    rounded: bool  # -g, -h: whole or 3-digit units, good to about a unit


@parser("free", command_with("free"), commands=("free",))
def free(section: Section) -> Free:
    unit, human = _free_unit(section.argv)
    totals: dict[str, int | None] = {}
    for _offset, line in meaningful(section):
        label, _, rest = line.strip().partition(":")
        words = rest.split()
        if label in ("Mem", "Swap") and words:
            totals[label] = _free_kb(words[0], unit, human)
    require(totals, section, "'Mem:' or 'Swap:' rows")
    rounded = human or unit >= KIB**2
    return Free(totals.get("Mem"), totals.get("Swap"), rounded)


def _free_unit(argv: Argv) -> tuple[float, bool]:
    unit: float = 1
    human = False
    for arg in argv[1:]:
        unit = _FREE_UNITS.get(arg, unit)
        human = human or arg in ("-h", "--human") or (arg.startswith("-") and "h" in arg[1:3])
    return unit, human


def _free_kb(text: str, unit: float, human: bool) -> int | None:
    plain = number(text)
    if plain is not None and not human:
        return int(plain * unit)
    size = human_bytes(text.rstrip("i") if text.endswith("i") else text)
    return None if size is None else size // KIB


@dataclass(frozen=True)
class Hostnamectl:
    hostname: str | None  # Static hostname
    operating_system: str | None  # "Red Hat Enterprise Linux 8.9 (Ootpa)"
    kernel: str | None  # "4.18.0-513.24.1.el8_9.x86_64" (the "Linux " dropped)
    fields: dict[str, str]


@parser("hostnamectl", command("hostnamectl"), commands=("hostnamectl",))
def hostnamectl(section: Section) -> Hostnamectl:
    fields: dict[str, str] = {}
    for _offset, line in meaningful(section):
        label, colon, value = line.partition(":")
        if colon and label.strip() and value.strip() and len(label) <= 40:
            fields.setdefault(label.strip(), value.strip())
    require(fields, section, "'Label: value' lines")
    kernel = fields.get("Kernel")
    if kernel and kernel.startswith("Linux "):
        kernel = kernel[len("Linux ") :]
    name = fields.get("Static hostname") or fields.get("Transient hostname")
    return Hostnamectl(name, fields.get("Operating System"), kernel, fields)


# "Red Hat Enterprise Linux 8.9 (Ootpa)", "Debian GNU/Linux 8 (jessie)", "SUSE … 15 SP5"
_OS_VERSION = re.compile(
    r"(?P<name>.{1,80}?) (?P<version>\d{1,3}(?:\.\d{1,4})?)(?: SP(?P<sp>\d{1,2}))?\b.*"
)


def os_name_and_version(text: str) -> tuple[str, str] | None:
    """('Red Hat Enterprise Linux', '8.9') from a product line; SP5 → '.5'."""
    found = _OS_VERSION.fullmatch(text.strip())
    if found is None:
        return None
    version = found.group("version")
    if found.group("sp") and "." not in version:
        version = f"{version}.{found.group('sp')}"
    return found.group("name"), version


@dataclass(frozen=True)
class SuseRelease:
    product: str  # "SUSE Linux Enterprise Server 11 (x86_64)"
    version: str | None  # "11.4": VERSION with PATCHLEVEL where it is not 0
    patchlevel: int | None


_SUSE_KEY = re.compile(r"(VERSION|PATCHLEVEL)\s{0,8}=\s{0,8}(\S{1,20})")


@parser("suse_release", reads_file("/etc/SuSE-release"), commands=("cat",))
def suse_release(section: Section) -> SuseRelease:
    product = ""
    values: dict[str, str] = {}
    for _offset, line in meaningful(section):
        text = line.strip()
        if found := _SUSE_KEY.fullmatch(text):
            values[found.group(1)] = found.group(2)
        elif not product and not text.startswith("#"):
            product = text
    if not product:
        raise Garbled("no product line in /etc/SuSE-release", 0)
    version, level = values.get("VERSION"), number(values.get("PATCHLEVEL"), 99)
    if version and version.isdigit() and level:
        version = f"{version}.{level}"
    return SuseRelease(product, version, level)
