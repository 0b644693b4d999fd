"""A SAS log, read line by line into its steps: name, data sets read and written, real
and CPU time, memory and the FULLSTIMER counters; its header (release, platform) and the
options its OPTIONS statements set.

Streaming and bounded: `LogReader.feed` takes one line at a time and holds only the step
being read, so `iter_steps` walks a log of any size in constant memory. Any text gives
steps or line-numbered problems, never an exception (tests/rules/parse hold it to that).
The text is untrusted: lines are cut at MAX_LINE characters, problems at MAX_PROBLEMS.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from rules.parse import saslog_lines as lines

MAX_LINE = 4096  # SAS's own LINESIZE tops out at 256; longer lines are not log lines
MAX_PROBLEMS = 50
MAX_CONTINUATION = 20  # lines a wrapped NOTE may run over
MAX_OPTION_LINES = 10  # lines an OPTIONS statement may run over
INDENT = (" ", "\t")
SORTISH = re.compile(r"[Ss]ort|[Uu]tility|threads")
ENDS = (".", ":")
MESSAGE_FIRST = frozenset("NWEI0123456789")  # what a line that matters between steps starts with
MESSAGE_PREFIXES = ("NOTE:", "WARNING:", "ERROR:", "INFO:", "NOTE ", "WARNING ", "ERROR ")


class DataSet(NamedTuple):
    name: str
    observations: int
    variables: int | None = None


class Step(NamedTuple):
    """One step's footer and what its NOTEs said. Times in seconds, memory in KB; None
    where the log does not say (STIMER has no user/system split, Windows no page faults)."""

    number: int
    name: str  # "DATA step", "PROC SORT"
    line: int  # the log line of its "NOTE: … used" footer
    real: float | None = None
    user_cpu: float | None = None
    system_cpu: float | None = None
    stimer_cpu: float | None = None  # STIMER's single "cpu time"
    memory_kb: float | None = None
    os_memory_kb: float | None = None
    timestamp: datetime | None = None
    page_faults: int | None = None
    page_reclaims: int | None = None
    page_swaps: int | None = None
    voluntary_switches: int | None = None
    involuntary_switches: int | None = None
    block_input: int | None = None
    block_output: int | None = None
    reads: tuple[DataSet, ...] = ()
    writes: tuple[DataSet, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def cpu(self) -> float | None:
        """User plus system CPU (FULLSTIMER), or STIMER's cpu time."""
        if self.user_cpu is not None or self.system_cpu is not None:
            return (self.user_cpu or 0.0) + (self.system_cpu or 0.0)
        return self.stimer_cpu

    @property
    def proc(self) -> str:
        """'SORT' for PROC SORT, 'DATA' for a DATA step."""
        return self.name.removeprefix("PROC ") if self.name.startswith("PROC ") else "DATA"


class Problem(NamedTuple):
    line: int
    message: str


@dataclass
class Header:
    release: str | None = None  # "9.4", "9.1", "8.2"
    build: str | None = None  # "TS1M3"
    platform: str | None = None  # "Linux 3.10.0-327.el7.x86_64 (LIN X64)", "X64_7PRO"
    host: str | None = None  # "Additional host information"

    @property
    def version(self) -> str | None:
        """'9.1.3' for 9.1 TS1M3, '9.4M3' for 9.4 TS1M3, the release otherwise."""
        if self.release is None:
            return None
        maint = self.build[4:] if self.build and self.build[:4] in ("TS1M", "TS2M") else ""
        if self.release == "9.1" and maint:
            return f"9.1.{maint}"
        return f"{self.release}M{maint}" if maint and self.release >= "9.2" else self.release

    @property
    def os(self) -> str | None:
        """'windows' or 'unix' from the platform name SAS prints."""
        if not self.platform:
            return None
        head = self.platform.split()[0].upper()
        windows = ("X64_", "W32_", "XP_", "WIN", "NET_", "WX6", "XP", "X86")
        return "windows" if head.startswith(windows) else "unix"


@dataclass
class _Building:
    name: str
    line: int
    stats: dict[str, Any] = field(default_factory=dict)


