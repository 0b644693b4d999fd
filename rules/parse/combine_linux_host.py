"""Linux facts → the server: release, distribution, kernel, CPUs, memory, host name.

The release and distribution come from /etc/os-release (VERSION_ID, ID), else the release
files (/etc/redhat-release and its kin: "CentOS Linux release 7.9.2009" is 7.9;
/etc/SuSE-release: VERSION and PATCHLEVEL), else `hostnamectl`'s Operating System, else
what the kernel build or an .el kernel's installer-named volume group tells
(`combine_linux_distro`); without any, an installer disc's label is a guess naming its
line, and else the release is asked of the admin (never guessed: no release is '1'). The
kernel from `uname -a`, `uname -r` or hostnamectl. Logical
CPUs are `nproc` (what SAS can run on), else lscpu's on-line list (an off-line CPU is not
counted), else CPU(s); cores and threads per core from lscpu; memory from /proc/meminfo,
else `free` (`free -g` drops the fraction, which its note says).
"""

from __future__ import annotations

import re

from rules.kinds import HOSTNAME, KERNEL, OS_VERSION
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_linux_distro import (
    distribution_hint,
    installer_release,
    volume_group_hint,
)
from rules.parse.combine_storage import swap_note
from rules.parse.linux_host import os_name_and_version
from rules.parse.wiring import reads

# os-release ID → the contract's distribution (os-release(5); RHEL's rebuilds name their own).
DISTRIBUTIONS = {
    "rhel": "rhel", "ol": "ol", "centos": "centos", "rocky": "rocky", "almalinux": "alma",
    "sles": "sles", "sled": "sles", "sles_sap": "sles", "opensuse-leap": "opensuse",
    "opensuse": "opensuse",
    "ubuntu": "ubuntu", "debian": "debian",
}  # fmt: skip
# Words of a product name ("Red Hat Enterprise Linux Server", "CentOS Stream") → the same.
_PRODUCTS = (
    ("red hat", "rhel"), ("centos", "centos"), ("rocky", "rocky"), ("almalinux", "alma"),
    ("oracle", "ol"), ("opensuse", "opensuse"), ("suse", "sles"), ("ubuntu", "ubuntu"),
    ("debian", "debian"),
)  # fmt: skip
_KERNEL = re.compile(r"([0-9]{1,4}(?:\.[0-9]{1,6}){1,3})")
_TWO_PARTS = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,6})?")
KIB_PER_GIB = 1024**2
# free's flags that print whole units, cutting the fraction off (procps-ng), in GB.
_TRUNCATING = {"-g": 1, "--gibi": 1, "--tebi": 1024}
ASK_RELEASE = (
    "no /etc/os-release, release file, hostnamectl or .el kernel was read: give the "
    "distribution's release (9.4, 15.5)"
)


def _product(name: str) -> str:
    lowered = name.lower()
    return next((d for word, d in _PRODUCTS if word in lowered), "other")


def _release_files(parsed: Parsed) -> list[tuple[str, str, Found, str]]:
    """(distribution, release, found, raw) from each release file and hostnamectl."""
    out = []
    for found in parsed.all("redhat_release"):
        short = _TWO_PARTS.match(found.value.version)
        version = short.group() if short else found.value.version
        out.append((_product(found.value.name), version, found, found.value.version))
    for found in parsed.all("suse_release"):
        suse = "opensuse" if "opensuse" in found.value.product.lower() else "sles"
        out.append((suse, found.value.version or "", found, found.value.product))
    for found in parsed.all("hostnamectl"):
        pair = os_name_and_version(found.value.operating_system or "")
        if pair is not None:
            out.append((_product(pair[0]), pair[1], found, found.value.operating_system or ""))
    return out


def _release(parsed: Parsed, b: Builder) -> None:
    """The distribution's release (RHEL 9.4 → '9.4'), which the contract calls os_version."""
    found = parsed.first("os_release")
    named = versioned = False  # what os-release told; the files below fill the rest
    if found is not None and found.value.id:
        name = DISTRIBUTIONS.get(found.value.id.lower(), "other")
        b.put("server.distribution", name, found, raw=f"ID={found.value.id}")
        named = True
    if found is not None and OS_VERSION.accepts(found.value.version_id):
        b.put("server.os_version", found.value.version_id, found, note="VERSION_ID")
        versioned = True
    for name, version, source, raw in _release_files(parsed):
        if not named and name != "other":
            b.put("server.distribution", name, source, raw=raw)
            named = True
        if not versioned and OS_VERSION.accepts(version):
            b.put("server.os_version", version, source, raw=raw)
            versioned = True
    hint = None if named else distribution_hint(parsed)
    if hint is not None:
        b.put("server.distribution", hint.distribution, hint.found, raw=hint.raw, note=hint.note)
    if not versioned and "server.os_version" not in b.provenance:
        _guessed_release(parsed, b, named=named or hint is not None)


def _guessed_release(parsed: Parsed, b: Builder, *, named: bool) -> None:
    """Where no release file, hostnamectl or .el kernel tells the release: an installer
    disc's label, else nothing (the admin gives it); a volume group's name for the
    distribution. Each a guess that names the line it comes from."""
    disc = installer_release(parsed)
    if disc is not None:
        where = f"`{disc.found.section.command}` (line {disc.found.section.line})"
        why = f"the installer disc's label {disc.label} in {where}: the release installed from"
        b.guess("server.os_version", disc.release, why)
        if not named:
            b.guess("server.distribution", disc.distribution, why)
            named = True
    else:
        b.needs("server.os_version", ASK_RELEASE)
    vg = None if named else volume_group_hint(parsed)
    if vg is not None:
        where = f"`{vg.found.section.command}` (line {vg.found.section.line})"
        b.guess("server.distribution", vg.distribution, f"{vg.raw} in {where}: {vg.note}")


