"""Parser: SAS's I/O tests, rhel_iotest.sh and iotest.sh, and the SAS Viya Perf Tool.

The SAS Performance Lab's scripts time parallel dd streams, one a physical core, and
print a RESULTS block (formats as in their Apache-2.0 port, sascommunities/
technical-support-code fact-gathering/k8s-iotest-vk, and sassoftware/viya-perf-tool):

- rhel_iotest.sh: `target dir:   /saswork`, `iterations:   16`, `read throughput rate:
  157.87 megabytes/second per physical core` (printf %'.2f: a thousands comma may show);
- iotest.sh: `directory           : /saswork`, `INVOCATION : iotest.sh -i 8 -t /saswork
  -b 20000 -s 64`, `average read throughput rate     :   101.29 megabytes per second`
  (and, in older copies, `aggregate ... throughput rate`);
- viya_perf_tool.sh: each line prefixed `[host][timestamp]: `, `Total iterations: 16`
  and `Block size: 64 KB` before its RESULTS, `directory:    /datashare/viya_perf_…`,
  `read throughput rate:   81.46 MB/second per physical core`.

Each rate is one stream's average, the file's size over its mean time, in MiB/s: all
three divide bytes by 1024 twice and call the result "megabytes" or "MB" (the port's
iotest.sh: `MB=… ${FS} / 1024 / 1024`, rhel_iotest.sh being its RHEL version;
viya_perf_tool.sh, built on rhel_iotest.sh's method: `file_size_mb=${file_size_kb}/1024`,
its KB dd's `k`). The rates read are decimal MB/s (10^6 bytes a second, as every other
tool's here): the printed figure × 1.048576 (MIB_MB), as rules.parse.diskspd does with
DiskSpd's MiB/s. All streams together it is that times the iterations, where the output
says how many. A block without a rate is skipped; an output without any is garbled.

rhel_iotest.sh sizes each stream's file to the RAM; where the free space forces smaller
files whose sum the RAM holds, it warns `potential caching involved. use WRITES only.`
after its RESULTS (sascommunities' k8s_iotest.sh run on a small file system prints it):
its read is then the page cache's (Throughput.read_cached), as the script itself says.
iotest.sh warns of nothing; its `filesize : 524288000 bytes` (each stream's file) times
the streams is what its reads read through the page cache (Throughput.buffered_read_bytes),
which the draft weighs against the RAM, as it does fio's buffered reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.throughput import Throughput, rate, times

PROGRAMS = ("rhel_iotest.sh", "iotest.sh", "k8s_iotest.sh", "viya_perf_tool.sh")
READERS = ("cat", "more", "head", "tail", "less")
MAX_LINE = 2000
MAX_BLOCKS = 64
MIB_MB = 1024 * 1024 / 1e6  # decimal megabytes in the scripts' 2^20-byte "megabyte"
_PREFIX = re.compile(r"^\[[^\]]{0,100}\]\[[^\]]{0,40}\]: ?")
_NUMBER = r"(\d{1,3}(?:,\d{3}){1,5}(?:\.\d{1,6})?|\d{1,15}(?:\.\d{1,6})?)"
_RATE = re.compile(
    rf"(average |aggregate )?(read|write) throughput rate\s*:\s*{_NUMBER}\s*(megabytes|MB)\b",
    re.I,
)
_DIRECTORY = re.compile(r"(?:target dir|directory)\s*:\s*(/\S{0,400})$", re.I)
_ITERATIONS = re.compile(r"(?:total )?iterations\s*:\s*(\d{1,5})$", re.I)
_BLOCK = re.compile(r"block size\s*:\s*(\d{1,6})\s*KB$", re.I)
_FILESIZE = re.compile(r"filesize\s*:\s*(\d{1,18}) bytes\b", re.I)
_END = re.compile(r"End time\s*:\s*(.{1,60}?)\.?$")
CACHE_WARNING = "potential caching involved"
CACHE_CAVEAT = "the script warned: potential caching involved (its files fit in the RAM)"


def _is_iotest(argv: Argv) -> bool:
    if not argv:
        return False
    program = argv[0].rsplit("/", 1)[-1]
    if program in PROGRAMS:
        return True
    names = [a.rsplit("/", 1)[-1] for a in argv[1:] if not a.startswith("-")]
    return (
        program in READERS
        and bool(names)
        and all("iotest" in n or "viya_perf_tool" in n for n in names)
    )


@dataclass
class _Block:
    tool: str
    directory: str = ""
    streams: int | None = None
    block_kb: float | None = None
    date: str = ""
    cached: bool = False  # the script's own caching warning followed its RESULTS
    file_bytes: int | None = None  # each stream's file (iotest.sh's `filesize`)
    rates: dict[str, float] = field(default_factory=dict)  # "read", "aggregate write", …


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _invoked(text: str) -> tuple[str, str] | None:
    """`INVOCATION: PROGRAM ARGS…` split into the program and its arguments, by string
    methods (a pattern searched from every position would be quadratic on hostile text)."""
    at = text.find("INVOCATION")
    if at < 0:
        return None
    tail = text[at + len("INVOCATION") :].lstrip()
    if not tail.startswith(":"):
        return None
    words = tail[1:].strip().split(None, 1)
    if not words:
        return None
    return words[0][:200], (words[1] if len(words) > 1 else "")[:400]


def _invocation(block: _Block, program: str, rest: str) -> None:
    block.tool = program.rsplit("/", 1)[-1][:40]
    words = rest.split()
    for flag, value in pairwise(words):
        if flag == "-i" and value.isdigit() and 0 < int(value) <= 4096:
            block.streams = int(value)
        elif flag == "-t" and value.startswith("/") and not block.directory:
            block.directory = value[:400]
        elif flag == "-s" and value.isdigit() and 0 < int(value) <= 65536:
            block.block_kb = float(value)


def _read(block: _Block, text: str) -> None:
    if CACHE_WARNING in text.lower():
        block.cached = True
    elif found := _RATE.search(text):
        kind = (found.group(1) or "").strip().lower()
        key = f"{kind} {found.group(2).lower()}".strip()
        block.rates[key] = _number(found.group(3)) * MIB_MB
    elif found := _DIRECTORY.search(text):
        block.directory = found.group(1)
    elif found := _ITERATIONS.search(text):
        block.streams = int(found.group(1)) or None
    elif found := _BLOCK.search(text):
        block.block_kb = float(found.group(1)) or None
    elif found := _FILESIZE.search(text):
        block.file_bytes = int(found.group(1)) or None
    elif invoked := _invoked(text):
        _invocation(block, *invoked)
    elif found := _END.search(text):
        block.date = found.group(1)


def _blocks(section: Section) -> list[_Block]:
    """A block a RESULTS line; what comes before the first (the Viya tool's iterations
    and block size) carries into it."""
    program = section.argv[0].rsplit("/", 1)[-1] if section.argv else ""
    tool = program if program in PROGRAMS else "iotest"
    current, blocks = _Block(tool), []
    for line in section.lines:
        text = _PREFIX.sub("", line[:MAX_LINE]).strip()
        if text == "RESULTS":
            if current.rates:
                blocks.append(current)
            current = _Block(current.tool, streams=current.streams, block_kb=current.block_kb)
            if len(blocks) >= MAX_BLOCKS:
                break
            continue
        _read(current, text)
    if current.rates and len(blocks) < MAX_BLOCKS:
        blocks.append(current)
    return blocks


def _measurement(block: _Block) -> Throughput:
    each = {
        w: rate(block.rates.get(w) or block.rates.get(f"average {w}")) for w in ("read", "write")
    }
    total = {
        w: rate(block.rates.get(f"aggregate {w}")) or times(each[w], block.streams)
        for w in ("read", "write")
    }
    cached = block.cached and (each["read"] is not None or total["read"] is not None)
    return Throughput(
        tool=block.tool,
        directory=block.directory,
        read_mb_s=total["read"],
        write_mb_s=total["write"],
        read_per_stream_mb_s=each["read"],
        write_per_stream_mb_s=each["write"],
        streams=block.streams,
        block_kb=block.block_kb,
        date=block.date,
        caveat=CACHE_CAVEAT if cached else "",
        read_cached=cached,
        buffered_read_bytes=_read_bytes(block) if total["read"] is not None else None,
    )


def _read_bytes(block: _Block) -> int | None:
    """What all streams read through the page cache: each one's file, once."""
    if block.file_bytes is None:
        return None
    return block.file_bytes * (block.streams or 1)


@parser("iotest", _is_iotest, commands=(*PROGRAMS, *READERS))
def iotest(section: Section) -> tuple[Throughput, ...]:
    blocks = _blocks(section)
    if not blocks:
        raise Garbled("no read or write throughput rate (RESULTS … STATISTICS)", 0)
    return tuple(_measurement(b) for b in blocks)
