"""Cut a collector bundle or a pasted terminal transcript into command sections.

A bundle (what `rules/collect/collector.sh` writes) opens with the line
`# sas-tuning-advisor bundle 1`; each command's output sits between `@@@ cmd: COMMAND`
and `@@@ end: rc=N`, and `@@@ skip: …` / `@@@ note: …` lines say what the collector left
out and why. Anything else is read as a transcript: a command line is a shell prompt
ending in `$ `, `# `, `> ` or `% ` followed by the command, and the lines up to the next
prompt are its output. A prompt with a user, host or path before the sign
(`[root@rhel9 ~]# `, `aix01:/> `, `bash-5.1$ `, `/# `) always starts a command; a bare
sign (`# lscpu`, `#lsattr`) before a program some parser reads, or before another command
once the paste uses it as its prompt (`rules.parse.transcript`), so the `# ` comments of a
printed configuration file stay output; a prompt with nothing after it ends the output
before it (`rules.parse.prompts`). What an output itself shows then reshapes the sections
(`rules.parse.reshape`): a one-line output ends before an unprompted command, a second
`lsattr -El` listing pasted into the first is cut off, a file whose lines are an output
some parser reads is read as that output.

Memory: the cleaned text is kept whole and each section is a span of it; a section's
lines are made only when it is read, at most MAX_OUTPUT_LINES of them (`Section.cut_at`
says where an output was cut, so its parser can say so rather than call it garbled).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.parse.prompts import Prompt, is_bare_last_line
from rules.parse.registry import Section, known_programs
from rules.parse.reshape import reshape
from rules.parse.spans import Span, argv_of
from rules.parse.transcript import Cutter
from rules.parse.unprompted import unprompted

BUNDLE_MAGIC = "# sas-tuning-advisor bundle "
MAX_BYTES = 16 * 1024 * 1024
MAX_LINE = 64 * 1024
# Commands read from one text: a 4,096-disk AIX server's bundle has about 9,000 sections.
# Past this the text is no server's reading, and each section costs a parser's run.
MAX_SECTIONS = 20_000
# Lines of one command's output: a 4,096-LUN server's lsdev or lsblk prints tens of
# thousands; past this the rest is left out with a note, which bounds one section's cost.
MAX_OUTPUT_LINES = 65_536
_LONG_OUTPUT = f"output past {MAX_OUTPUT_LINES:,} lines not read"
# A title sequence (ESC ] … BEL) stops at the next ESC: its scan never runs over another
# escape's start, so an unterminated one costs one pass, not one pass per ESC after it.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*\x07")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MARKER = re.compile(r"@@@ (cmd|end|skip|note): ?(.*)")
_MARK = "@@@ "
_HEADER_LINE = re.compile(r"^# ([^\n:]{1,200}): ([^\n]*)", re.MULTILINE)
MAX_HEADER_KEYS = 64  # lines read: a bundle header has about ten
# A carriage return run that ends a line (CRLF pastes, a console's CR CR LF); starts only at a
# run's first CR, so a run without a line end is scanned once.
_LINE_END_CR = re.compile(r"(?<!\r)\r+(?=\n|\Z)")
_RC = re.compile(r"rc=(\d{1,3})")


_TOO_MANY = f"every command from here on: more than {MAX_SECTIONS:,} in one text"


class TooLarge(ValueError):
    pass


@dataclass
class Header:
    """What a collector bundle says about itself (its `# key: value` lines)."""

    bundle: str = ""
    values: dict[str, str] = field(default_factory=dict)


@dataclass
class Split:
    """The text's sections as spans of its cleaned text: a section's lines are made when it
    is read (`each`), so a text of millions of short lines never becomes a list of them."""

    text: str = ""
    spans: list[Span] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, "smtctl: not found")
    notes: list[tuple[int, str]] = field(default_factory=list)
    header: Header | None = None  # None for a transcript
    prompts: list[Prompt] = field(default_factory=list)  # distinct prompts, first sight each
    open_line: int = 0  # the section that runs to the text's end with no prompt or end mark

    @property
    def sections(self) -> list[Section]:
        return list(self.each())

    def each(self) -> Iterator[Section]:
        for span in self.spans:
            yield self.section(span)

    def section(self, span: Span) -> Section:
        output = self.text[span.start : span.end]
        kept = output.rstrip()
        if not kept:
            return Section(span.command, span.argv, (), span.line, span.rc)
        # Up to the end of the last line with text (trailing blanks of that line stay).
        cut = output.find("\n", len(kept))
        lines = output[: len(output) if cut < 0 else cut].split("\n", MAX_OUTPUT_LINES)
        cut_at = 0
        if len(lines) > MAX_OUTPUT_LINES:
            lines.pop()
            cut_at = MAX_OUTPUT_LINES
            self.notes.append((span.line, f"`{span.command[:80]}`: {_LONG_OUTPUT}"))
        if max(map(len, lines)) > MAX_LINE:
            lines = [line[:MAX_LINE] for line in lines]
        return Section(span.command, span.argv, tuple(lines), span.line, span.rc, cut_at)


def clean(text: str) -> str:
    """The text without terminal colour codes or the carriage returns that end lines."""
    if len(text) > MAX_BYTES:
        raise TooLarge(f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = _LINE_END_CR.sub("", text)
    return text


def split(text: str) -> Split:
    text = clean(text)
    if text.lstrip().startswith(BUNDLE_MAGIC):
        return _bundle(text)
    return _transcript(text)


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _bundle(text: str) -> Split:
    magic = text.index(BUNDLE_MAGIC)
    header = Header(bundle=text[magic + len(BUNDLE_MAGIC) : _line_end(text, magic)].strip())
    out = Split(text=text, header=header)
    open_: tuple[str, int, int] | None = None  # command, its line, where its output starts
    outside = 0  # where the stretch outside any section began (header lines sit there)
    # Only the marker lines need a Python step; the output between them is never split.
    for number, start in _marker_lines(text):
        end = _line_end(text, start)
        found = _MARKER.fullmatch(text, start, end)
        if found is None:
            continue
        kind, rest = found.groups()
        if open_ is None and kind == "cmd":
            _header(header, text, outside, start)
        if open_ is not None and kind in ("cmd", "end"):
            rc = _rc(rest) if kind == "end" else None
            command, line, begin = open_
            out.spans.append(Span(command, argv_of(command), line, begin, start, rc))
            open_, outside = None, end
        if kind == "cmd" and len(out.spans) >= MAX_SECTIONS:
            out.skipped.append((number, _TOO_MANY))
            return out
        if kind == "cmd":
            open_ = (rest.strip(), number, end + 1)
        elif kind == "skip":
            out.skipped.append((number, rest.strip()))
        elif kind == "note":
            out.notes.append((number, rest.strip()))
    if open_ is not None:
        command, line, begin = open_
        out.spans.append(Span(command, argv_of(command), line, begin, len(text)))
        out.open_line = line
    else:
        _header(header, text, outside, len(text))
    return out


def _marker_lines(text: str) -> Iterator[tuple[int, int]]:
    """(1-based number, offset) of the lines that open with "@@@ ", found by str.find over
    the text: a test per line costs more than the line itself when lines are empty."""
    if text.startswith(_MARK):
        yield 1, 0
    number, at = 1, 0
    while (hit := text.find("\n" + _MARK, at)) >= 0:
        number += text.count("\n", at, hit + 1)
        at = hit + 1
        yield number, at


def _header(header: Header, text: str, start: int, end: int) -> None:
    """The `# key: value` lines outside the sections; the first of each key counts."""
    for n, found in enumerate(_HEADER_LINE.finditer(text, start, end)):
        if n >= MAX_HEADER_KEYS:
            return
        # The values name the bundle (its collector, its start) in drafts and sources the
        # contract holds to printable text: control characters never leave here.
        key, value = (_CONTROL.sub("", group).strip() for group in found.groups())
        header.values.setdefault(key, value)


def _rc(rest: str) -> int | None:
    found = _RC.search(rest)
    return int(found.group(1)) if found else None


def _transcript(text: str) -> Split:
    """Sections from the prompts (`rules.parse.transcript`) and, before the first of them,
    from command lines pasted without one (`rules.parse.unprompted`), then reshaped where
    an output shows more than its prompts do (`rules.parse.reshape`)."""
    cut = Cutter(text, known_programs(), MAX_SECTIONS, _TOO_MANY).cut()
    out = Split(text=text, skipped=cut.skipped, prompts=cut.prompts, open_line=cut.open_line)
    head = unprompted(text, _first_prompt(text, cut.spans), MAX_SECTIONS, out.notes)
    if head and not cut.spans and is_bare_last_line(text) is None:
        out.open_line = head[-1].line
    spans = head + cut.spans[: max(0, MAX_SECTIONS - len(head))]
    out.spans = reshape(text, spans, out.notes, MAX_SECTIONS)
    return out


def _first_prompt(text: str, spans: list[Span]) -> int:
    """Where the first prompted command's line starts; else where a bare prompt ending the
    paste does, else the text's end."""
    if spans:
        return text.rfind("\n", 0, max(0, spans[0].start - 1)) + 1
    bare = is_bare_last_line(text)
    return max(0, bare[1] - 1) if bare is not None else len(text)
