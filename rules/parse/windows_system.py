"""Parsers: Windows' `systeminfo` and its processors' core counts (wmic, PowerShell).

`systeminfo` (learn.microsoft.com, windows-commands/systeminfo) prints one `Key:   value`
a line, some values continued on indented lines:

    Host Name:                 WIN01
    OS Name:                   Microsoft Windows Server 2022 Datacenter
    OS Version:                10.0.20348 N/A Build 20348
    Processor(s):              2 Processor(s) Installed.
                               [01]: Intel64 Family 6 Model 85 Stepping 7 GenuineIntel ~2594 Mhz
    Total Physical Memory:     65,535 MB
    Windows Directory:         C:\\Windows

The memory's thousands separator is the locale's (`65,535`, `8.192`, `16 384`); the
number of processors is of sockets, not of logical CPUs; the Windows directory's drive is
the system drive. Its keys are read in English,
German, French, Spanish and Italian (`Gesamter physikalischer Speicher:  16.155 MB`,
`Mémoire physique totale:  2 047 Mo`); another display language's is Garbled.

`wmic cpu get NumberOfCores,NumberOfLogicalProcessors` prints a table, a row a socket,
its columns where the header's words start (`wmic cpu get … /format:list`: `Key=value`
lines); PowerShell's `Get-CimInstance Win32_Processor | Select NumberOfCores,
NumberOfLogicalProcessors` a table with a dashed rule and its numbers right-aligned, or
with `Format-List` (`fl`) `Key : value` lines, a block a socket. Each socket's counts are
summed. Lines are cut to MAX_LINE before any pattern runs; at most MAX_LINES are read; a
table's columns are taken in display cells (rules.parse.columns: a wide character is two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.columns import by_width
from rules.parse.registry import Argv, Garbled, Section, parser

MAX_LINE = 2000
MAX_LINES = 20000
MAX_SOCKETS = 1024
MAX_COUNT = 65536  # logical processors of one socket, well above any made
MAX_MB = 1024**3  # a petabyte of memory in MB: beyond any server
# systeminfo's keys in the display languages read: English, German, French, Spanish, Italian.
KEYS = {
    "host name": "host", "hostname": "host", "nom de l'hôte": "host", "nombre de host": "host",
    "nome host": "host",
    "os name": "os_name", "betriebssystemname": "os_name",
    "nom du système d'exploitation": "os_name", "nombre del sistema operativo": "os_name",
    "nome so": "os_name",
    "os version": "version", "betriebssystemversion": "version", "version du système": "version",
    "versión del sistema operativo": "version", "versione so": "version",
    "processor(s)": "processors", "prozessor(en)": "processors", "processeur(s)": "processors",
    "procesador(es)": "processors", "processore": "processors",
    "total physical memory": "memory", "gesamter physikalischer speicher": "memory",
    "mémoire physique totale": "memory", "cantidad total de memoria física": "memory",
    "memoria fisica totale": "memory",
    "windows directory": "windows_dir", "windows-verzeichnis": "windows_dir",
    "répertoire windows": "windows_dir", "directorio de windows": "windows_dir",
    "directory windows": "windows_dir",
}  # fmt: skip
_SYSINFO_KEY = re.compile(r"([^\W\d_][\w ()'’-]{0,60}?)\s?:\s{1,60}(\S.{0,500})?$")
_VERSION = re.compile(r"([0-9]{1,4})\.([0-9]{1,4})\.([0-9]{1,6})")
_SERVER_YEAR = re.compile(r"Windows Server (20[0-9]{2})\b")
_MEMORY = re.compile(r"([0-9][0-9,.' \u00a0\u202f]{0,20})\s?M[Bo]$")  # Mo: French
_PROCESSORS = re.compile(
    r"([0-9]{1,4}) (?:processor|prozessor|processeur|procesador|processore)", re.IGNORECASE
)
COLUMNS = {"numberofcores": "cores", "numberoflogicalprocessors": "logical"}


@dataclass(frozen=True)
class SystemInfo:
    host: str
    os_name: str  # "Microsoft Windows Server 2022 Datacenter"
    os_version: str  # "10.0": major.minor, as the contract's Windows releases are
    build: str  # "20348"
    release_name: str  # "2022" of a Windows Server release, "" otherwise
    memory_mb: int | None
    sockets: int | None  # `N Processor(s) Installed.`: sockets, not logical CPUs
    system_drive: str = ""  # "C" of `Windows Directory: C:\Windows`; "" where not read


def program(argv: Argv) -> str:
    """The Windows program's name: `systeminfo` of `C:\\Windows\\System32\\systeminfo.exe`."""
    return argv[0].rsplit("\\", 1)[-1].lower().removesuffix(".exe") if argv else ""


def _is_systeminfo(argv: Argv) -> bool:
    return program(argv) == "systeminfo"


def _values(section: Section) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for offset, raw in enumerate(section.lines[:MAX_LINES]):
        found = _SYSINFO_KEY.match(raw[:MAX_LINE].strip())
        name = KEYS.get(found[1].strip().lower()) if found else None
        if found and name and name not in out:
            out[name] = ((found[2] or "").strip(), offset)
    return out


def _memory(text: str, offset: int) -> int | None:
    """The MB of `65,535 MB`; None where the line was cut before its unit."""
    if not text.endswith(("MB", "Mo")):
        return None
    found = _MEMORY.fullmatch(text)
    digits = re.sub(r"[^0-9]", "", found[1]) if found else ""
    if not digits or len(digits) > 12 or not 0 < int(digits) <= MAX_MB:
        raise Garbled(f"Total Physical Memory {text[:40]!r} is not a size in MB", offset)
    return int(digits)


