"""Parsers of real command output, and the combiner that turns them into a draft inventory.

    text (collector bundle or pasted transcript)
      → sections.split        one Section per command
      → registry parsers      one small function per command → its own small value
      → combine.draft         a draft inventory, where each field came from, what is missing

Everything here treats its input as untrusted text: size-limited, matched against what
the commands print, never executed. A section no parser knows is listed, not fatal; a
section a parser cannot read is a problem with its line number.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from rules.parse import aix, linux, measure, sasfiles, solaris  # noqa: F401  (registers)
from rules.parse.draft import Draft
from rules.parse.registry import Garbled, Section, find
from rules.parse.sections import Header, TooLarge, split

__all__ = ["Draft", "LineProblem", "Parsed", "TooLarge", "draft", "parse_text"]


@dataclass(frozen=True)
class LineProblem:
    line: int
    command: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "command": self.command, "message": self.message}


@dataclass(frozen=True)
class Found:
    section: Section
    value: Any


@dataclass
class Parsed:
    found: dict[str, list[Found]] = field(default_factory=lambda: defaultdict(list))
    unknown: list[tuple[int, str]] = field(default_factory=list)  # (line, command)
    problems: list[LineProblem] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)
    header: Header | None = None

    def first(self, name: str) -> Found | None:
        found = self.found.get(name)
        return found[0] if found else None

    def all(self, name: str) -> list[Found]:
        return self.found.get(name, [])


def parse_text(text: str) -> Parsed:
    """Every section of `text` read by its parser. Raises TooLarge over the size limit."""
    cut = split(text)
    out = Parsed(skipped=cut.skipped, notes=cut.notes, header=cut.header)
    for section in cut.sections:
        reader = find(section.argv)
        if reader is None:
            out.unknown.append((section.line, section.command))
            continue
        try:
            out.found[reader.name].append(Found(section, reader.fn(section)))
        except Garbled as exc:
            line = section.line_of(exc.offset)
            out.problems.append(LineProblem(line, section.command, exc.message))
    return out


def draft(text: str) -> Draft:
    """The draft inventory `text` gives (see `rules.parse.combine`). Raises TooLarge."""
    from rules.parse.combine import combine

    return combine(parse_text(text))
