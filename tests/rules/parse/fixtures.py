"""Captured command output for the parser tests.

Each file under tests/fixtures/parse/ is one command's real output, found in a public
source or captured on a real machine. It opens with header lines naming that source:

    ## source: https://www.ibm.com/docs/en/aix/7.2?topic=l-lsattr-command (Example 3)
    ## command: lsattr -El hdisk0
    <the output, exactly as printed>

`section(name)` gives it as the parser sees it.
"""

from __future__ import annotations

from pathlib import Path

from rules.parse.registry import Section
from rules.parse.sections import argv_of

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "parse"
# One Debian 12 machine's own output (captured on the CI build machine), consistent across
# commands: a transcript of it reads into a whole draft inventory.
DEBIAN12 = (
    "unix/uname_debian12.txt",
    "unix/hostname_debian12.txt",
    "linux/os_release_debian12.txt",
    "linux/nproc_debian12.txt",
    "linux/lscpu_debian12_kvm.txt",
    "linux/meminfo_debian12.txt",
    "linux/findmnt_pairs_debian12.txt",
    "linux/lsblk_pairs_debian12.txt",
)


def header_and_output(name: str) -> tuple[dict[str, str], list[str]]:
    lines = (ROOT / name).read_text(encoding="utf-8").split("\n")
    header: dict[str, str] = {}
    while lines and lines[0].startswith("## "):
        key, _, value = lines.pop(0)[3:].partition(": ")
        header[key] = value
    if lines and lines[-1] == "":
        lines.pop()
    assert header.get("source"), f"{name}: no '## source:' line"
    assert header.get("command"), f"{name}: no '## command:' line"
    return header, lines


def section(name: str) -> Section:
    header, lines = header_and_output(name)
    command = header["command"]
    return Section(command, argv_of(command), tuple(lines), 1)


def transcript(*names: str, prompt: str = "# ") -> str:
    """Several fixtures as one pasted terminal session."""
    parts = []
    for name in names:
        header, lines = header_and_output(name)
        parts.append(prompt + header["command"])
        parts.extend(lines)
    return "\n".join(parts) + "\n"


def bundle(*names: str, host: str = "") -> str:
    """Several fixtures as the collector's bundle writes them."""
    parts = ["# sas-tuning-advisor bundle 1", "# collector: tests"]
    for name in names:
        header, lines = header_and_output(name)
        output = [host if host and header["command"] == "hostname" else ln for ln in lines]
        parts += [f"@@@ cmd: {header['command']}", *output, "@@@ end: rc=0"]
    return "\n".join(parts) + "\n"
