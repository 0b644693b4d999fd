"""Parser: Microsoft DiskSpd's text report (`-Rtext`, its default), as run or as typed back
(`type result.txt`, `Get-Content result.txt`).

DiskSpd (github.com/microsoft/diskspd, ResultParser/ResultParser.cpp) prints `Command Line:
…`, its input parameters (a target's `block size: 512KiB`, `using random I/O` or `using
sequential I/O`, `using software cache` or `software cache disabled`, `performing read
test`), `start time: 2024/09/09 02:02:42 UTC`, then for each timespan `actual test time:
30.01s` and three tables, Total IO, Read IO and Write IO, with a row a thread and target,
`     0 |  5181440 |  1265 |  0.49 | 126.45 | … | D:\\saswork\\iotest.dat (1GiB)`, and a
`total:` row. DiskSpd's text report does not print its version.

A direction's rate is its rows' bytes over the actual test time in decimal MB/s (10^6
bytes a second: DiskSpd's own column is MiB/s, 2^20 bytes, rounded to two decimals), or
that column × 1.048576 where no test time was printed. Each target's directory (D:\\saswork
of D:\\saswork\\iotest.dat; "" for a bare file name or a physical disk `#1`) is a
measurement of its own, over the threads that moved its data. Random I/O and the Windows
file cache are said in the caveat. Lines are cut to MAX_LINE before any pattern runs and
at most MAX_ROWS rows are read; the XML report (`-Rxml`) is refused, never expanded.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from dataclasses import dataclass, field

from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.throughput import Throughput, rate

MAX_LINE = 2000
MAX_ROWS = 65536
MAX_TARGETS = 64  # directories in one timespan (a SAS server's file systems are fewer)
MAX_BYTES = 10**18
MIB = 1024 * 1024
READERS = ("type", "cat", "more", "get-content")
TABLES = {"Total IO": "total", "Read IO": "read", "Write IO": "write"}
TITLES = {table: title for title, table in TABLES.items()}
_ROW = re.compile(
    r"(\d{1,6}) \|\s{0,20}(\d{1,19}) \|\s{0,20}(\d{1,19}) \|\s{0,20}(\d{1,15}\.\d\d) \|"
)
_TOTAL = re.compile(r"total:\s{0,30}(\d{1,19}) \|")
_SIZE = re.compile(r"(\d{1,15}(?:\.\d{1,6})?)\s?(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?")
_FILE_SIZE = re.compile(r" \(\d{1,15}(?:\.\d{1,6})?[KMGT]?i?B\)$")
_UNITS = {"": 1, "B": 1, "K": 1024, "M": MIB, "G": 1024 * MIB, "T": 1024 * 1024 * MIB}
CAVEAT_RANDOM = "random I/O (DiskSpd -r), not the sequential I/O SAS does"
CAVEAT_CACHE = "through the Windows file cache (no -Sh or -Su), which may flatter the storage"


def _is_diskspd(argv: Argv) -> bool:
    if not argv:
        return False
    # A Windows path loses its backslashes to the shell-style split: C:ToolsDiskSpd.exe.
    program = argv[0].rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower()
    if program.endswith("diskspd.exe") or program in ("diskspd", "diskspd64"):
        return True
    names = [a.lower() for a in argv[1:] if not a.startswith("-")]
    return program in READERS and bool(names) and all("diskspd" in n for n in names)


@dataclass
class _Row:
    table: str
    thread: int
    moved: int
    mib_s: float
    directory: str


@dataclass
class _Timespan:
    seconds: float | None = None
    threads: int | None = None
    by_directory: dict[str, list[_Row]] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)  # a table's `total:` bytes


@dataclass
class _Report:
    block_kb: float | None = None
    date: str = ""
    way: str = ""  # "read" or "write" when the test did only that, else ""
    caveats: set[str] = field(default_factory=set)
    spans: list[_Timespan] = field(default_factory=list)


def _block_kb(text: str) -> float | None:
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        return None
    size = float(found.group(1)) * _UNITS[(found.group(2) or "")[:1]]
    return size / 1024 if 0 < size < MAX_BYTES else None


def folder(path: str) -> str:
    """The folder of a Windows or POSIX file path (`D:\\saswork` of `D:\\saswork\\t.dat`,
    `D:\\` of `D:\\t.dat`); "" for a bare file name or a physical disk (`#1`)."""
    if re.match(r"[A-Za-z]:\\", path) or path.startswith("\\\\"):
        where = ntpath.dirname(path)
        return where if len(where) <= 3 else where.rstrip("\\")
    return posixpath.dirname(path) if path.startswith("/") else ""


def _directory(file: str) -> str:
    """Where a target lies: `D:\\saswork` of `D:\\saswork\\iotest.dat (1GiB)`."""
    return folder(_FILE_SIZE.sub("", file.strip()))


def _row(text: str, table: str, offset: int) -> _Row:
    found = _ROW.match(text)
    fields = text.rsplit(" | ", 1)
    if found is None or len(fields) < 2:
        raise Garbled(f"a {TITLES[table]} row without DiskSpd's thread | bytes | … | file", offset)
    moved = int(found.group(2))
    if moved >= MAX_BYTES:
        raise Garbled(f"a {TITLES[table]} row moving more bytes than any run", offset)
    return _Row(table, int(found.group(1)), moved, float(found.group(4)), _directory(fields[1]))


def _setting(report: _Report, text: str) -> None:
    if text.startswith("block size:") and report.block_kb is None:
        report.block_kb = _block_kb(text.split(":", 1)[1])
    elif text.startswith("start time:") and not report.date:
        report.date = text.split(":", 1)[1].strip()[:40]
    elif text.startswith("using random I/O") or text.startswith("using mixed random"):
        report.caveats.add(CAVEAT_RANDOM)
    elif text == "using software cache":
        report.caveats.add(CAVEAT_CACHE)
    elif text in ("performing read test", "performing write test"):
        way = text.split()[1]
        report.way = way if report.way in ("", way) else "mixed"
    elif text.startswith("performing mix test"):
        report.way = "mixed"


def _number(text: str) -> float | None:
    value = text.split(":", 1)[1].strip().rstrip("s")
    try:
        number = float(value[:20])
    except ValueError:
        return None
    return number if 0 < number < 1e9 else None


def _timing(span: _Timespan, text: str) -> None:
    if text.startswith("actual test time:"):
        span.seconds = _number(text)
    elif text.startswith("thread count:") and (threads := _number(text)):
        span.threads = int(threads)


def _add(span: _Timespan, row: _Row, offset: int) -> None:
    if row.directory not in span.by_directory and len(span.by_directory) >= MAX_TARGETS:
        raise Garbled(f"more than {MAX_TARGETS} target directories in one timespan", offset)
    span.by_directory.setdefault(row.directory, []).append(row)


def _read(section: Section) -> _Report:
    report, table, rows = _Report(), "", 0
    for offset, line in enumerate(section.lines):
        text = line[:MAX_LINE].strip()
        if text.startswith("<?xml") or text.startswith("<Results"):
            raise Garbled("DiskSpd's XML report (-Rxml) is not read: paste the text report", offset)
        if text.startswith("Results for timespan"):
            report.spans.append(_Timespan())
            table = ""
        elif text in TABLES and report.spans:
            table = TABLES[text]
        elif report.spans and not table and text.startswith(("actual test", "thread count")):
            _timing(report.spans[-1], text)
        elif table and text[:1].isdigit() and "|" in text:
            rows += 1
            if rows > MAX_ROWS:
                raise Garbled(f"more than {MAX_ROWS} rows", offset)
            _add(report.spans[-1], _row(text, table, offset), offset)
        elif text.startswith("total:"):
            if table and (found := _TOTAL.match(text)):
                report.spans[-1].totals[table] = min(int(found.group(1)), MAX_BYTES)
            table = ""  # the latency table below has rows that open with a digit too
        elif not text:
            continue
        elif not table:
            _setting(report, text)
    return report


def _rate(rows: list[_Row], seconds: float | None, total: int | None) -> float | None:
    """MB/s from the `total:` row's bytes where the table holds one target (a paste that
    left rows out still has it), else from the rows' bytes."""
    if not rows:
        return None
    if seconds:
        return rate((total or sum(r.moved for r in rows)) / seconds / 1e6)
    return rate(sum(r.mib_s for r in rows) * MIB / 1e6)


