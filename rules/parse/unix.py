"""Parsers of commands whose output shape differs per Unix: uname, hostname, df, mount.

Shapes, from the sources of tests/fixtures/parse/unix/: GNU coreutils `uname -a`
(RedHatInsights/insights-core test_uname.py), AIX `uname -a` ("AIX host 2 7 id": release 2
of version 7, IBM's uname command page), SunOS 5.x, HP-UX B.11.31; POSIX `df -P`
(1024- or 512-blocks), AIX `df -k` (Free, %Used, Iused, %Iused), GNU `df` wrapping a long
device name onto its own line; Linux/BSD `mount` ("dev on dir type fs (opts)"), Solaris
`mount` ("dir on dev opts/… on date") and AIX `mount` (columns node, mounted, mounted
over, vfs, date, options; chef/ohai's AIX filesystem spec).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import meaningful, require, unoctal
from rules.parse.registry import Argv, Garbled, Section, command, parser
from rules.parse.unix_df import DfRow, df

__all__ = [
    "DfRow",
    "Hostname",
    "Mount",
    "Uname",
    "df",
    "hostname",
    "mount",
    "uname",
    "uname_release",
]

_ARCH = re.compile(
    r"x86_64|amd64|i[3-6]86|aarch64|arm\w*|ppc\w*|s390x?|ia64|sparc\w*|riscv\w*"
    r"|mips\w*|loongarch\w*|alpha|unknown|sun4\w"
)
_SYSTEM = re.compile(r"[A-Za-z][\w.-]{0,31}")
# What uname prints as the release: Linux 5.14.0-…, AIX 2, SunOS 5.11, FreeBSD 14.0-RELEASE,
# HP-UX B.11.31. A table's heading (`Node Generic SN …`) has none.
_RELEASE = re.compile(r"[0-9][\w.+~-]{0,127}|[A-Z]\.[0-9][\w.]{0,30}")
# A Linux kernel release alone (the host and system words lost): only Linux names one so.
_LINUX_KERNEL = re.compile(r"[2-9]\.[0-9]{1,3}\.[0-9]{1,4}(?:[-+_~][\w.+~-]{0,120})?")
UNAME_LINES = 3  # meaningful lines looked at: uname prints one, a warning may come first


@dataclass(frozen=True)
class Uname:
    system: str  # Linux, AIX, SunOS, HP-UX
    hostname: str
    release: str  # kernel release; AIX: the minor ("2" of 7.2); SunOS: 5.11
    version: str  # Linux: "#1 SMP …"; AIX: the major ("7"); Solaris 11: 11.4.x
    machine: str
    os_version: str | None  # the product release where uname tells it: 7.2, 11.4, 11.31


@parser("uname", command("uname", "-a"), commands=("uname",))
def uname(section: Section) -> Uname:
    """The first line shaped as uname's (system, host, release …); a Linux kernel release
    alone is read as Linux's with no host name."""
    for n, (_offset, line) in enumerate(meaningful(section)):
        words = line.split()
        if n >= UNAME_LINES:
            break
        if len(words) >= 3 and _SYSTEM.fullmatch(words[0]) and _RELEASE.fullmatch(words[2]):
            return _uname(words)
        if len(words) == 1 and _LINUX_KERNEL.fullmatch(words[0]):
            machine = next((a for a in words[0].split(".") if _ARCH.fullmatch(a)), "")
            return Uname("Linux", "", words[0], "", machine, None)
    raise Garbled("no `uname -a` line (system, host, release, …) found", 0)


def _uname(words: list[str]) -> Uname:
    system, host, release = words[0], words[1], words[2]
    rest = words[3:]
    if system == "Linux":
        if rest and rest[-1] == "GNU/Linux":
            rest = rest[:-1]
        arch = 0
        while arch < min(3, len(rest) - 1) and _ARCH.fullmatch(rest[-1 - arch]):
            arch += 1
        machine = rest[-arch] if arch else ""
        version = " ".join(rest[: len(rest) - arch]) if arch else " ".join(rest)
        return Uname(system, host, release, version, machine, None)
    version = rest[0] if rest else ""
    machine = rest[1] if len(rest) > 1 else ""
    return Uname(system, host, release, version, machine, _os_version(system, release, version))


def _os_version(system: str, release: str, version: str) -> str | None:
    if system == "AIX" and release.isdigit() and version.isdigit():
        return f"{version}.{release}"
    if system == "SunOS":
        found = re.match(r"(\d{1,3}\.\d{1,3})", version)
        if found:
            return found.group(1)
        minor = re.fullmatch(r"5\.(\d{1,3})", release)
        return minor.group(1) if minor else None
    if system == "HP-UX":
        found = re.fullmatch(r"[A-Z]\.(\d{1,3}\.\d{1,3})", release)
        return found.group(1) if found else None
    return None


@dataclass(frozen=True)
class Hostname:
    name: str


@parser("hostname", command("hostname"), commands=("hostname",))
def hostname(section: Section) -> Hostname:
    for offset, line in meaningful(section):
        name = line.strip()
        if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}", name):
            return Hostname(name)
        raise Garbled(f"not a host name: {name[:60]!r}", offset)
    raise Garbled("the output is empty", 0)


