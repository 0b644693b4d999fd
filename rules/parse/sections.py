"""Cut a collector bundle or a pasted terminal transcript into command sections.

A bundle (what `rules/collect/collector.sh` writes) opens with the line
`# sas-tuning-advisor bundle 1`; each command's output sits between `@@@ cmd: COMMAND`
and `@@@ end: rc=N`, and `@@@ skip: …` / `@@@ note: …` lines say what the collector left
out and why. Anything else is read as a transcript: a command line is a shell prompt
ending in `$ `, `# `, `> ` or `% ` followed by the command, and the lines up to the next
prompt are its output. A prompt with a user, host or path before the sign
(`[root@rhel9 ~]# `, `aix01:/> `, `bash-5.1$ `) always starts a command; a bare sign
(`# lscpu`) does so only before a program some parser reads, so the `# ` comments of a
printed configuration file stay output.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress, count, islice

from rules.parse.registry import Argv, Section, known_programs

BUNDLE_MAGIC = "# sas-tuning-advisor bundle "
MAX_BYTES = 16 * 1024 * 1024
MAX_LINE = 64 * 1024
# Commands read from one text: a 4,096-disk AIX server's bundle has about 9,000 sections.
# Past this the text is no server's reading, and each section costs a parser's run.
MAX_SECTIONS = 20_000
# A title sequence (ESC ] … BEL) stops at the next ESC: its scan never runs over another
# escape's start, so an unterminated one costs one pass, not one pass per ESC after it.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*\x07")
_MARKER = re.compile(r"@@@ (cmd|end|skip|note): ?(.*)")
_MARK = "@@@ "
_HEADER_LINE = re.compile(r"# .*: ")
_PIPE = re.compile(r"\s[|;&]{1,2}\s|\s[|]|[|]\s")
_RC = re.compile(r"rc=(\d{1,3})")
_PREFIX = (
    r"(?:\[[^\]\n]{1,120}\]"  # [root@rhel9 ~]
    r"|[\w.-]{1,64}@[\w.-]{1,253}(?::[^\s$#>%]{0,200})?"  # user@host:~
    r"|[\w.-]{1,253}:[^\s$#>%]{0,200}"  # aix01:/home/sas
    r"|(?:ba|k|z|da)?sh-[\d.]{1,10}"  # bash-5.1
    r"|\([\w.-]{1,64}\) ?[\w.@:~/-]{0,200})"  # (venv) user@host
)
_PROMPT = re.compile(rf"(?P<prefix>{_PREFIX})? ?[$#>%] (?P<cmd>\S.*)")
# What a prompt line has at least (a sign, a blank, a command), tested on every line in one
# C-level pass so that a text of millions of lines spends no Python step on most of them.
_CANDIDATE = re.compile(r"(?=\S).*?[$#>%] \S")
MAX_PROMPT = 4096  # characters: a longer line is output, never a command line
_PLAIN = re.compile(r"[^'\"\\]*")
_WRAPPERS = {"sudo", "command", "exec", "nice", "time"}


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
    sections: list[Section] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, "smtctl: not found")
    notes: list[tuple[int, str]] = field(default_factory=list)
    header: Header | None = None  # None for a transcript


@functools.lru_cache(maxsize=4096)  # a bundle runs one command on each of many disks
def argv_of(command: str) -> Argv:
    """The command split as a shell would (first pipeline element, wrappers dropped)."""
    head = _PIPE.split(command, maxsplit=1)[0]
    if _PLAIN.fullmatch(head):  # the common case needs no shell quoting rules
        words = head.split()
    else:
        try:
            words = shlex.split(head, comments=False, posix=True)
        except ValueError:
            words = head.split()
    while words and (words[0] in _WRAPPERS or words[0].startswith("-") or "=" in words[0]):
        words = words[1:]
    return tuple(words)


def clean(text: str) -> list[str]:
    """The text's lines without terminal colour codes or carriage returns."""
    if len(text) > MAX_BYTES:
        raise TooLarge(f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    lines = text.replace("\r\n", "\n").split("\n") if "\r" in text else text.split("\n")
    # Most bundles need neither pass below; each is a copy of every line.
    if "\r" in text:
        lines = [line.rstrip("\r") for line in lines]
    if max(map(len, lines)) > MAX_LINE:
        lines = [line[:MAX_LINE] for line in lines]
    return lines


def split(text: str) -> Split:
    lines = clean(text)
    first = next(filter(str.strip, lines), "")
    if first.startswith(BUNDLE_MAGIC):
        return _bundle(lines)
    return _transcript(lines)


def _bundle(lines: list[str]) -> Split:
    header = Header(bundle=lines[0][len(BUNDLE_MAGIC) :].strip())
    out = Split(header=header)
    start: int | None = None
    command = ""
    outside = 0  # where the stretch outside any section began (header lines sit there)
    # Only the marker lines need a Python step; the output between them is sliced whole.
    for number in _marker_lines(lines):
        found = _MARKER.fullmatch(lines[number - 1])
        if found is None:
            continue
        kind, rest = found.groups()
        if start is None and kind == "cmd":
            _header(header, lines[outside : number - 1])
        if start is not None and kind in ("cmd", "end"):
            rc = _rc(rest) if kind == "end" else None
            out.sections.append(_section(command, lines[start : number - 1], start, rc))
            start, outside = None, number
        if kind == "cmd" and len(out.sections) >= MAX_SECTIONS:
            out.skipped.append((number, _TOO_MANY))
            return out
        if kind == "cmd":
            start, command = number, rest.strip()
        elif kind == "skip":
            out.skipped.append((number, rest.strip()))
        elif kind == "note":
            out.notes.append((number, rest.strip()))
    if start is not None:
        out.sections.append(_section(command, lines[start:], start, None))
    else:
        _header(header, lines[outside:])
    return out


def _marker_lines(lines: list[str]) -> Iterator[int]:
    """The 1-based numbers of the lines that open with "@@@ ", found by str.find over the
    joined text: a test per line costs more than the line itself when lines are empty."""
    text = "\n".join(lines)
    if text.startswith(_MARK):
        yield 1
    number, at = 1, 0
    while (hit := text.find("\n" + _MARK, at)) >= 0:
        number += text.count("\n", at, hit + 1)
        at = hit + 1
        yield number


def _header(header: Header, lines: list[str]) -> None:
    """The `# key: value` lines outside the sections; the first of each key counts."""
    for line in filter(_HEADER_LINE.match, lines):
        key, _, value = line[2:].partition(": ")
        header.values.setdefault(key.strip(), value.strip())


def _rc(rest: str) -> int | None:
    found = _RC.search(rest)
    return int(found.group(1)) if found else None


def _section(
    command: str, output: list[str], line: int, rc: int | None, argv: Argv | None = None
) -> Section:
    if output and not output[-1].strip():
        # Up to the last line with text, by one rstrip of the joined lines (a slice per
        # trailing blank line is quadratic, a test per line slow on millions of them).
        kept = "\n".join(output).rstrip()
        output = output[: kept.count("\n") + 1] if kept else []
    argv = argv_of(command) if argv is None else argv
    return Section(command, argv, tuple(output), line, rc)


def _prompts(lines: list[str]) -> Iterator[tuple[int, str, Argv]]:
    programs = known_programs()
    for i in compress(count(), map(_CANDIDATE.match, lines)):
        line = lines[i]
        if len(line) > MAX_PROMPT:
            continue
        found = _PROMPT.fullmatch(line.strip())
        if found is None:
            continue
        cmd = found.group("cmd").strip()
        argv = argv_of(cmd)
        program = argv[0].rsplit("/", 1)[-1] if argv else ""
        if found.group("prefix") or program in programs:
            yield i, cmd, argv


def _transcript(lines: list[str]) -> Split:
    out = Split()
    starts = list(islice(_prompts(lines), MAX_SECTIONS + 1))
    if len(starts) > MAX_SECTIONS:
        out.skipped.append((starts[-1][0] + 1, _TOO_MANY))
    for n, (i, cmd, argv) in enumerate(starts[:MAX_SECTIONS]):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        out.sections.append(_section(cmd, lines[i + 1 : end], i + 1, None, argv))
    return out
