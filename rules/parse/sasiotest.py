"""Parser: SAS's `sasiotest.exe` (the Sasiotest utility for Windows, in !SASROOT), as run or
as typed back (`type sasiotest_saswork.txt`).

The SAS 9.4 Companion for Windows ("SASIOTEST Command") shows its output: a banner `SAS
I/O Test Utility: v1.0`, `WARNING:` lines for defaulted options, `Sequentially writing
1048576 bytes to file: test.out with a 8192 pagesize.` and `Write Throughput: 71.100308
MB/Sec.` (a read, `-r`, says `reading … from file:` and `Read Throughput:`). One run is one
stream; its rate is taken in MB/s as printed. The sentences are found wherever they stand
on a line (the published copy runs them together), by string search on lines cut to
MAX_LINE. Runs on one directory make one measurement, the latest of each direction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.diskspd import folder
from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.throughput import Throughput, rate

MAX_LINE = 2000
MAX_RUNS = 256
SMALL_BYTES = 1 << 30  # a file below 1 GiB fits in any SAS server's file cache
READERS = ("type", "cat", "more", "get-content")
_RATE = re.compile(r"(Write|Read) Throughput:\s{0,20}(\d{1,12}(?:\.\d{1,9})?) MB/Sec")
_WAY = re.compile(r"Sequentially (writing|reading) (\d{1,19}) bytes (?:to|from) file: ")
_PAGE = re.compile(r" with a (\d{1,9}) pagesize")


def _is_sasiotest(argv: Argv) -> bool:
    if not argv:
        return False
    program = argv[0].rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower()
    if program.endswith("sasiotest.exe") or program.endswith("sasiotest"):
        return True
    names = [a.lower() for a in argv[1:] if not a.startswith("-")]
    return program in READERS and bool(names) and all("sasiotest" in n for n in names)


@dataclass
class _Run:
    way: str  # "read" or "write"
    directory: str = ""
    size: int = 0  # bytes, 0 where not printed
    page: int = 0
    mb_s: float | None = None


def _sentence(text: str) -> _Run | None:
    """The `Sequentially writing N bytes to file: PATH with a N pagesize.` sentence."""
    found = _WAY.search(text)
    if found is None:
        return None
    tail = text[found.end() :]
    page = _PAGE.search(tail)
    path = tail[: page.start()] if page else tail.split(" ", 1)[0]
    run = _Run("write" if found.group(1) == "writing" else "read", folder(path.strip()))
    run.size, run.page = int(found.group(2)), int(page.group(1)) if page else 0
    return run


def _runs(section: Section) -> list[_Run]:
    runs: list[_Run] = []
    pending: _Run | None = None
    for offset, line in enumerate(section.lines):
        text = line[:MAX_LINE]
        pending = _sentence(text) or pending
        for found in _RATE.finditer(text):
            way = found.group(1).lower()
            run = pending if pending is not None and pending.way == way else _Run(way)
            run.mb_s, pending = rate(float(found.group(2))), None
            runs.append(run)
            if len(runs) > MAX_RUNS:
                raise Garbled(f"more than {MAX_RUNS} runs in one paste", offset)
    return runs


def _caveat(runs: list[_Run], argv: Argv) -> str:
    notes = []
    if "-sgio" not in [a.lower() for a in argv]:
        notes.append("through the Windows file cache (no -sgio)")
    small = [r.size for r in runs if 0 < r.size < SMALL_BYTES]
    if small:
        notes.append(f"a {min(small) / 1048576:g} MiB file, which the file cache can hold")
    return "; ".join(notes)


@parser("sasiotest", _is_sasiotest, commands=())  # no names: see rules.parse.diskspd
def sasiotest(section: Section) -> tuple[Throughput, ...]:
    runs = [r for r in _runs(section) if r.mb_s is not None]
    if not runs:
        raise Garbled("no `Write Throughput:` or `Read Throughput: … MB/Sec.` line", 0)
    out = []
    for directory in dict.fromkeys(r.directory for r in runs):
        mine = [r for r in runs if r.directory == directory]
        latest = {r.way: r for r in mine}  # the later run of a direction wins
        read, write = latest.get("read"), latest.get("write")
        pages = [r.page for r in latest.values() if r.page]
        said = _caveat(list(latest.values()), section.argv)  # each of its notes is the cache's
        out.append(
            Throughput(
                tool="sasiotest",
                directory=directory,
                read_mb_s=read.mb_s if read else None,
                write_mb_s=write.mb_s if write else None,
                read_per_stream_mb_s=read.mb_s if read else None,
                write_per_stream_mb_s=write.mb_s if write else None,
                streams=1,
                block_kb=pages[0] / 1024 if pages else None,
                date="",
                caveat=said,
                read_cached=bool(said),
            )
        )
    return tuple(out)
