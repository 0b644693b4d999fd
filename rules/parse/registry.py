"""The parser registry: which function reads which command's output.

A parser is one small pure function `fn(section) -> value` registered with `@parser(name,
matches)`. `matches(argv)` says whether a section's command is the one it reads (argv is
the command line split as a shell would, `sudo` dropped, only the first element of a
pipeline). The value is the parser's own small dataclass; the combiner
(`rules.parse.combine`) is the only reader of those values. A parser that cannot read its
input raises `Garbled` with the offending line's offset in `section.lines`; any text must
give a value or `Garbled`, never another exception (tests/rules/parse hold it to that).
"""

from __future__ import annotations

import fnmatch
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Argv = tuple[str, ...]
Match = Callable[[Argv], bool]


@dataclass(frozen=True)
class Section:
    """One command and its output, as found in a bundle or a pasted transcript."""

    command: str  # the command line as run: "lsattr -El hdisk4"
    argv: Argv  # split, `sudo` dropped, first pipeline element only
    lines: tuple[str, ...]  # the output, one entry a line, without line ends
    line: int  # 1-based number of the command's own line in the input
    rc: int | None = None  # exit status where the collector recorded it
    # The line limit the output was cut at (`rules.parse.sections.MAX_OUTPUT_LINES`): the
    # lines are its first `cut_at`, the rest was not read; 0 where it was read whole.
    cut_at: int = 0
    # False for output pasted with no command line above it (a saved fio JSON file): its
    # `line` is then the line of its first output line.
    typed: bool = True

    def line_of(self, offset: int) -> int:
        """The input's 1-based line number of output line `offset` (the command's own line
        when there is no output)."""
        if not self.lines:
            return self.line
        return self.line + self.typed + max(0, min(offset, len(self.lines) - 1))


class Garbled(ValueError):
    """The output is not what the command prints; `offset` indexes `Section.lines`."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class Parser:
    name: str
    matches: Match
    fn: Callable[[Section], Any]
    commands: tuple[str, ...]  # the program names it reads, for telling prompts apart


PARSERS: list[Parser] = []


def parser(
    name: str, matches: Match, commands: Sequence[str] = ()
) -> Callable[[Callable[[Section], Any]], Callable[[Section], Any]]:
    """Register `fn` as the parser `name` for the sections `matches` accepts."""

    def wrap(fn: Callable[[Section], Any]) -> Callable[[Section], Any]:
        if any(p.name == name for p in PARSERS):
            raise ValueError(f"parser {name!r} registered twice")
        PARSERS.append(Parser(name, matches, fn, tuple(commands)))
        _BY_PROGRAM.clear()
        return fn

    return wrap


# Matchers: small predicates over argv, so each registration reads as one line.


def command(program: str, *args: str) -> Match:
    """`program` (by base name) followed by exactly these leading arguments."""

    def match(argv: Argv) -> bool:
        return (
            bool(argv)
            and argv[0].rsplit("/", 1)[-1] == program
            and tuple(argv[1 : 1 + len(args)]) == args
        )

    return match


def command_with(program: str, *, flags: Sequence[str] = (), operand: str = "*") -> Match:
    """`program` with every one of `flags` somewhere in its arguments and an operand (a
    non-flag argument) matching the glob `operand` ("hdisk*")."""

    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] != program:
            return False
        rest = argv[1:]
        if any(f not in rest for f in flags):
            return False
        operands = [a for a in rest if not a.startswith("-")]
        return any(fnmatch.fnmatchcase(a, operand) for a in operands) or (
            operand == "*" and not operands
        )

    return match


def reads_file(pattern: str) -> Match:
    """`cat FILE` (or `more`, `head`, `grep -H . FILE`) of a file matching the glob."""
    readers = ("cat", "more", "head", "tail", "grep", "pg")

    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] not in readers:
            return False
        paths = [a for a in argv[1:] if a.startswith("/")]
        return bool(paths) and all(fnmatch.fnmatchcase(p, pattern) for p in paths)

    return match


_BY_PROGRAM: dict[str, list[Parser]] = {}


def _candidates(program: str) -> list[Parser]:
    """The parsers that name `program`, plus those that name none, in registration order."""
    found = _BY_PROGRAM.get(program)
    if found is None:
        found = [p for p in PARSERS if not p.commands or program in p.commands]
        _BY_PROGRAM[program] = found
    return found


@functools.lru_cache(maxsize=4096)  # a paste repeats its commands; parsers register at import
def find(argv: Argv) -> Parser | None:
    """The first registered parser that reads this command, or None."""
    program = argv[0].rsplit("/", 1)[-1] if argv else ""
    for p in _candidates(program):
        if p.matches(argv):
            return p
    return None


def known_programs() -> frozenset[str]:
    """Every program name some parser reads (for telling a prompt from a comment)."""
    return frozenset(c for p in PARSERS for c in p.commands)
