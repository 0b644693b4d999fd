"""Parsers of real command output, and the combiner that turns them into a draft inventory.

    text (collector bundle or pasted transcript)
      → sections.split        one Section per command
      → registry parsers      one small function per command → its own small value
      → Parsed                repeated sections merged or the most complete one kept
      → combine.draft         a draft inventory, where each field came from, what is missing

Everything here treats its input as untrusted text: size-limited, matched against what
the commands print, never executed. A section no parser knows is listed, not fatal; a
section a parser cannot read is a problem with its line number; a section read and not
used is named in a note.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rules.parse import (  # noqa: F401  (registers)
    aix,
    linux,
    measure,
    sasfiles,
    solaris,
    windows_disks,
    windows_fsinfo,
    windows_system,
    windows_volumes,
)
from rules.parse.cutoff import seems_cut, seems_wrapped
from rules.parse.draft import Draft
from rules.parse.duplicates import settle
from rules.parse.fio import bare_json
from rules.parse.prompts import Prompt
from rules.parse.registry import Garbled, Section, find
from rules.parse.sections import Header, TooLarge, split

__all__ = ["Draft", "LineProblem", "Parsed", "TooLarge", "UndeclaredRead", "draft", "parse_text"]
# Output lines a read section keeps for the combiners (the header rows some of them look
# at); the rest was read by its parser and is let go, so what a parse holds is bounded by
# its values, not by the text's lines.
KEPT_LINES = 8
_DIGITS = b"0123456789"


@dataclass(frozen=True)
class LineProblem:
    line: int
    command: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "command": self.command, "message": self.message}


@dataclass(frozen=True)
class Found:
    section: Section  # the command, its line, its first KEPT_LINES output lines
    value: Any
    size: int = 0  # the output's lines as read
    digits: int = 0  # and digits: `free` says more than `free -h` in as many lines
    filtered: str = ""  # why it shows less than the whole command does ('| grep', '-d')
    also: tuple[Section, ...] = ()  # further sections merged into this value
    # Of a merged mapping, the section each entry was read from: (key,) or (device, attribute)
    origins: Mapping[tuple[str, ...], Section] = field(default_factory=dict, compare=False)


@dataclass
class Parsed:
    found: MutableMapping[str, list[Found]] = field(default_factory=lambda: defaultdict(list))
    unknown: list[tuple[int, str]] = field(default_factory=list)  # (line, command)
    problems: list[LineProblem] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)
    header: Header | None = None
    prompts: list[Prompt] = field(default_factory=list)
    unused: list[tuple[int, str, str]] = field(default_factory=list)  # (line, command, why)
    cut_off: list[tuple[int, str]] = field(default_factory=list)  # (line, command)

    def first(self, name: str) -> Found | None:
        """The most complete reading of `name` (merged where its sections add up)."""
        found = self.found.get(name)
        return found[0] if found else None

    def all(self, name: str) -> list[Found]:
        """Every reading of `name` kept: one per device or operand, in input order."""
        return self.found.get(name, [])

    def only(self, names: frozenset[str], reader: str) -> Parsed:
        """This parse as the combiner `reader` sees it: its readings of `names` only
        (`rules.parse.wiring.reads`). Notes and problems it adds are this parse's."""
        base = getattr(self, "base", self)  # a combiner called by another reads its own
        view = object.__new__(ParsedView)
        view.__dict__.update(base.__dict__)
        view.found = _Declared(base.found, names, reader)
        view.base = base
        return view


class UndeclaredRead(RuntimeError):
    """A combiner read a parser it does not declare: a programming error, never input's."""


class ParsedView(Parsed):
    """A Parsed whose `found` answers only for one combiner's declared parsers."""

    base: Parsed


class _Declared(MutableMapping[str, list[Found]]):
    """`Parsed.found` as one combiner sees it: reading another parser raises."""

    __slots__ = ("_found", "_names", "_reader")

    def __init__(self, found: MutableMapping[str, list[Found]], names: frozenset[str], reader: str):
        self._found, self._names, self._reader = found, names, reader

    def _check(self, name: object) -> None:
        if name not in self._names:
            raise UndeclaredRead(
                f"combiner {self._reader} reads undeclared parser {name!r}: declare it in @reads"
            )

    def get(self, name: str, default: Any = None) -> Any:
        self._check(name)
        return self._found.get(name, default)

    def __getitem__(self, name: str) -> list[Found]:
        self._check(name)
        return self._found[name]

    def __contains__(self, name: object) -> bool:
        self._check(name)
        return name in self._found

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._found if name in self._names)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __setitem__(self, name: str, value: list[Found]) -> None:
        raise UndeclaredRead(f"combiner {self._reader} replaces the readings of {name!r}")

    def __delitem__(self, name: str) -> None:
        raise UndeclaredRead(f"combiner {self._reader} drops the readings of {name!r}")


def parse_text(text: str) -> Parsed:
    """Every section of `text` read by its parser. Raises TooLarge over the size limit."""
    cut = split(text)
    out = Parsed(skipped=cut.skipped, notes=cut.notes, header=cut.header, prompts=cut.prompts)
    sections = list(cut.each())
    if not sections and (bare := bare_json(text)) is not None:
        sections = [bare]
        out.notes.append((bare.line, "read as fio's JSON output (no command line above it)"))
    for section in sections:
        reader = find(section.argv)
        if reader is None:
            out.unknown.append((section.line, section.command))
            continue
        _completeness(out, section, reader.name, section.line == cut.open_line)
        try:
            value = reader.fn(section)
        except Garbled as exc:
            line = section.line_of(exc.offset)
            out.problems.append(LineProblem(line, section.command, exc.message))
            continue
        size, digits = len(section.lines), _digits(section.lines)
        out.found[reader.name].append(Found(_kept(section), value, size, digits))
    settle(out)
    return out


def _kept(section: Section) -> Section:
    """The section as its reading keeps it: its first KEPT_LINES lines, typed; a short
    typed output is kept as it is rather than copied."""
    if len(section.lines) <= KEPT_LINES and section.typed and not section.cut_at:
        return section
    return Section(
        section.command, section.argv, section.lines[:KEPT_LINES], section.line, section.rc
    )


def _digits(lines: tuple[str, ...]) -> int:
    """The ASCII digits of the output: counted in its UTF-8 bytes, where bytes.translate
    drops them far faster than str.translate (no other character encodes to a digit's byte;
    a lone surrogate becomes '?')."""
    data = "".join(lines).encode("utf-8", "replace")
    return len(data) - len(data.translate(None, _DIGITS))


def _completeness(out: Parsed, section: Section, name: str, last: bool) -> None:
    """A note where the paste ended inside this output or a console wrapped it."""
    if last and seems_cut(section, name):
        out.notes.append((section.line, f"the output of `{section.command}` seems cut off"))
    elif seems_wrapped(section):
        out.notes.append(
            (section.line, f"the output of `{section.command}` seems wrapped at 80 columns")
        )


def draft(text: str) -> Draft:
    """The draft inventory `text` gives (see `rules.parse.combine`). Raises TooLarge."""
    from rules.parse.combine import combine

    with _no_cycle_collection():
        return combine(parse_text(text))


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Reading makes tens of thousands of small acyclic records (a 200-LUN bundle: 11,000
    provenance records alone), which refcounting frees; the cycle collector's passes over
    them while they are young cost about a tenth of the time and free nothing. The input is
    size-limited and the pause lasts one reading; it is lifted as it was found."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