@dataclass(frozen=True)
class Mount:
    target: str
    source: str
    fstype: str | None  # None where the output does not say (Solaris `mount`)
    options: tuple[str, ...]
    size_bytes: int | None = None  # findmnt's SIZE where asked for


_SOLARIS_MOUNT = re.compile(r"(?P<tgt>/\S*) on (?P<src>\S+) (?P<opts>\S+) on \w{3} .+")
# Solaris `mount -v`: "dev on dir type fs opts on date" (mount(8) on Solaris 10 and 11).
_SOLARIS_V = re.compile(
    r"(?P<src>\S+) on (?P<tgt>/\S*) type (?P<type>\w{1,16}) (?P<opts>\S+) on \w{3} .+"
)
_AIX = re.compile(
    r"(?P<node>\S+)?\s+(?P<src>\S+)\s+(?P<tgt>\S+)\s+(?P<type>\S+)\s+"
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{1,2}:\d{2}"
    r"(?:\s+(?P<opts>\S+))?\s*"
)


# mount(8)'s options that take an argument; the operand of a listing is none of them.
_MOUNT_ARGUMENT = frozenset({"-t", "-o", "-O", "-F", "-V", "--types", "--options"})


def _mount_listing(argv: Argv) -> bool:
    """`mount`, `mount -v`, `mount -l`, `mount -t xfs`: a table of what is mounted. With a
    device or directory (`mount /oracle`, `mount /dev/sdb1 /data`) or `-a` it mounts, and
    prints nothing when it succeeds: no table to read."""
    if not argv or argv[0].rsplit("/", 1)[-1] != "mount":
        return False
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
        elif word in ("-a", "--all"):
            return False
        elif word.startswith("-"):
            skip = word in _MOUNT_ARGUMENT
        else:
            return False
    return True


@parser("mount", _mount_listing, commands=("mount",))
def mount(section: Section) -> tuple[Mount, ...]:
    rows = [row for _o, line in meaningful(section) if (row := _mount_row(line)) is not None]
    if not rows and any("mounted over" in line for line in section.lines):
        return ()
    require(rows, section, "mount table rows")
    return tuple(rows)


def _mount_row(line: str) -> Mount | None:
    line = line.rstrip()
    if (row := _linux_or_bsd(line)) is not None:
        return row
    if found := _SOLARIS_V.fullmatch(line):
        opts = _solaris_opts(found.group("opts"))
        return Mount(found.group("tgt"), found.group("src"), found.group("type"), opts)
    if found := _SOLARIS_MOUNT.fullmatch(line):
        return Mount(
            found.group("tgt"), found.group("src"), None, _solaris_opts(found.group("opts"))
        )
    if (found := _AIX.fullmatch(line)) and found.group("tgt").startswith("/"):
        node, src = found.group("node"), found.group("src")
        source = f"{node}:{src}" if node else src
        opts = tuple(o for o in (found.group("opts") or "").split(",") if o)
        return Mount(found.group("tgt"), source, found.group("type"), opts)
    return None


def _linux_or_bsd(line: str) -> Mount | None:
    # "dev on dir type fs (opts) [label]" (Linux) or "dev on dir (fs, opts)" (BSD, macOS),
    # cut with str methods: a regex with two lazy groups backtracks on a long bad line.
    if line.endswith("]") and ") [" in line:
        line = line[: line.rindex(") [") + 1]
    paren = line.rfind(" (")
    if not line.endswith(")") or paren < 0:
        return None
    head, inside = line[:paren], line[paren + 2 : -1]
    typed = head.rfind(" type ")
    if typed >= 0:
        fstype, opts = head[typed + 6 :], inside.split(",")
        head = head[:typed]
    else:
        fstype, *opts = [o.strip() for o in inside.split(",")]
    source, on, target = head.partition(" on ")
    if not on or not source or not target or not fstype or " " in fstype:
        return None
    options = tuple(filter(None, map(str.strip, opts)))
    return Mount(unoctal(target), source, fstype, options)


def _solaris_opts(text: str) -> tuple[str, ...]:
    # Solaris joins options with "/", and a value can itself be a path
    # ("mountpoint=/zones/z1/root/"): it runs to the "//" or to the next "key=value".
    out: list[str] = []
    parts = text.split("/")
    i = 0
    while i < len(parts):
        part = parts[i]
        i += 1
        if part.endswith("=") and i < len(parts):
            path: list[str] = []
            while i < len(parts) and parts[i] and "=" not in parts[i]:
                path.append(parts[i])
                i += 1
            trailing = i < len(parts) and not parts[i]
            part += "/" + "/".join(path) + ("/" if trailing else "")
            i += 1 if trailing else 0
        if part:
            out.append(part)
    return tuple(out)


@parser("uname_release", command("uname", "-r"), commands=("uname",))
def uname_release(section: Section) -> str:
    """`uname -r`: the kernel release alone ("5.14.0-362.8.1.el9_3.x86_64")."""
    for offset, line in meaningful(section):
        text = line.strip()
        if re.fullmatch(r"[0-9][\w.+~-]{0,127}", text):
            return text
        raise Garbled(f"not a kernel release: {text[:60]!r}", offset)
    raise Garbled("the output is empty", 0)
