"""Parser: `fio --output-format=json` (or json+), as pasted or as the collector runs it.

fio prints one JSON document (fio's HOWTO, "JSON output"): "fio version", "time",
"global options" and "jobs", each job with its "jobname", "groupid", "job options"
and "read"/"write" blocks holding "io_bytes", "bw_bytes" (bytes/s; fio before 3.2 gives
only "bw", KiB/s) and "runtime" (ms). Lines before it ("fio: terminating on signal 2", a
job's banner) and after it are skipped. Jobs of one group run side by side, so a
direction's figure is the sum of its jobs in a group (the best group where stonewalled
groups ran apart); random-access jobs count only where no sequential one was run.
The directory is the job's or the global "directory", else the directory of an absolute
"filename" (a raw device under /dev/ is no file system's).

An output cut at the line limit (`Section.cut_at`: 300 jobs without --group_reporting
print some 75,000 lines) ends inside the document; the problem says so, and how to make
fio print less, rather than calling it garbled. The document is at most MAX_CHARS
characters and MAX_DEPTH deep, checked by one pass before json.loads, so a hostile paste
costs linear time and bounded memory.
"""

from __future__ import annotations

import json
import posixpath
from collections import defaultdict
from typing import Any

from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.throughput import Stream, Throughput, rate

MAX_CHARS = 8_000_000
MAX_DEPTH = 32
MAX_JOBS = 4096
RANDOM = ("randread", "randwrite", "randrw", "trim", "randtrim")


def _is_json_fio(argv: Argv) -> bool:
    if not argv or argv[0].rsplit("/", 1)[-1] != "fio":
        return False
    words = list(argv[1:])
    for i, word in enumerate(words):
        if word.startswith("--output-format="):
            return "json" in word.split("=", 1)[1].split(",")[0]
        if word == "--output-format" and i + 1 < len(words):
            return words[i + 1].startswith("json")
    return False


def _depth_ok(text: str) -> bool:
    """Whether no object or array nests deeper than MAX_DEPTH (strings skipped)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif char in "]}":
            depth -= 1
    return True


def _cut(cut_at: int) -> str:
    """What a JSON document cut at the output's line limit is, and how to make it fit."""
    return (
        f"the JSON is longer than the {cut_at:,} lines read, so it ends unfinished: fio "
        "prints one result a job; run it with --group_reporting (one result a job group) "
        "or with fewer jobs"
    )


def _document(lines: tuple[str, ...], cut_at: int = 0) -> dict[str, Any]:
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("{")), None)
    if start is None:
        raise Garbled("no JSON document (fio --output-format=json prints one)", 0)
    text = "\n".join(lines[start:])
    if len(text) > MAX_CHARS:
        raise Garbled(f"the JSON is longer than {MAX_CHARS} characters", start)
    if not _depth_ok(text):
        raise Garbled(f"the JSON nests deeper than {MAX_DEPTH} levels", start)
    try:
        doc, _ = json.JSONDecoder().raw_decode(text.lstrip())
    except (ValueError, RecursionError) as exc:
        if cut_at:
            raise Garbled(_cut(cut_at), len(lines) - 1) from None
        line = getattr(exc, "lineno", 1)
        raise Garbled(f"not fio's JSON: {str(exc)[:80]}", start + line - 1) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), list):
        raise Garbled('fio\'s JSON has no "jobs" list', start)
    return doc


