"""A SAS log, read line by line into its steps: name, data sets read and written, real
and CPU time, memory and the FULLSTIMER counters; its header (release, platform) and the
options its OPTIONS statements set.

Streaming and bounded: `LogReader.feed` takes one line at a time and holds only the step
being read, so `iter_steps` walks a log of any size in constant memory (rules.logs
diagnoses a log that way); `read_log` keeps the steps in a list, at most MAX_KEPT_STEPS of
them. Any text gives steps or line-numbered problems, never an exception
(tests/rules/parse hold it to that). The text is untrusted: lines are cut at MAX_LINE
characters, names and values at the lengths SAS allows, and every list a reader keeps
(problems, options, a step's data sets and notes) has a bound.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules.parse import saslog_lines as lines
from rules.parse.saslog_steps import DataSet, Header, Problem, SasLog, Step

__all__ = ["DataSet", "Header", "LogReader", "Problem", "SasLog", "Step", "iter_steps"]
__all__ += ["read_log"]

MAX_LINE = 4096  # SAS's own LINESIZE tops out at 256; longer lines are not log lines
MAX_PROBLEMS = 50
MAX_SHOWN = 40  # characters of an unreadable value quoted in its problem
MAX_CONTINUATION = 20  # lines a wrapped NOTE may run over
MAX_OPTION_LINES = 10  # lines an OPTIONS statement may run over
MAX_OPTIONS = 1000  # echoed options kept, the last ones (the last value of each counts)
MAX_OPTION_NAME = 32  # SAS's longest option names are shorter
MAX_VALUE = 200  # characters of an option's value kept
MAX_DATA_SETS = 1000  # data sets a step is said to read (and, apart, to write)
MAX_NOTES = 20  # sort and utility-file notes kept for a step
MAX_KEPT_STEPS = 10_000  # steps read_log keeps in its list (about 1 KB each)
# SAS names a data set libref.member: 8 + 1 + 32 characters; a longer name is not SAS's.
MAX_DATA_SET_NAME = 41
MAX_HEADER = 200  # characters of the platform and host kept
MAX_BUILD = 16  # "TS1M3", "TS2M0": a longer build is not one SAS prints
INDENT = (" ", "\t")
SORTISH = re.compile(r"[Ss]ort|[Uu]tility|threads")
ENDS = (".", ":")
MESSAGE_FIRST = frozenset("NWEI0123456789")  # what a line that matters between steps starts with
MESSAGE_PREFIXES = ("NOTE:", "WARNING:", "ERROR:", "INFO:", "NOTE ", "WARNING ", "ERROR ")


@dataclass
class _Building:
    name: str
    line: int
    stats: dict[str, Any] = field(default_factory=dict)


class LogReader:
    """Feed lines in order; steps come out as their footers end."""

    def __init__(self) -> None:
        self.header = Header()
        # (line, NAME, value) as echoed, the last MAX_OPTIONS of them
        self.options: deque[tuple[int, str, str]] = deque(maxlen=MAX_OPTIONS)
        self.options_seen = 0
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

    def log(self, steps: list[Step]) -> SasLog:
        """What the reader found, with the steps the caller kept."""
        return SasLog(
            self.header, steps, self.session, self.initialization, list(self.options),
            self.problems, self.fullstimer, self.line, self.steps,
        )  # fmt: skip

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
            self.header.host = text.strip()[:MAX_HEADER]
            self._host_next = False
            return
        if text[0].isdigit() and (source := lines.SOURCE.match(text)) is not None:
            self._source(source["code"])

    def _flush_message(self) -> None:
        message = " ".join(self._message)
        self._message = []
        if "observation" in message:
            if (found := lines.READ.match(message)) is not None:
                if len(self._reads) < MAX_DATA_SETS:
                    self._reads.append(DataSet(_name(found), _int(found["obs"])))
            elif (found := lines.WROTE.match(message)) is not None:
                self._wrote(found)
        elif message.startswith("NOTE: Table "):
            if (found := lines.TABLE.match(message)) is not None:
                self._wrote(found)
        elif message.startswith("NOTE: SAS (r)"):
            if (found := lines.RELEASE.match(message)) is not None:
                build = found["build"]
                self.header.release = found["release"]
                self.header.build = build[:MAX_BUILD] if build is not None else None
        elif message.startswith("NOTE: This session is executing"):
            if (found := lines.PLATFORM.match(message)) is not None:
                self.header.platform = found["platform"][:MAX_HEADER]
        elif message.startswith("NOTE: Additional host information"):
            self._host_next = True
        elif (
            len(self._notes) < MAX_NOTES
            and SORTISH.search(message)
            and lines.SORT_NOTES.search(message) is not None
        ):
            self._notes.append(message[:200])

    def _wrote(self, found: re.Match[str]) -> None:
        if len(self._writes) < MAX_DATA_SETS:
            obs, variables = _int(found["obs"]), _int(found["vars"])
            self._writes.append(DataSet(_name(found), obs, variables))

    def _source(self, code: str) -> None:
        if self._options:
            self._options.append(code)
        elif code.lstrip()[:7].lower() == "options" and lines.OPTIONS_START.match(code):
            self._options = [lines.OPTIONS_START.match(code)["rest"]]  # type: ignore[index]
        else:
            return
        if ";" in code or len(self._options) >= MAX_OPTION_LINES:
            for name, value in lines.options_in(" ".join(self._options)):
                self.options_seen += 1
                if self.options_seen == MAX_OPTIONS + 1:
                    self.problem(self.line, f"over {MAX_OPTIONS:,} options: the last kept")
                self.options.append((self.line, name[:MAX_OPTION_NAME], value[:MAX_VALUE]))
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
                self.problem(self.line, f"{key} {value[:MAX_SHOWN]!r} is not a figure SAS prints")
            return True
        parsed = reader[0](value)
        if parsed is None:
            self.problem(self.line, f"{key} {value[:MAX_SHOWN]!r} is not a figure SAS prints")
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


def _name(found: re.Match[str]) -> str:
    return found["name"][:MAX_DATA_SET_NAME].upper()


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


def read_log(source: Iterable[str] | str, keep: int = MAX_KEPT_STEPS) -> SasLog:
    """A whole log (text or an iterable of lines) with its first `keep` steps in a list;
    the steps past them are counted and named in a problem. (rules.logs.analyse_lines
    diagnoses every step of a log of any size without keeping them.)"""
    text_lines = source.splitlines() if isinstance(source, str) else source
    reader = LogReader()
    steps: list[Step] = []
    first_dropped = 0
    for step in iter_steps(text_lines, reader):
        if len(steps) < keep:
            steps.append(step)
        elif not first_dropped:
            first_dropped = step.line
    if first_dropped:
        reader.problem(
            first_dropped,
            f"{reader.steps:,} steps: the first {keep:,} are kept, the rest only counted",
        )
    return reader.log(steps)
