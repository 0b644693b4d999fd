"""How people write the names the contract spells in lower case."""

from __future__ import annotations

from rules.inventory import Server

OS_LABELS: dict[str, str] = {
    "aix": "AIX",
    "linux": "Linux",
    "solaris": "Solaris",
    "hpux": "HP-UX",
    "windows": "Windows",
}


def os_label(os: str) -> str:
    """'aix' -> 'AIX'."""
    return OS_LABELS[os]


DISTRIBUTION_LABELS: dict[str, str] = {
    "rhel": "RHEL", "ol": "Oracle Linux", "centos": "CentOS", "rocky": "Rocky Linux",
    "alma": "AlmaLinux", "sles": "SLES", "ubuntu": "Ubuntu", "debian": "Debian",
    "other": "Linux",
}  # fmt: skip


def os_release(server: Server) -> str:
    """'AIX 5.3', 'Linux 9', 'RHEL 9.4 (kernel 5.14.0)'."""
    name = OS_LABELS[server.os]
    if server.os == "linux" and server.distribution is not None:
        name = DISTRIBUTION_LABELS[server.distribution]
    kernel = f" (kernel {server.kernel})" if server.kernel else ""
    return f"{name} {server.os_version}{kernel}"
