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


def os_release(server: Server) -> str:
    """'AIX 5.3', 'Linux 9'."""
    return f"{OS_LABELS[server.os]} {server.os_version}"