def _kernel(parsed: Parsed, b: Builder) -> None:
    candidates: list[tuple[str, Found]] = []
    uname = parsed.first("uname")
    if uname is not None and uname.value.system == "Linux":
        candidates.append((uname.value.release, uname))
    candidates += [(f.value, f) for f in parsed.all("uname_release")]
    candidates += [(f.value.kernel, f) for f in parsed.all("hostnamectl") if f.value.kernel]
    for release, found in candidates:
        numbers = _KERNEL.match(release)
        if numbers is not None and KERNEL.accepts(numbers.group(1)):
            b.put("server.kernel", numbers.group(1), found, raw=release)
            return


def _hostname(parsed: Parsed, b: Builder) -> None:
    """hostnamectl's name, where no `hostname` or `uname -a` gave one."""
    if "server.hostname" not in b.missing:
        return
    for found in parsed.all("hostnamectl"):
        if HOSTNAME.accepts(found.value.hostname):
            b.put("server.hostname", found.value.hostname, found, note="Static hostname")
            return


def _cpus(parsed: Parsed, b: Builder) -> None:
    nproc, cpu = parsed.first("nproc"), parsed.first("lscpu")
    if nproc is not None:
        b.put("server.cpus", nproc.value, nproc)
    elif cpu is not None and cpu.value.online_cpus:
        b.put("server.cpus", cpu.value.online_cpus, cpu, note="On-line CPU(s) list")
    elif cpu is not None and cpu.value.cpus:
        b.put("server.cpus", cpu.value.cpus, cpu, note="CPU(s)")
    elif cpu is not None:
        where = f"`{cpu.section.command}` (line {cpu.section.line})"
        cut = any(line == cpu.section.line and "cut off" in text for line, text in parsed.notes)
        why = "was cut off before its CPU(s) count" if cut else "shows no CPU(s) count"
        b.guess("server.cpus", 1, f"{where} {why}")
    else:
        b.guess("server.cpus", 1, "neither nproc nor lscpu was read")
    if cpu is not None and cpu.value.cores:
        b.put("server.cores", cpu.value.cores, cpu, note="sockets × cores per socket")
    if cpu is not None and cpu.value.threads_per_core:
        b.put("server.smt_threads", cpu.value.threads_per_core, cpu, note="Thread(s) per core")


def _memory(parsed: Parsed, b: Builder) -> None:
    mem = parsed.first("meminfo")
    if mem is not None and mem.value.mem_total_kb:
        kb = mem.value.mem_total_kb
        raw = _printed(mem, "MemTotal:", 2) or f"MemTotal: {kb} kB"
        b.put("server.ram_gb", round(kb / KIB_PER_GIB, 2), mem, raw=raw)
        return
    free = max(parsed.all("free"), key=lambda f: not f.value.rounded, default=None)
    if free is not None and free.value.mem_total_kb:
        kb = free.value.mem_total_kb
        note = _rounded(free) if free.value.rounded else ""
        raw = _printed(free, "Mem:", 1) or f"Mem: {kb} kB"
        b.put("server.ram_gb", round(kb / KIB_PER_GIB, 2), free, raw=raw, note=note)
        return
    if free is not None and free.value.mem_total_kb == 0:
        b.guess("server.ram_gb", 1, _under_a_unit(free))
        return
    b.guess("server.ram_gb", 1, "neither /proc/meminfo nor free was read")


def _under_a_unit(free: Found) -> str:
    """Why a `free` whose Mem row is 0 gives no RAM: `free -g` cuts 768 MB down to 0, so
    the RAM is under its unit; the guess of 1 GB is the bound, for the admin to confirm."""
    flag = next((a for a in free.section.argv[1:] if a in _TRUNCATING), None)
    unit = "1 TB" if flag == "--tebi" else "1 GB"
    where = f"`{free.section.command}` (line {free.section.line})"
    return (
        f"{where} printed Mem: 0: the RAM is under {unit}, which it cuts off; "
        "`free -m` or /proc/meminfo gives the figure"
    )


def _printed(found: Found, label: str, words: int) -> str:
    """The total as the command printed it ('Mem: 125' of `free -g`, not the kB it stands
    for), the row's label and its first `words` words; '' when the row is not kept."""
    for line in found.section.lines:
        parts = line.split()
        if parts and parts[0] == label:
            return " ".join(parts[: words + 1])
    return ""


def _rounded(free: Found) -> str:
    """How far a rounded `free` may be from the memory: -h rounds, -g and --tebi cut off."""
    flag = next((a for a in free.section.argv[1:] if a in _TRUNCATING), None)
    if flag is None:
        return "as free rounds it"
    gb = round(free.value.mem_total_kb / KIB_PER_GIB, 2)
    unit = _TRUNCATING[flag]
    return f"free {flag} drops the fraction: at least {gb:g} GB, less than {gb + unit:g}"


@reads(
    "os_release", "redhat_release", "suse_release", "hostnamectl", "uname", "uname_release",
    "nproc", "lscpu", "meminfo", "free", "findmnt", "proc_mounts", "mount", "df", "lsblk",
    "linux_swap",
)  # fmt: skip
def linux_server(parsed: Parsed, b: Builder) -> None:
    _release(parsed, b)
    _kernel(parsed, b)
    _hostname(parsed, b)
    _cpus(parsed, b)
    _memory(parsed, b)
    _swap(parsed, b)


def _swap(parsed: Parsed, b: Builder) -> None:
    """Swap has no field in the contract; what was read is said."""
    for found in parsed.all("linux_swap"):
        gb = round(found.value.swap_total_kb / KIB_PER_GIB, 2)
        swap_note(b, found, f"{len(found.value.areas)} swap area(s), {gb} GB")
