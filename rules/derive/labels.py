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


# Windows Server 2016, 2019, 2022 and 2025 all report version 10.0 (their builds differ:
# 10.0.14393, 10.0.17763, 10.0.20348, 10.0.26100; Microsoft Learn, Windows Server release
# information).
WINDOWS_10_SERVERS = "Server 2016-2025"  # ASCII: config files are read in the session encoding


def _windows_release(server: Server) -> str:
    """'Windows Server 2022' where server.os_release_name is given; else the version, with
    the releases it stands for where it is 10.0."""
    if server.os_release_name is not None:
        return f"Windows Server {server.os_release_name}"
    if server.os_version == "10.0":
        return f"Windows 10.0 ({WINDOWS_10_SERVERS})"
    return f"Windows {server.os_version}"


def os_release(server: Server) -> str:
    """'AIX 5.3', 'Linux 9', 'RHEL 9.4 (kernel 5.14.0)', 'Windows Server 2022'."""
    if server.os == "windows":
        return _windows_release(server)
    name = OS_LABELS[server.os]
    if server.os == "linux" and server.distribution is not None:
        name = DISTRIBUTION_LABELS[server.distribution]
    kernel = f" (kernel {server.kernel})" if server.kernel else ""
    return f"{name} {server.os_version}{kernel}"