def _measurement(report: _Report, span: _Timespan, directory: str, alone: bool) -> Throughput:
    """One target directory's rates; `alone` where it is the run's only one, so that the
    tables' `total:` rows and the thread count are its own."""
    mine = span.by_directory[directory]
    ways = {w: [r for r in mine if r.table == w and r.moved] for w in ("read", "write")}
    tables = {r.table for r in mine}
    if not tables & {"read", "write"} and report.way in ways:
        ways[report.way] = [r for r in mine if r.moved]  # an older report's Total IO only
    totals = {w: span.totals.get(w if w in tables else "total") if alone else None for w in ways}
    read, write = (_rate(ways[w], span.seconds, totals[w]) for w in ("read", "write"))
    counted = max(len({r.thread for r in rows}) for rows in ways.values())
    streams = (span.threads if alone else None) or counted or None
    return Throughput(
        tool="DiskSpd",
        directory=directory,
        read_mb_s=read,
        write_mb_s=write,
        read_per_stream_mb_s=rate(read / streams) if read and streams else None,
        write_per_stream_mb_s=rate(write / streams) if write and streams else None,
        streams=streams,
        block_kb=report.block_kb,
        date=report.date,
        caveat="; ".join(sorted(report.caveats)),
        read_cached=CAVEAT_CACHE in report.caveats,
    )


# No command names: a Windows path loses its backslashes to the shell-style split
# (C:\\Tools\\diskspd.exe → C:Toolsdiskspd.exe), so the program is never a plain name the
# registry could look up; the matcher is asked of every section instead.
@parser("diskspd", _is_diskspd, commands=())
def diskspd(section: Section) -> tuple[Throughput, ...]:
    report = _read(section)
    found = [
        _measurement(report, span, directory, len(span.by_directory) == 1)
        for span in report.spans
        for directory in span.by_directory
    ]
    found = [t for t in found if t.lower() is not None]
    if not found:
        raise Garbled("no Read IO or Write IO rows that moved data (DiskSpd's text report)", 0)
    return tuple(found)