def _options(doc: dict[str, Any], job: dict[str, Any]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for block in (doc.get("global options"), job.get("job options")):
        if isinstance(block, dict):
            merged.update({str(k): str(v)[:300] for k, v in block.items()})
    return merged


def _directory(options: dict[str, str]) -> str:
    if options.get("directory", "").startswith("/"):
        return options["directory"].split(":", 1)[0].rstrip("/") or "/"
    name = options.get("filename", "").split(":", 1)[0]
    if name.startswith("/") and not name.startswith("/dev/"):
        return posixpath.dirname(name)
    return ""


def _number(block: dict[str, Any], key: str) -> float | None:
    value = block.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < 1e18 else None


def _stream(block: Any, way: str, index: int) -> Stream | None:
    if not isinstance(block, dict):
        return None
    moved, runtime = _number(block, "io_bytes"), _number(block, "runtime")
    bw_bytes, bw_kib = _number(block, "bw_bytes"), _number(block, "bw")
    if not moved:
        return None
    per_second = bw_bytes if bw_bytes is not None else (bw_kib or 0) * 1024
    return Stream(way, index, int(moved), (runtime or 0) / 1000, rate(per_second / 1e6))


def _block_kb(options: dict[str, str]) -> float | None:
    text = options.get("bs", "").split(",")[0].strip().lower().rstrip("b").rstrip("i")
    units = {"k": 1, "m": 1024, "g": 1024 * 1024}
    if text[-1:] in units and text[:-1].isdigit():
        return float(int(text[:-1]) * units[text[-1]])
    return int(text) / 1024 if text.isdigit() and int(text) < 2**40 else None


def _jobs(doc: dict[str, Any]) -> list[tuple[str, int, bool, dict[str, str], list[Stream]]]:
    """(directory, group, sequential, options, streams) a job."""
    out = []
    for index, job in enumerate(doc["jobs"][:MAX_JOBS], start=1):
        if not isinstance(job, dict):
            continue
        options = _options(doc, job)
        way = options.get("rw", options.get("readwrite", "read"))
        group = job.get("groupid", 0)
        streams = [s for w in ("read", "write") if (s := _stream(job.get(w), w, index))]
        out.append((_directory(options), group if isinstance(group, int) else 0,
                    way not in RANDOM, options, streams))  # fmt: skip
    return out


def _buffered_read(streams: list[tuple[int, Stream]], jobs: list[Any]) -> int | None:
    """The bytes the best read group (as `_best` picks it) read without direct I/O; None
    where a read job ran with direct=1 (its figure is the storage's whatever the size)."""
    if any(j[3].get("direct", "0").strip() == "1" for j in jobs if j[4]):
        return None
    groups: dict[int, list[Stream]] = defaultdict(list)
    for group, s in streams:
        if s.direction == "read" and s.mb_s is not None:
            groups[group].append(s)
    if not groups:
        return None
    best = max(groups.values(), key=lambda g: sum(s.mb_s or 0 for s in g))
    return sum(s.bytes for s in best) or None


def _best(streams: list[tuple[int, Stream]], way: str) -> tuple[float | None, float | None]:
    """(the best group's sum, its average a stream) for one direction."""
    groups: dict[int, list[float]] = defaultdict(list)
    for group, s in streams:
        if s.direction == way and s.mb_s is not None:
            groups[group].append(s.mb_s)
    if not groups:
        return None, None
    best = max(groups.values(), key=sum)
    return rate(sum(best)), rate(sum(best) / len(best))


def _measurement(doc: dict[str, Any], directory: str, jobs: list[Any]) -> Throughput:
    sequential = [j for j in jobs if j[2]] or jobs
    streams = [(j[1], s) for j in sequential for s in j[4]]
    read, read_each = _best(streams, "read")
    write, write_each = _best(streams, "write")
    counts = [len([s for _, s in streams if s.direction == w]) for w in ("read", "write")]
    return Throughput(
        tool=str(doc.get("fio version", "fio"))[:40],
        directory=directory,
        read_mb_s=read,
        write_mb_s=write,
        read_per_stream_mb_s=read_each,
        write_per_stream_mb_s=write_each,
        streams=max(counts) or None,
        block_kb=_block_kb(sequential[0][3]),
        date=str(doc.get("time", ""))[:40],
        per_stream=tuple(s for _, s in streams),
        buffered_read_bytes=_buffered_read(streams, sequential),
    )


BARE_COMMAND = "fio --output-format=json"


def _is_version_key(line: str) -> bool:
    key, colon, _ = line.strip().partition(":")
    return bool(colon) and key.strip() == '"fio version"'


def bare_json(text: str) -> Section | None:
    """fio's JSON pasted or uploaded alone, with no command line above it (a saved
    `--output=result.json`), as the section its command would have printed; None for
    any other text. Known by the document's opening brace and its "fio version" key."""
    body = text.lstrip("\ufeff \t\r\n")
    head = body[:4096].splitlines()
    if not body.startswith("{") or not any(_is_version_key(line) for line in head):
        return None
    first = text[: len(text) - len(body)].count("\n") + 1
    lines = tuple(body.replace("\r\n", "\n").split("\n"))
    return Section(BARE_COMMAND, ("fio", "--output-format=json"), lines, first, typed=False)


@parser("fio", _is_json_fio, commands=("fio",))
def fio(section: Section) -> tuple[Throughput, ...]:
    doc = _document(section.lines, section.cut_at)
    by_directory: dict[str, list[Any]] = defaultdict(list)
    for job in _jobs(doc):
        by_directory[job[0]].append(job)
    if not any(job[4] for jobs in by_directory.values() for job in jobs):
        raise Garbled("fio's JSON has no job that read or wrote anything", 0)
    return tuple(_measurement(doc, d, jobs) for d, jobs in by_directory.items())