class LogReader:
    """Feed lines in order; steps come out as their footers end."""

    def __init__(self) -> None:
        self.header = Header()
        self.options: list[tuple[int, str, str]] = []  # (line, NAME, value) as echoed
        self.problems: list[Problem] = []
        self.session: Step | None = None
        self.initialization: Step | None = None
        self.fullstimer = False
        self.line = 0
        self.steps = 0
        self._block: _Building | None = None
        self._message: list[str] = []
        self._message_line = 0
        self._reads: list[DataSet] = []
        self._writes: list[DataSet] = []
        self._notes: list[str] = []
        self._options: list[str] = []
        self._host_next = False
        self.idle = True  # no step, message, OPTIONS statement or host line under way

    def problem(self, line: int, message: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(line, message))

    def feed(self, raw: str) -> Step | None:
        """Read one line; the step its arrival completed, if any. (The hot path of a 100 MB
        log: cheap character tests come before any regular expression.)"""
        self.line += 1
        text = raw.rstrip("\r\n")
        if "\f" in text or "\x00" in text:
            text = text.replace("\f", "").replace("\x00", "")
        if len(text) > MAX_LINE:
            self.problem(self.line, f"line is {len(text)} characters; read the first {MAX_LINE}")
            text = text[:MAX_LINE]
        indented = text[:1] in INDENT
        done: Step | None = None
        if self._block is not None:
            if indented and self._stat(text):
                return None
            done = self._close_block()
        if self._message:
            stripped = text.strip() if indented else ""
            if (
                stripped
                and self._message[-1][-1:] not in ENDS
                and len(self._message) < MAX_CONTINUATION
            ):
                self._message.append(stripped)
                return done
            self._flush_message()
        if text:
            self._line(text)
        self.idle = (
            self._block is None and not self._message and not self._options
            and not self._host_next
        )  # fmt: skip
        return done

    def close(self) -> Step | None:
        """End of the log: the step still open, if any."""
        done = self._close_block() if self._block is not None else None
        if self._message:
            self._flush_message()
        if not self.steps and self.session is None:
            self.problem(
                max(self.line, 1),
                "no step timing found: the log was written with NOSTIMER, or is not a SAS "
                "log; run with -FULLSTIMER for real time, CPU, memory and I/O per step",
            )
        return done

    def _line(self, text: str) -> None:
        if text.startswith(MESSAGE_PREFIXES):
            footer = lines.FOOTER.match(text) if " used" in text else None
            if footer is not None:
                self._block = _Building(lines.step_name(footer), self.line)
                return
            self._message = [text.rstrip()]
            self._message_line = self.line
            return
        if self._host_next and text.startswith(" ") and text.strip():
            self.header.host = text.strip()
            self._host_next = False
            return
        if text[0].isdigit() and (source := lines.SOURCE.match(text)) is not None:
            self._source(source["code"])

    def _flush_message(self) -> None:
        message = " ".join(self._message)
        self._message = []
        if "observation" in message:
            if (found := lines.READ.match(message)) is not None:
                self._reads.append(DataSet(found["name"].upper(), _int(found["obs"])))
            elif (found := lines.WROTE.match(message)) is not None:
                self._wrote(found)
        elif message.startswith("NOTE: Table "):
            if (found := lines.TABLE.match(message)) is not None:
                self._wrote(found)
        elif message.startswith("NOTE: SAS (r)"):
            if (found := lines.RELEASE.match(message)) is not None:
                self.header.release, self.header.build = found["release"], found["build"]
        elif message.startswith("NOTE: This session is executing"):
            if (found := lines.PLATFORM.match(message)) is not None:
                self.header.platform = found["platform"]
        elif message.startswith("NOTE: Additional host information"):
            self._host_next = True
        elif SORTISH.search(message) and lines.SORT_NOTES.search(message) is not None:
            self._notes.append(message[:200])

    def _wrote(self, found: re.Match[str]) -> None:
        name, obs, variables = found["name"].upper(), _int(found["obs"]), _int(found["vars"])
        self._writes.append(DataSet(name, obs, variables))

    def _source(self, code: str) -> None:
        if self._options:
            self._options.append(code)
        elif code.lstrip()[:7].lower() == "options" and lines.OPTIONS_START.match(code):
            self._options = [lines.OPTIONS_START.match(code)["rest"]]  # type: ignore[index]
        else:
            return
        if ";" in code or len(self._options) >= MAX_OPTION_LINES:
            for name, value in lines.options_in(" ".join(self._options)):
                self.options.append((self.line, name, value))
            self._options = []

    def _stat(self, text: str) -> bool:
        found = lines.stat(text)
        if found is None:
            return False
        assert self._block is not None
        key, value = found
        reader = lines.READERS.get(key)
        if reader is None:  # "Step Count 26  Switch Count 0": nothing a step keeps
            parsed: Any = {} if lines.STEP_COUNT.match(value) else None
            if parsed is None:
                self.problem(self.line, f"{key} {value!r} is not a figure SAS prints")
            return True
        parsed = reader[0](value)
        if parsed is None:
            self.problem(self.line, f"{key} {value!r} is not a figure SAS prints")
        else:
            self._block.stats[reader[1]] = parsed
        return True

    def _close_block(self) -> Step | None:
        block, self._block = self._block, None
        assert block is not None
        if "user_cpu" in block.stats:
            self.fullstimer = True
        if block.name in ("SAS session", "SAS initialization"):
            step = Step(0, block.name, block.line, **block.stats)
            if block.name == "SAS session":
                self.session = step
            else:
                self.initialization = step
            return None
        self.steps += 1
        step = Step(
            self.steps,
            block.name,
            block.line,
            reads=tuple(self._reads),
            writes=tuple(self._writes),
            notes=tuple(self._notes),
            **block.stats,
        )
        self._reads, self._writes, self._notes = [], [], []
        return step


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def iter_steps(source: Iterable[str], reader: LogReader | None = None) -> Iterator[Step]:
    """Every step of a log, as read; `reader` keeps the header, options and problems."""
    reader = reader if reader is not None else LogReader()
    feed = reader.feed
    for raw in source:
        # Between steps most lines (program source, output, MPRINT) say nothing a step
        # needs: count them and move on without the full reading.
        if (
            reader.idle
            and len(raw) <= MAX_LINE
            and (
                raw[:1] not in MESSAGE_FIRST
                or (raw[:1].isdigit() and "ption" not in raw and "PTION" not in raw)
            )
        ):
            reader.line += 1
            continue
        step = feed(raw)
        if step is not None:
            yield step
    last = reader.close()
    if last is not None:
        yield last


@dataclass
class SasLog:
    header: Header
    steps: list[Step]
    session: Step | None
    initialization: Step | None
    options: list[tuple[int, str, str]]
    problems: list[Problem]
    fullstimer: bool
    lines: int


def read_log(source: Iterable[str] | str) -> SasLog:
    """A whole log (text or an iterable of lines) with its steps in a list."""
    text_lines = source.splitlines() if isinstance(source, str) else source
    reader = LogReader()
    steps = list(iter_steps(text_lines, reader))
    return SasLog(
        reader.header,
        steps,
        reader.session,
        reader.initialization,
        reader.options,
        reader.problems,
        reader.fullstimer,
        reader.line,
    )
