"""Parsers: the collector's --measure section, and a timed dd write or read-back.

The collector (rules/collect/collector.sh) measures each --measure DIR with parallel dd
streams in a section of its own (with fio it adds fio's JSON, read by rules.parse.fio):

    @@@ cmd: sas-advisor-measure /saswork
    date=2026-11-27T17:44:13Z tool=dd block_kb=64 streams=2 stream_bytes=268435456 ...
    plan: 2 streams of 256 MiB in 64 KB blocks by dd (conv=fsync); ... may include cache
    write stream=1 bytes=268435456 seconds=1.204 mb_s=223.0
    write total streams=2 bytes=536870912 seconds=1.301 mb_s=412.7
    read stream=1 ...
    @@@ end: rc=0

A stream that failed reads `write stream=2 failed: <dd's message>`; a total over failed
streams `write total failed: 1 of 2 streams`. Bundles of collectors before it hold one
dd write and read-back, each under `/usr/bin/time -p` where that exists:

    /usr/bin/time -p dd if=/dev/zero of=DIR/.sas-advisor-measure.PID bs=1048576 count=N
    /usr/bin/time -p dd if=DIR/.sas-advisor-measure.PID of=/dev/null bs=1048576

(Linux adds conv=fdatasync to the write, so the time includes the flush to disk.)

A pasted `dd if=/dev/zero of=FILE ...` or `dd if=FILE of=/dev/null ...` reads the same way.
What the section may hold, by source:
- POSIX dd: "N+M records in" / "N+M records out" (IEEE Std 1003.1, dd, STDERR);
- GNU dd: "B bytes (1.1 GB, 1.0 GiB) copied, S s, R MB/s" (GNU coreutils manual, dd
  invocation), with a comma for the decimal point in some locales;
- BSD dd (macOS): "B bytes transferred in S secs (R bytes/sec)";
- POSIX time -p: "real S" (IEEE Std 1003.1, time); bash's and busybox's time: "real 0m2.5s";
- the collector's own "sas-advisor-collect.sh: elapsed S s by the clock" where it found
  neither timer (whole seconds, from date +%s).
The elapsed time comes from time's "real" line when it is above zero (two decimals only),
else from dd's own report, else from the clock line. MB/s are decimal megabytes (10^6
bytes) a second, as dd reports them.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from rules.parse import diskspd, fio, iotest, sasiotest  # noqa: F401  (registers)
from rules.parse.registry import Argv, Garbled, Section, command, parser
from rules.parse.throughput import Stream, Throughput, rate

MIB = 1024 * 1024
MAX_SECONDS = 1e7
MAX_DD_LINE = 300  # characters: longer than any line dd or time prints
# GNU dd: '1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.9 s, 363 MB/s'; the sizes in
# brackets stop at a bracket, so no search start rescans another's text.
_NUMBER = r"(\d{1,12}(?:[.,]\d{1,12})?(?:e[-+]?\d{1,3})?)"
_RECORDS = re.compile(r"(\d{1,18})\+(\d{1,18}) records (in|out)", re.I)
_GNU = re.compile(
    rf"(\d{{1,20}}) bytes(?: \([^()]{{0,60}}\))? copied, {_NUMBER} (?:s|secs?|seconds)\b", re.I
)
_BSD = re.compile(rf"(\d{{1,20}}) bytes transferred in {_NUMBER} secs?\b", re.I)
_REAL = re.compile(rf"real\s+(?:(\d{{1,6}})m\s?)?{_NUMBER}s?", re.I)
_CLOCK = re.compile(r"sas-advisor-collect\.sh: elapsed (\d{1,9}) s by the clock")
_SIZE = re.compile(r"(\d{1,15})([a-zA-Z]{0,3})")
_UNITS = {
    "": 1, "c": 1, "w": 2, "b": 512,
    "k": 1024, "K": 1024, "KiB": 1024, "kB": 1000, "KB": 1000,
    "M": MIB, "m": MIB, "MiB": MIB, "MB": 10**6,
    "G": 1024**3, "g": 1024**3, "GiB": 1024**3, "GB": 10**9,
}  # fmt: skip


@dataclass(frozen=True)
class Measure:
    direction: str  # "write" (from /dev/zero) or "read" (to /dev/null)
    directory: str  # where the test file was
    mib: float | None  # MiB moved, None when dd reported nothing
    seconds: float | None
    mb_s: float | None  # decimal MB a second; None without a time above zero


def _dd_words(argv: Argv) -> list[str]:
    """argv without a leading `/usr/bin/time -p`, if it then runs dd; else []."""
    words = list(argv)
    if words and words[0].rsplit("/", 1)[-1] == "time":
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[1:]
    if words and words[0].rsplit("/", 1)[-1] == "dd":
        return words
    return []


def _operands(argv: Argv) -> dict[str, str]:
    pairs = (word.partition("=") for word in _dd_words(argv)[1:] if "=" in word)
    return {key: value for key, _, value in pairs}


def _direction(argv: Argv) -> str | None:
    ops = _operands(argv)
    source, target = ops.get("if", ""), ops.get("of", "")
    if source == "/dev/zero" and target and target != "/dev/null":
        return "write"
    if target == "/dev/null" and source and source != "/dev/zero":
        return "read"
    return None


def _is_measure(argv: Argv) -> bool:
    return _direction(argv) is not None


def _size(text: str) -> int | None:
    """A dd block size in bytes: 1048576, 1M, 1MiB, 1k, 512x2 (POSIX products)."""
    total = 1
    for factor in text.split("x")[:3]:
        found = _SIZE.fullmatch(factor)
        if found is None or found.group(2) not in _UNITS:
            return None
        total *= int(found.group(1)) * _UNITS[found.group(2)]
    return total if 0 < total < 2**62 else None


def _number(text: str) -> float | None:
    value = float(text.replace(",", "."))
    return value if 0 <= value < MAX_SECONDS else None


def _timings(lines: tuple[str, ...]) -> tuple[int | None, int | None, float | None, float]:
    """(bytes dd reported, full records out, dd's seconds, time's real seconds or 0)."""
    moved: int | None = None
    records: int | None = None
    own: float | None = None
    real = 0.0
    for line in lines:
        text = line.strip()
        if len(text) > MAX_DD_LINE:
            continue
        if (found := _GNU.search(text) or _BSD.search(text)) is not None:
            moved, own = int(found.group(1)), _number(found.group(2))
        elif (found := _RECORDS.fullmatch(text)) is not None:
            if found.group(3).lower() == "out":
                records = int(found.group(1))
        elif (found := _REAL.fullmatch(text)) is not None:
            real = 60 * int(found.group(1) or 0) + (_number(found.group(2)) or 0.0)
            real = real if real < MAX_SECONDS else 0.0
        elif (found := _CLOCK.fullmatch(text)) is not None and own is None:
            own = float(found.group(1))
    return moved, records, own, real


# "time" too: the collector's command line starts with /usr/bin/time.
@parser("measure", _is_measure, commands=("dd", "time"))
def measure(section: Section) -> Measure:
    direction = _direction(section.argv)
    if direction is None:
        raise Garbled("not a dd write to a file or read-back to /dev/null", 0)
    ops = _operands(section.argv)
    path = ops["of"] if direction == "write" else ops["if"]
    moved, records, own, real = _timings(section.lines)
    block = _size(ops.get("bs", "512"))
    if moved is None and records is not None and block is not None:
        moved = records * block
    if moved is None and not any(line.strip() for line in section.lines):
        raise Garbled("dd printed nothing", 0)
    if moved is None and not any(line.lstrip().startswith("dd:") for line in section.lines):
        raise Garbled("no dd transfer report (records or bytes copied)", 0)
    seconds = real if real > 0 else own
    mib = None if moved is None else moved / MIB
    mb_s = None
    if moved is not None and seconds:
        mb_s = moved / 1e6 / seconds
    return Measure(direction, posixpath.dirname(path) or ".", mib, seconds, mb_s)


MAX_STREAMS = 4096
_KEY = re.compile(r"([a-z_]{1,20})=(\S{1,40})")
_FIGURE = re.compile(
    r"(read|write) (?:stream=(\d{1,4})|total streams=(\d{1,4})) bytes=(\d{1,18}) "
    r"seconds=(\d{1,9}(?:\.\d{1,6})?)(?: mb_s=(\d{1,12}(?:\.\d{1,3})?))?"
)


def _settings(lines: tuple[str, ...]) -> dict[str, str]:
    first = next((line for line in lines[:3] if line.startswith("date=")), "")
    return dict(_KEY.findall(first[:MAX_DD_LINE]))


def _figures(lines: tuple[str, ...]) -> tuple[list[Stream], dict[str, tuple[int, int, float]]]:
    streams: list[Stream] = []
    totals: dict[str, tuple[int, int, float]] = {}
    for line in lines:
        found = _FIGURE.fullmatch(line.strip()) if len(line) <= MAX_DD_LINE else None
        if found is None:
            continue
        way, index, count = found.group(1), found.group(2), found.group(3)
        size, seconds = int(found.group(4)), _seconds(found)
        mb_s = rate(size / 1e6 / seconds) if seconds > 0 else None
        if index is not None and len(streams) < MAX_STREAMS:
            streams.append(Stream(way, int(index), size, seconds, mb_s))
        elif count is not None:
            totals[way] = (int(count), size, seconds)
    return streams, totals


def _seconds(found: re.Match[str]) -> float:
    """The printed time; when it rounds to 0 (a cached read-back of a few MB), the time the
    printed rate implies, so a fast figure is not dropped as no figure."""
    seconds, mb_s = float(found.group(5)), found.group(6)
    if seconds == 0 and mb_s is not None and float(mb_s) > 0:
        return int(found.group(4)) / 1e6 / float(mb_s)
    return seconds


def _total(totals: dict[str, tuple[int, int, float]], way: str) -> float | None:
    if way not in totals or totals[way][2] <= 0:
        return None
    return rate(totals[way][1] / 1e6 / totals[way][2])


def _per_stream(streams: list[Stream], way: str) -> float | None:
    rates = [s.mb_s for s in streams if s.direction == way and s.mb_s is not None]
    return rate(sum(rates) / len(rates)) if rates else None


@parser("measure_run", command("sas-advisor-measure"), commands=("sas-advisor-measure",))
def measure_run(section: Section) -> tuple[Throughput, ...]:
    """The collector's own --measure section: per-stream and total figures, read and
    write apart, with the tool, block size, streams, bytes and date."""
    if len(section.argv) != 2 or not section.argv[1].startswith("/"):
        raise Garbled("sas-advisor-measure names no directory", 0)
    settings = _settings(section.lines)
    streams, totals = _figures(section.lines)
    if not settings and not streams and not totals:
        raise Garbled("no --measure settings or figures", 0)
    count = settings.get("streams", "")
    block = settings.get("block_kb", "")
    caveat = next((line[6:] for line in section.lines if line.startswith("plan: ")), "")
    counted = int(count) if count.isdigit() and 0 < int(count) <= MAX_STREAMS else None
    return (
        Throughput(
            tool=settings.get("tool", "dd"),
            directory=section.argv[1],
            read_mb_s=_total(totals, "read"),
            write_mb_s=_total(totals, "write"),
            read_per_stream_mb_s=_per_stream(streams, "read"),
            write_per_stream_mb_s=_per_stream(streams, "write"),
            streams=counted,
            block_kb=float(block) if block.isdigit() and 0 < int(block) <= 65536 else None,
            date=settings.get("date", ""),
            per_stream=tuple(streams),
            caveat=caveat[:200] if "cache" in caveat else "",
            read_cached="cache" in caveat,  # the collector's measure_caveat, said of the read
        ),
    )
