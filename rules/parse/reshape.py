"""What an output shows about its section that the prompts alone do not.

- A command whose output is one line (`uname -a`, `hostname`, `nproc`) ends after it: an
  unprompted line right after that names a program a parser reads (`nvme list`, typed
  where the prompt was lost) starts a section of its own, so its table is never read as
  the one-line command's (a host name `Generic` from nvme list's heading).
- `lsattr -El` prints each attribute once: a name printed again in one section is a second
  listing pasted into it (its command line lost or not seen as one). An `lsattr` command
  line inside starts a section; else the output is cut where the second listing starts
  and the rest is left out with a note, never read over the first device's values.
- A file printed under a name no parser knows (`cat etc/os-release`, `cat output.txt`)
  whose lines are unmistakably an output some parser reads is read as that output
  (`rules.parse.content`), with a note saying so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rules.parse.content import READERS, recognised
from rules.parse.registry import find, known_programs
from rules.parse.spans import Span, argv_of, program_of

# Commands that print one line (uname -a, -r, -s …; hostname, -s, -f; oslevel, -s, -r).
ONE_LINE = frozenset({"uname", "hostname", "nproc", "oslevel", "whoami", "arch", "getconf",
                      "pwd", "date"})  # fmt: skip
MAX_COMMAND = 200  # characters: a longer unprompted line is output, never a command
_COMMAND = re.compile(r"[a-z][\w.+-]{0,63}(?: [^\n]{0,200})?")


def reshape(text: str, spans: list[Span], notes: list[tuple[int, str]], limit: int) -> list[Span]:
    """The spans as their outputs show them; `notes` gets what was left out or read by
    content. At most `limit` spans."""
    out: list[Span] = []
    work = list(reversed(spans))
    while work:
        span = work.pop()
        program = program_of(span.argv)
        parts: list[Span] = [span]
        if len(out) + len(work) < limit:
            if program in ONE_LINE:
                parts = _one_line(text, span)
            elif program == "lsattr" and any(a.startswith("-E") for a in span.argv[1:]):
                parts = _lsattr(text, span, notes)
            elif program in READERS and find(span.argv) is None:
                parts = recognised(text, span, notes)
        out.append(parts[0])
        work.extend(reversed(parts[1:]))
    return out


def _lines(text: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """(offset from the output's first line, start offset, line) of each line in a span."""
    at, index = start, 0
    while at < end:
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop
        yield index, at, text[at:stop]
        at, index = stop + 1, index + 1


def _one_line(text: str, span: Span) -> list[Span]:
    """The span cut after its one output line where a known command follows unprompted."""
    printed = False
    for index, at, line in _lines(text, span.start, span.end):
        if not line.strip():
            continue
        if not printed:
            printed = True
            continue
        command = line.rstrip()
        argv = argv_of(command) if _COMMAND.fullmatch(command) else ()
        if program_of(argv) not in known_programs() or find(argv) is None:
            return [span]
        stop = text.find("\n", at, span.end)
        begin = span.end if stop < 0 else stop + 1
        return [_head(span, at), Span(command, argv, span.line + 1 + index, begin, span.end)]
    return [span]


def _lsattr(text: str, span: Span, notes: list[tuple[int, str]]) -> list[Span]:
    """The span cut where a second listing starts (see the module's docstring)."""
    names: dict[str, int] = {}
    starts: dict[int, int] = {}  # output line → its offset
    previous, ordered_from = "", 0  # where the run of names in increasing order began
    for index, at, line in _lines(text, span.start, span.end):
        words = line.split()
        if not words or line[:1].isspace():
            continue
        starts[index] = at
        if words[0] == "lsattr" and index > 0:
            stop = text.find("\n", at, span.end)
            begin = span.end if stop < 0 else stop + 1
            command = line.strip()
            tail = Span(command, argv_of(command), span.line + 1 + index, begin, span.end)
            return [_head(span, at), tail]
        if words[0] in names:
            first = names[words[0]]
            cut = ordered_from if first < ordered_from <= index else index
            _note_left_out(span, words[0], (first, index, cut), notes)
            return [_head(span, starts[cut])]
        if words[0] < previous:
            ordered_from = index
        names[words[0]], previous = index, words[0]
    return [span]


def _head(span: Span, at: int) -> Span:
    """The span up to the line starting at offset `at`."""
    return Span(span.command, span.argv, span.line, span.start, max(span.start, at - 1))


def _note_left_out(
    span: Span, name: str, where: tuple[int, int, int], notes: list[tuple[int, str]]
) -> None:
    """A second listing from where the attributes' order (lsattr prints them sorted)
    started over, else from the repeated name's line."""
    first, again, cut = (span.line + 1 + i for i in where)
    notes.append((cut, f"`{span.command[:80]}` prints `{name}` twice (lines {first} and "
                       f"{again}): from line {cut} on it is another listing pasted without "
                       "its command line, and is left out"))  # fmt: skip
