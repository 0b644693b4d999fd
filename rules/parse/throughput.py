"""What a measured sequential throughput reads into, whichever tool measured it.

The collector's `--measure` (dd or fio), SAS's `rhel_iotest.sh` and `iotest.sh` (and the
SAS Viya Perf Tool built on them) and `fio --output-format=json` all give, per directory
tested, a read and a write rate over some parallel streams. `Throughput` holds one such
measurement; rules.parse.combine_storage turns the lower of read and write, all streams
together, into the file system's `measured_mb_s`. MB/s are decimal megabytes (10^6 bytes)
a second, whatever the tool prints: SAS's scripts divide by 2^20 yet say "megabytes" or
"MB", so rules.parse.iotest multiplies by 1.048576, as rules.parse.diskspd does with
DiskSpd's MiB/s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_MB_S = 1e7  # the contract's bound on measured_mb_s
# The parsers whose readings are a `Throughput` each, in the order they are applied: a later
# one's figure for the same file system wins, so the collector's own measure is last.
THROUGHPUT_PARSERS = ("iotest", "fio", "diskspd", "sasiotest", "measure_run")


@dataclass(frozen=True)
class Stream:
    direction: str  # "read" or "write"
    index: int
    bytes: int
    seconds: float
    mb_s: float | None


@dataclass(frozen=True)
class Throughput:
    tool: str  # "dd", "fio-3.33", "rhel_iotest.sh", "iotest.sh", "viya_perf_tool.sh"
    directory: str  # where the files were ("" when the output does not say)
    read_mb_s: float | None  # all streams together
    write_mb_s: float | None
    read_per_stream_mb_s: float | None
    write_per_stream_mb_s: float | None
    streams: int | None
    block_kb: float | None
    date: str  # as the tool printed it, "" when it did not
    per_stream: tuple[Stream, ...] = ()
    caveat: str = ""  # why the figure may flatter the storage (page cache), if it may
    # The read may be the page (file) cache's, not the storage's: the collector's files
    # smaller than the RAM without direct I/O, DiskSpd without -Sh, sasiotest without -sgio.
    read_cached: bool = False
    # fio without direct=1: the bytes its best read group read, for the combine step to
    # weigh against the RAM (files smaller than the RAM may be read from the page cache).
    buffered_read_bytes: int | None = None

    def lower(self) -> float | None:
        """The lower of the read and write rates, all streams together."""
        rates = [r for r in (self.read_mb_s, self.write_mb_s) if r is not None]
        return min(rates) if rates else None


def rate(value: float | None) -> float | None:
    """A rate the contract can hold: finite, above zero, below MAX_MB_S; else None."""
    if value is None or not math.isfinite(value) or not 0 < value < MAX_MB_S:
        return None
    return value


def times(per_stream: float | None, streams: int | None) -> float | None:
    """All streams together from one stream's average."""
    if per_stream is None or streams is None:
        return None
    return rate(per_stream * streams)
