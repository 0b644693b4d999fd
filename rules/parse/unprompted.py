"""Command lines pasted without a prompt: a runbook's or a `script` log's `df -h`, then its
output, then `lsblk`, then its output, with no `[root@host ~]# ` before them.

Before a paste's first prompted command (the whole paste where it has none) a line is a
command where it is exactly a command some parser reads (`df -h`, `lsblk -f`, `cat
/proc/mdstat`, `sudo mdadm --detail /dev/md126`, `cd /opt/sastsst && ./rhel_iotest.sh`:
a lower-case program name at the line's start, no blank before it, the command after a
leading `cd` chain or wrapper as `rules.parse.spans` reads it) and the lines under it, up
to the next such line, are that command's output: its parser reads them and finds
something in them, and they do not open with another typed command line (`smartctl -a
/dev/sda`: a runbook's next step). So
a line that only looks like a command (a runbook's `lsblk` with no output under it) is
never one: a line that fails this stays the output of the command above it. Each command
read so is a section as if a prompt stood before it, and a note names them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import Any

from rules.parse.registry import Garbled, Section, find, known_programs
from rules.parse.spans import LEADERS, Span, argv_of, program_of

MAX_COMMAND = 200  # characters: a longer line is output, never a command line
MAX_CANDIDATES = 1024  # command-looking lines tried in one paste (each costs a parse)
PROBE_LINES = 64  # output lines a command line's parser reads to tell its output
MAX_NAMED = 3  # commands the note names
_COMMAND = re.compile(r"[a-z][\w.+-]{0,63}(?: [^\n]{0,200})?")
# A typed command line (`smartctl -a /dev/nvme0n1`, `lshw -class disk`): no output opens
# so, a runbook's next step does.
_TYPED = re.compile(r"(?:sudo )?[a-z][\w.+-]{0,63} -\S")


@dataclasses.dataclass(frozen=True)
class _Line:
    number: int
    start: int  # offset of the line
    end: int  # offset of its end (the newline or the stretch's end)
    command: str
    argv: tuple[str, ...]


def unprompted(text: str, end: int, limit: int, notes: list[tuple[int, str]]) -> list[Span]:
    """The sections of unprompted command lines in text[:end] (see the module's
    docstring), at most `limit` of them; `notes` gets one naming them."""
    found, end, past = _candidates(text, end)
    if past:
        notes.append((past, f"from line {past} on not read: more than {MAX_CANDIDATES:,} "
                            "command lines without a prompt"))  # fmt: skip
    kept = [c for i, c in enumerate(found) if _reads(text, c, _stop(found, i, end))][:limit]
    spans = []
    for i, line in enumerate(kept):
        stop = kept[i + 1].start - 1 if i + 1 < len(kept) else end
        begin = min(line.end + 1, stop)
        spans.append(Span(line.command, line.argv, line.number, begin, max(begin, stop)))
    if kept:
        named = ", ".join(f"`{k.command[:80]}` (line {k.number})" for k in kept[:MAX_NAMED])
        more = f" and {len(kept) - MAX_NAMED} more" if len(kept) > MAX_NAMED else ""
        notes.append((kept[0].number, f"no prompt before the commands: {named}{more} read "
                                      "as command lines by the output under them"))  # fmt: skip
    return spans


def _candidates(text: str, end: int) -> tuple[list[_Line], int, int]:
    """Lines of text[:end] that are exactly a command some parser reads, at most
    MAX_CANDIDATES of them; where the stretch they are read in ends (before the first
    command line past that many, which no section runs over) and that line's number (0
    where there is none)."""
    found: list[_Line] = []
    for line in _command_lines(text, end):
        if len(found) == MAX_CANDIDATES:
            return found, max(0, line.start - 1), line.number
        found.append(line)
    return found, end, 0


def _command_lines(text: str, end: int) -> Iterator[_Line]:
    programs = known_programs()
    heads = programs | LEADERS
    number, at = 1, 0
    while at < end:
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop
        head = text[at : min(stop, at + 80)].split(" ", 1)[0]
        if head[:1].islower() and head.rsplit("/", 1)[-1] in heads:
            command = text[at:stop].rstrip()
            if len(command) <= MAX_COMMAND and _COMMAND.fullmatch(command):
                argv = argv_of(command)
                if program_of(argv) in programs and find(argv) is not None:
                    yield _Line(number, at, stop, command, argv)
        number, at = number + 1, stop + 1


def _stop(found: list[_Line], index: int, end: int) -> int:
    return found[index + 1].start - 1 if index + 1 < len(found) else end


def _reads(text: str, line: _Line, stop: int) -> bool:
    """Whether the lines under a command line are its output: its parser reads the first
    PROBE_LINES of them and finds something."""
    lines = text[min(line.end + 1, stop) : stop].rstrip().split("\n", PROBE_LINES)[:PROBE_LINES]
    first = next((x for x in lines if x.strip()), None)
    if first is None or _TYPED.match(first):
        return False
    reader = find(line.argv)
    if reader is None:
        return False
    try:
        value = reader.fn(Section(line.command, line.argv, tuple(lines), line.number))
    except Garbled:
        return False
    return says_something(value)


def says_something(value: Any) -> bool:
    """Whether a parser's value holds anything read: a field set, a row, a key."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float):
        return value != 0
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, Mapping | list | tuple | set | frozenset):
        return len(value) > 0
    if dataclasses.is_dataclass(value):
        return any(says_something(getattr(value, f.name)) for f in dataclasses.fields(value))
    return True
