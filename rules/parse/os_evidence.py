"""Which OS and release a paste shows, from every section that can tell, not only uname.

Strong evidence (a command or file only one OS has, or its own words): `uname -a`; AIX's
commands (`combine_aix.aix_evidence`: oslevel, lparstat, prtconf, lsdev, lsattr, smtctl …)
and the "System configuration:" header of its vmstat, iostat, lparstat, sar and mpstat
(the same commands on Linux print none, so the header is the proof, not the command);
Solaris' psrinfo, prtdiag, /etc/release, prtconf's Solaris form and the shapes only it prints
(`combine_solaris.solaris_evidence`: swap's tables, mount and df of its pseudo file
systems, zpool status of c#t#d# disks); Linux's
/etc/os-release, /etc/redhat-release, /etc/SuSE-release, hostnamectl, lscpu, nproc,
/proc/meminfo, lsblk, findmnt, /sys/block, a `uname -r` shaped as Linux's, a df or mount
naming /dev/mapper/, /dev/sdX, /dev/nvmeN or devtmpfs; Windows' systeminfo (its OS Version
the release), wmic cpu, Win32_Processor, Get-Volume, wmic logicaldisk and fsutil fsinfo.
Weak evidence: a prompt shaped
`host:/path> `, AIX's usual PS1; one of a drive letter (`C:\\> `, `PS C:\\Users\\sas> `),
Windows' (never read as AIX's: `C:` is a drive, not a host). uname wins where present;
otherwise the OS with the most strong sections, or the weak one where none is strong.
Strong evidence for two systems is a problem naming a line of each: one of them is from
another server, or misread; so are two releases of the OS taken that cannot be one (Ubuntu
20.04 and 22.04; 9 and 9.3 agree).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rules.parse import Found, Parsed, combine_aix, combine_solaris
from rules.parse.aix_sysconfig import SysConfig
from rules.parse.registry import Section

OS_NAMES = {"AIX": "aix", "Linux": "linux", "SunOS": "solaris", "HP-UX": "hpux"}
STRONG, WEAK = 2, 1
_AIX_WHY = "a command only AIX has"
# Parsers of commands or files only one OS has. Names not registered yet read as absent.
ONLY_ON = {
    "linux": ("os_release", "redhat_release", "suse_release", "hostnamectl", "lscpu", "nproc",
              "meminfo", "lsblk", "findmnt", "proc_mounts", "block_queue", "thp",
              "tuned_active", "lvs", "mdstat"),
    "solaris": ("psrinfo", "psrinfo_virtual", "prtdiag", "solaris_release"),
    "windows": (
        "systeminfo", "windows_cpu", "windows_volumes", "windows_fsinfo", "windows_disks",
    ),
}  # fmt: skip
FOREIGN = {name: os_name for os_name, names in ONLY_ON.items() for name in names}
FOREIGN |= {name: "aix" for name in getattr(combine_aix, "AIX_ONLY", ())}
# RHEL and its rebuilds mark the kernel release with their major release: el9 → 9.
_EL = re.compile(r"\.el([0-9]{1,2})(?:_([0-9]{1,2}))?\b")
# Linux's kernel releases: major.minor.patch, then the build's own suffix.
_LINUX_KERNEL = re.compile(r"[2-9]\.[0-9]{1,3}\.[0-9]{1,4}(?:[-+_~][\w.+~-]{0,120})?")
# Device names only Linux gives a mounted file system (AIX: /dev/hd4, Solaris:
# /dev/dsk/c0t0d0s0 and /dev/md/dsk/d10, HP-UX: /dev/vg00/lvol3, BSD: /dev/ada0p2).
_LINUX_DEVICE = re.compile(r"devtmpfs$|/dev/(?:mapper/|sd[a-z]|nvme[0-9]|xvd[a-z]|vd[a-z]|md[0-9])")


@dataclass(frozen=True)
class Evidence:
    os: str
    release: str  # '' where the section shows none
    found: Found
    strength: int
    why: str  # 'uname -a', 'an AIX-only command', 'the prompt'

    @property
    def where(self) -> str:
        return f"line {self.found.section.line} (`{self.found.section.command}`)"


def evidence(parsed: Parsed) -> list[Evidence]:
    """Every section that tells the OS, strongest first, then in input order."""
    out = [e for f in parsed.all("uname") if (e := _uname(f)) is not None]
    for found, release in _aix(parsed):
        why = "a header only AIX prints" if isinstance(found.value, SysConfig) else _AIX_WHY
        out.append(Evidence("aix", release, found, STRONG, why))
    for name in ("prtconf",):
        out += [Evidence("solaris", "", f, STRONG, "prtconf's Solaris form")
                for f in parsed.all(name) if getattr(f.value, "os", "") == "solaris"]  # fmt: skip
    for found, strong, why in combine_solaris.solaris_evidence(parsed):
        out.append(Evidence("solaris", "", found, STRONG if strong else WEAK, why))
    for os_name, names in ONLY_ON.items():
        for name in names:
            for f in parsed.all(name):
                out.append(Evidence(os_name, _release(name, f), f, STRONG, f"`{name}` output"))
    out += _kernels(parsed)
    out += _linux_devices(parsed)
    out += _prompt(parsed)
    return sorted(out, key=lambda e: (-e.strength, e.found.section.line))


def _uname(found: Found) -> Evidence | None:
    name = OS_NAMES.get(getattr(found.value, "system", ""))
    if name is None:
        return None
    return Evidence(name, found.value.os_version or "", found, STRONG + 1, "uname -a")


def _aix(parsed: Parsed) -> list[tuple[Found, str]]:
    read = getattr(combine_aix, "aix_evidence", None)
    return list(read(parsed)) if read is not None else []


def _release(name: str, found: Found) -> str:
    for attr in ("version_id", "version", "release", "os_version"):
        value = getattr(found.value, attr, None)
        if isinstance(value, str) and value:
            return value
    return ""


def kernels(parsed: Parsed) -> list[tuple[str, Found]]:
    """Kernel releases the paste shows (`uname -a` of Linux, `uname -r`, hostnamectl)."""
    out = [(f.value.release, f) for f in parsed.all("uname") if f.value.system == "Linux"]
    out += [(f.value, f) for f in parsed.all("uname_release") if isinstance(f.value, str)]
    out += [(k, f) for f in parsed.all("hostnamectl") if (k := getattr(f.value, "kernel", None))]
    return out


def _kernels(parsed: Parsed) -> list[Evidence]:
    """A kernel marked `.el9`: Linux of the RHEL family (uname -r alone tells no more);
    a `uname -r` shaped as only Linux's are (5.15.34-otn-…: three numbers, where AIX
    prints '2', SunOS '5.11', HP-UX 'B.11.31')."""
    out = []
    for kernel, found in kernels(parsed):
        if found.section.argv[:1] == ("uname",) and "-a" in found.section.argv:
            continue
        if el_release(kernel) is not None:
            out.append(Evidence("linux", "", found, STRONG, "an el kernel release"))
        elif found.section.argv[:2] == ("uname", "-r") and _LINUX_KERNEL.fullmatch(kernel):
            out.append(Evidence("linux", "", found, STRONG, "a Linux kernel release"))
    return out


def _linux_devices(parsed: Parsed) -> list[Evidence]:
    """Each df or mount table naming a device only Linux has (/dev/mapper/…, /dev/sda1,
    /dev/nvme0n1p2, devtmpfs)."""
    out = []
    for name in ("df", "mount"):
        for found in parsed.all(name):
            rows = found.value if isinstance(found.value, tuple) else ()
            if any(_LINUX_DEVICE.match(_source(row)) for row in rows):
                out.append(Evidence("linux", "", found, STRONG, "a device only Linux names"))
    return out


def _source(row: object) -> str:
    return str(getattr(row, "filesystem", None) or getattr(row, "source", "") or "")


def _prompt(parsed: Parsed) -> list[Evidence]:
    out = []
    for p in parsed.prompts:
        if p.shape == "host:path" and p.sign == ">":
            section = Section(f"the prompt of {p.host}", (), (), p.line)
            out.append(Evidence("aix", "", Found(section, None), WEAK, "a `host:/path>` prompt"))
        elif p.shape == "windows" and p.sign == ">":
            section = Section("a Windows prompt (`C:\\>`)", (), (), p.line)
            out.append(Evidence("windows", "", Found(section, None), WEAK, "a `C:\\>` prompt"))
    return out


def decide(found: list[Evidence]) -> tuple[Evidence | None, list[tuple[int, str, str]]]:
    """The evidence the OS is taken from, and a problem (line, command, message) for each
    other system with strong evidence."""
    if not found:
        return None, []
    strong = [e for e in found if e.strength >= STRONG]
    if not strong:
        return found[0], []
    top = strong[0] if strong[0].strength > STRONG else None
    if top is None:
        votes = Counter(e.os for e in strong)
        winner = max(votes, key=lambda o: (votes[o], -_first(strong, o)))
        top = next(e for e in strong if e.os == winner)
    problems = []
    for other in sorted({e.os for e in strong} - {top.os}):
        e = next(x for x in strong if x.os == other)
        message = (
            f"the paste shows two systems: {top.os} from {top.where} and {other} from "
            f"{e.where}; {top.os} is used"
        )
        problems.append((e.found.section.line, e.found.section.command, message))
    return top, problems + _releases(top, strong)


def _releases(top: Evidence, strong: list[Evidence]) -> list[tuple[int, str, str]]:
    """A problem for each release of the OS taken that the first one read contradicts
    (Ubuntu 20.04 and 22.04: two servers; 9 and 9.3 agree, one says less)."""
    shown = [e for e in strong if e.os == top.os and e.release]
    if not shown:
        return []
    first = top if top.release else shown[0]
    out = []
    for e in shown:
        if not _agree(first.release, e.release):
            message = (
                f"the paste shows two systems: {top.os} {first.release} from {first.where} "
                f"and {top.os} {e.release} from {e.where}"
            )
            out.append((e.found.section.line, e.found.section.command, message))
    return out


def _agree(a: str, b: str) -> bool:
    """Whether two releases can be one: equal where both say something ('9' and '9.3')."""
    return all(x == y for x, y in zip(a.split("."), b.split("."), strict=False))


def _first(found: list[Evidence], os_name: str) -> int:
    return min(e.found.section.line for e in found if e.os == os_name)


def release_of(found: list[Evidence], os_name: str) -> Evidence | None:
    """The first section of `os_name` that shows its release."""
    return next((e for e in found if e.os == os_name and e.release), None)


def el_release(kernel: str) -> str | None:
    """'9.3' from a kernel release '5.14.0-362.8.1.el9_3.x86_64' (the RHEL family's)."""
    found = _EL.search(kernel)
    if found is None:
        return None
    major, minor = found.groups()
    return f"{major}.{minor}" if minor else major