@parser("systeminfo", _is_systeminfo, commands=("systeminfo", "SYSTEMINFO", "systeminfo.exe"))
def systeminfo(section: Section) -> SystemInfo:
    values = _values(section)
    if "os_name" not in values and "version" not in values:
        raise Garbled(
            "no `OS Name:` or `OS Version:` line (systeminfo in English, German, "
            "French, Spanish or Italian)",
            0,
        )
    name = values.get("os_name", ("", 0))[0]
    version, v_at = values.get("version", ("", 0))
    found = _VERSION.match(version)
    if version and found is None:
        raise Garbled(f"OS Version {version[:40]!r} is not major.minor.build", v_at)
    release = _SERVER_YEAR.search(name)
    sockets = _PROCESSORS.match(values.get("processors", ("", 0))[0])
    return SystemInfo(
        host=values.get("host", ("", 0))[0][:253],
        os_name=name[:200],
        os_version=f"{int(found[1])}.{int(found[2])}" if found else "",
        build=found[3] if found else "",
        release_name=release[1] if release else "",
        memory_mb=_memory(*values.get("memory", ("", 0))),
        sockets=int(sockets[1]) if sockets else None,
        system_drive=_drive_of(values.get("windows_dir", ("", 0))[0]),
    )


def _drive_of(directory: str) -> str:
    """The drive letter of `C:\\Windows`; "" for anything else."""
    found = re.match(r"([A-Za-z]):\\", directory)
    return found[1].upper() if found else ""


@dataclass(frozen=True)
class CpuCount:
    cores: int | None  # summed over sockets
    logical: int | None
    sockets: int  # rows (blocks) read


def _is_cpu(argv: Argv) -> bool:
    words = [a.lower() for a in argv]
    if program(argv) == "wmic":
        return len(words) > 1 and words[1] == "cpu"
    cim = ("get-ciminstance", "get-wmiobject", "gcim", "gwmi")
    return program(argv) in cim and "win32_processor" in words[1:]


def _count(text: str, offset: int) -> int:
    if not text.isdigit() or len(text) > 6 or int(text) > MAX_COUNT:
        raise Garbled(f"{text[:20]!r} is not a count of processors", offset)
    return int(text)


def _header(lines: list[str]) -> tuple[int, dict[str, tuple[int, int]]] | None:
    """The table's header line and each counted column's span, or None for a list."""
    for offset, line in enumerate(lines):
        spans = {COLUMNS[m[0].lower()]: m.span() for m in re.finditer(r"\S+", line)
                 if m[0].lower() in COLUMNS}  # fmt: skip
        if spans and ":" not in line and "=" not in line:
            return offset, spans
    return None


def _table(lines: list[str], at: int, spans: dict[str, tuple[int, int]]) -> list[dict[str, int]]:
    rows = []
    for offset, line in enumerate(lines[at + 1 :], at + 1):
        if not line.strip() or set(line.strip()) <= {"-", " "}:
            continue
        row = {}
        for name, span in spans.items():
            token = _under(line, span)
            if token is not None:
                row[name] = _count(token, offset)
        rows.append(row)
    return rows


def _under(line: str, span: tuple[int, int]) -> str | None:
    """The word under a header: the one that starts beneath it (wmic's left-aligned and
    PowerShell's right-aligned values both do), else the first that reaches into it (a
    value pushed left of its header's start)."""
    start, end = span
    words = [m for m in re.finditer(r"\S+", line) if m.start() < end and m.end() > start]
    inside = [m for m in words if m.start() >= start]
    found = inside[0] if inside else words[0] if words else None
    return found[0] if found is not None else None


def _list(lines: list[str]) -> list[dict[str, int]]:
    rows: list[dict[str, int]] = []
    for offset, line in enumerate(lines):
        key, sep, value = line.replace("=", ":", 1).partition(":")
        name = COLUMNS.get(key.strip().lower())
        if not sep or name is None:
            continue
        if not rows or name in rows[-1]:
            rows.append({})
        rows[-1][name] = _count(value.strip(), offset)
    return rows


CPU_COMMANDS = ("wmic", "WMIC", "wmic.exe", "Get-CimInstance", "get-ciminstance", "Get-WmiObject",
                "get-wmiobject", "gcim", "gwmi")  # fmt: skip


@parser("windows_cpu", _is_cpu, commands=CPU_COMMANDS)
def windows_cpu(section: Section) -> CpuCount:
    lines = [line[:MAX_LINE] for line in section.lines[:MAX_LINES]]
    cells = [by_width(line) for line in lines]  # a table's columns are display cells
    header = _header(cells)
    rows = _table(cells, *header) if header is not None else _list(lines)
    rows = [r for r in rows if r]
    if not rows:
        raise Garbled("no NumberOfCores or NumberOfLogicalProcessors value", 0)
    if len(rows) > MAX_SOCKETS:
        raise Garbled(f"more than {MAX_SOCKETS} processors", 0)
    cores = [r["cores"] for r in rows if "cores" in r]
    logical = [r["logical"] for r in rows if "logical" in r]
    return CpuCount(
        cores=sum(cores) if len(cores) == len(rows) else None,
        logical=sum(logical) if len(logical) == len(rows) else None,
        sockets=len(rows),
    )
