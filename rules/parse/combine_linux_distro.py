"""The Linux distribution where no release file or hostnamectl names it: what the kernel
and the disks of a paste still tell.

A kernel build marks its distribution: Ubuntu's `uname -a` version "#74-Ubuntu SMP …",
Debian's "#1 SMP Debian 4.19.67-2+deb10u2" or a "+deb13" release, Oracle's Unbreakable
Enterprise Kernel ".el7uek". An .el kernel says only "the RHEL family" (a rebuild keeps
the mark); there the installer's default volume group tells which one: anaconda names
it after the product, since RHEL 8 with the host name after it (rhel-root or
rhel_HOST-root, centos-root; cl-root on CentOS Linux 8, cs-root on CentOS Stream,
ol-root, rl-root on Rocky, almalinux-root). A volume group named so on
another kernel is only a name, and is not read: where no kernel is shown it is a guess
for the admin to confirm, naming its line, as is the release an installer disc's label
(RHEL-8-0-0-BaseOS-x86_64 in lsblk -f) names.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass

from rules.parse import Found, Parsed
from rules.parse.os_evidence import el_release, kernels

_KERNEL_MARKS = (
    (re.compile(r"-Ubuntu\b"), "ubuntu", "an Ubuntu kernel build"),
    (re.compile(r"\bDebian\b|\+deb[0-9]{1,2}\b"), "debian", "a Debian kernel build"),
    (re.compile(r"\.el[0-9]{1,2}uek\b"), "ol", "Oracle's Unbreakable Enterprise Kernel"),
)
_DEFAULT_VGS = {
    "rhel": "rhel", "centos": "centos", "cl": "centos", "cs": "centos", "ol": "ol",
    "rl": "rocky", "almalinux": "alma",
}  # fmt: skip
# An installer disc's volume label (lsblk -f or -o LABEL of the rom it was installed from):
# the product and the release installed, which updates may since have raised within the
# major release (RHEL 8.0 → 8.10), so the RHEL family's gives the major release only.
_INSTALLER_LABELS = (
    (re.compile(r"RHEL-([0-9]{1,2})[-.]([0-9]{1,2})\b"), "rhel", False),
    (re.compile(r"CentOS[- ](?:Stream[- ])?([0-9]{1,2})\b"), "centos", False),
    (re.compile(r"Rocky-([0-9]{1,2})[-.]([0-9]{1,2})\b"), "rocky", False),
    (re.compile(r"AlmaLinux-([0-9]{1,2})[-.]([0-9]{1,2})\b"), "alma", False),
    (re.compile(r"OL-([0-9]{1,2})[.-]([0-9]{1,2})\b"), "ol", False),
    (re.compile(r"SLE-([0-9]{2})-SP([0-9])\b"), "sles", True),
    (re.compile(r"Ubuntu(?:-Server)? ([0-9]{2})\.([0-9]{2})\b"), "ubuntu", True),
)
# vg-root, or since RHEL 8 vg_HOST-root (the device-mapper name doubles a '-' of HOST).
_ROOT_LV = re.compile(r"(?:/dev/mapper/)?([a-z]{2,9})(?:_[\w.]{0,63}(?:--[\w.]{1,63}){0,8})?-root")
_DEVICE_TABLES = ("findmnt", "proc_mounts", "mount", "df")


@dataclass(frozen=True)
class Hint:
    distribution: str  # the contract's name: ubuntu, centos, ol …
    found: Found
    raw: str
    note: str


def distribution_hint(parsed: Parsed) -> Hint | None:
    """What the kernel, or an .el kernel's installer-named volume group, says."""
    el_kernel = None
    for kernel, text, found in _kernel_texts(parsed):
        for pattern, name, why in _KERNEL_MARKS:
            if pattern.search(text):
                return Hint(name, found, text[:120], why)
        el_kernel = el_kernel or (kernel if el_release(kernel) else None)
    if el_kernel is None:
        return None
    vg = volume_group_hint(parsed)
    if vg is None:
        return None
    return dataclasses.replace(vg, note=f"{vg.note}, on {el_kernel}")


def volume_group_hint(parsed: Parsed) -> Hint | None:
    """The distribution whose installer names the root volume group so (rhel-root)."""
    for device, found in _devices(parsed):
        named = _ROOT_LV.fullmatch(device)
        if named is not None and named.group(1) in _DEFAULT_VGS:
            note = f"{named.group(1)}-root, its installer's default volume group"
            return Hint(_DEFAULT_VGS[named.group(1)], found, device, note)
    return None


@dataclass(frozen=True)
class Installed:
    distribution: str
    release: str  # '8' (the RHEL family: its major release), '15.5', '22.04'
    found: Found
    label: str


def installer_release(parsed: Parsed) -> Installed | None:
    """The product and release an installer disc's label names (RHEL-8-0-0-BaseOS-x86_64)."""
    for found in parsed.all("lsblk"):
        for device in found.value if isinstance(found.value, tuple) else ():
            label = getattr(device, "label", None) or ""
            for pattern, name, full in _INSTALLER_LABELS:
                m = pattern.search(label)
                if m is not None:
                    release = ".".join(m.groups()) if full else str(int(m.group(1)))
                    return Installed(name, release, found, label)
    return None


def _kernel_texts(parsed: Parsed) -> Iterator[tuple[str, str, Found]]:
    """Each kernel release the paste shows, and its text with `uname -a`'s build version."""
    for kernel, found in kernels(parsed):
        version = getattr(found.value, "version", None)
        text = f"{kernel} {version}" if isinstance(version, str) and version else kernel
        yield kernel, text, found


def _devices(parsed: Parsed) -> Iterator[tuple[str, Found]]:
    """Mounted devices (mount tables, then df) and lsblk's logical volumes."""
    for name in _DEVICE_TABLES:
        for found in parsed.all(name):
            for row in found.value if isinstance(found.value, tuple) else ():
                yield str(getattr(row, "source", None) or getattr(row, "filesystem", "")), found
    for found in parsed.all("lsblk"):
        for device in found.value if isinstance(found.value, tuple) else ():
            if device.type == "lvm":
                yield device.name, found
