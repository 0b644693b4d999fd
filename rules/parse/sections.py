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

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.parse.registry import Argv, Section, known_programs

BUNDLE_MAGIC = "# sas-tuning-advisor bundle "
MAX_BYTES = 16 * 1024 * 1024
MAX_LINE = 64 * 1024
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_MARKER = re.compile(r"@@@ (cmd|end|skip|note): ?(.*)")
_PREFIX = (
    r"(?:\[[^\]\n]{1,120}\]"  # [root@rhel9 ~]
    r"|[\w.-]{1,64}@[\w.-]{1,253}(?::[^\s$#>%]{0,200})?"  # user@host:~
    r"|[\w.-]{1,253}:[^\s$#>%]{0,200}"  # aix01:/home/sas
    r"|(?:ba|k|z|da)?sh-[\d.]{1,10}"  # bash-5.1
    r"|\([\w.-]{1,64}\) ?[\w.@:~/-]{0,200})"  # (venv) user@host
)
_PROMPT = re.compile(rf"(?P<prefix>{_PREFIX})? ?[$#>%] (?P<cmd>\S.*)")
_PLAIN = re.compile(r"[^'\"\\]*")
_WRAPPERS = {"sudo", "command", "exec", "nice", "time"}


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


def argv_of(command: str) -> Argv:
    """The command split as a shell would (first pipeline element, wrappers dropped)."""
    head = re.split(r"\s[|;&]{1,2}\s|\s[|]|[|]\s", command, maxsplit=1)[0]
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
    first = next((line for line in lines if line.strip()), "")
    if first.startswith(BUNDLE_MAGIC):
        return _bundle(lines)
    return _transcript(lines)


def _bundle(lines: list[str]) -> Split:
    out = Split(header=Header(bundle=lines[0][len(BUNDLE_MAGIC) :].strip()))
    start: int | None = None
    command = ""
    for number, line in enumerate(lines, 1):
        found = _MARKER.fullmatch(line) if line.startswith("@@@ ") else None
        if found is None:
            if start is None and line.startswith("# ") and ": " in line:
                key, _, value = line[2:].partition(": ")
                out.header.values.setdefault(key.strip(), value.strip())  # type: ignore[union-attr]
            continue
        kind, rest = found.groups()
        if start is not None and kind in ("cmd", "end"):
            rc = _rc(rest) if kind == "end" else None
            out.sections.append(_section(command, lines[start : number - 1], start, rc))
            start = None
        if kind == "cmd":
            start, command = number, rest.strip()
        elif kind == "skip":
            out.skipped.append((number, rest.strip()))
        elif kind == "note":
            out.notes.append((number, rest.strip()))
    if start is not None:
        out.sections.append(_section(command, lines[start:], start, None))
    return out


def _rc(rest: str) -> int | None:
    found = re.search(r"rc=(\d{1,3})", rest)
    return int(found.group(1)) if found else None


def _section(command: str, output: list[str], line: int, rc: int | None) -> Section:
    while output and not output[-1].strip():
        output = output[:-1]
    return Section(command, argv_of(command), tuple(output), line, rc)


def _prompts(lines: list[str]) -> Iterator[tuple[int, str]]:
    programs = known_programs()
    for i, line in enumerate(lines):
        if not line or line[0].isspace() or len(line) > 4096:
            continue
        found = _PROMPT.fullmatch(line.strip())
        if found is None:
            continue
        cmd = found.group("cmd").strip()
        argv = argv_of(cmd)
        program = argv[0].rsplit("/", 1)[-1] if argv else ""
        if found.group("prefix") or program in programs:
            yield i, cmd


def _transcript(lines: list[str]) -> Split:
    out = Split()
    starts = list(_prompts(lines))
    for n, (i, cmd) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        out.sections.append(_section(cmd, lines[i + 1 : end], i + 1, None))
    return out
