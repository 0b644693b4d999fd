"""Captured command output for the parser tests.

Each file under tests/fixtures/parse/ is one command's real output, found in a public
source or captured on a real machine. It opens with header lines naming that source:

    ## source: https://www.ibm.com/docs/en/aix/7.2?topic=l-lsattr-command (Example 3)
    ## command: lsattr -El hdisk0
    <the output, exactly as printed>

`section(name)` gives it as the parser sees it; `expects(name)` the facts it must give
(its `## expect:` lines, vocabulary in tests/fixtures/parse/CORPUS.md).
`transcript_file(name)` reads a whole-server paste of tests/fixtures/transcripts/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.parse.registry import Section
from rules.parse.sections import argv_of

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "parse"
TRANSCRIPTS = ROOT.parent / "transcripts"
# The corpus proper: one command's real output a file (sas/ and saslog/ hold files, not
# command output).
CORPUS_DIRS = (
    "aix", "linux", "solaris", "unix", "iotest", "fio", "diskspd", "sasiotest", "windows",
)  # fmt: skip
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


def _header_lines(path: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """Every `## key: value` line in order (a key may repeat), and the lines after them."""
    lines = path.read_text(encoding="utf-8").split("\n")
    header = []
    while lines and lines[0].startswith("## "):
        key, _, value = lines.pop(0)[3:].partition(": ")
        header.append((key, value))
    return header, lines


def expects(name: str) -> list[str]:
    """Every `## expect:` line of a corpus fixture, in file order."""
    header, _ = _header_lines(ROOT / name)
    return [value.strip() for key, value in header if key == "expect"]


def corpus_names() -> list[str]:
    """Every corpus fixture, as 'linux/df_h_centos77_jc.txt'."""
    return sorted(
        str(path.relative_to(ROOT)) for d in CORPUS_DIRS for path in (ROOT / d).glob("*.txt")
    )


def transcript_file(name: str) -> tuple[list[str], list[str], str]:
    """A whole-server transcript ('rhel7_jc.txt'): its sources, its expect lines, and the
    text as the admin pastes it (the header lines left out)."""
    header, lines = _header_lines(TRANSCRIPTS / name)
    sources = [value for key, value in header if key == "source"]
    assert sources, f"{name}: no '## source:' line"
    return sources, [v.strip() for key, v in header if key == "expect"], "\n".join(lines)


def transcript_names() -> list[str]:
    return sorted(path.name for path in TRANSCRIPTS.glob("*.txt"))


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


def read_cached_note(found: Any) -> str:
    """The note of a draft's first storage entry whose measured read may be the page
    cache's: checked marked so, with the write alone standing for the storage."""
    entry = found.document["storage"][0]
    assert entry["measured_read_cached"] is True
    assert entry["measured_mb_s"] == entry["measured_write_mb_s"]
    note: str = found.provenance["storage[0].measured_read_cached"].note
    return note
