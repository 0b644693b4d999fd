"""Outputs known by their content, where the command that printed them names nothing a
parser reads: a file printed under another path (`cat etc/os-release` typed from `/`,
`cat os-release`), or a job's saved output (`cat output.txt` holding what `lscpu`,
`free -h` and `df -h` printed, under banner lines).

Only shapes that can be nothing else are read, each as the command that prints it:

    os-release   KEY=value lines with NAME= and VERSION_ID= among them (os-release(5))
    lscpu        `Architecture:` opening `Label: value` lines with `CPU(s):` among them
    free         the `total used free shared` heading, then its `Mem:` row
    df           the `Filesystem … Mounted on` heading, then rows ending in a mount point
    /proc/mdstat `Personalities : [raid1]`, then md arrays up to `unused devices:` (the
                 file printed as `cat proc/mdstat` from /)

Each block found is a section of its own, read by that command's parser; a note says the
lines were recognised by their content. The file's other lines stay its command's, which
no parser knows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.parse.registry import Argv
from rules.parse.spans import Span

# Commands that print a file as it is.
READERS = frozenset({"cat", "more", "less", "pg", "head", "tail", "zcat"})
MAX_BLOCKS = 8  # outputs read from one printed file
_ASSIGN = re.compile(r"[A-Z][A-Z0-9_]{0,63}=\S.*")
_LABELLED = re.compile(r"[A-Z][^:\n]{0,60}:(?:\s.*)?")
_FREE_HEADING = re.compile(r"\s+total\s+used\s+free\s+shared\b.*")
_FREE_ROW = re.compile(r"(?:Mem|Swap|Total|Low|High|-/\+ buffers/cache):\s.*")
_DF_HEADING = re.compile(r"Filesystem\s.*\sMounted on\s*")
_HUMAN = re.compile(r"\d[\d.,]*[KMGTPE]i?\b")
_MD_ARRAY = re.compile(r"md\S{0,32} : ")


@dataclass(frozen=True)
class Block:
    first: int  # index of its first line
    stop: int  # index past its last line
    argv: Argv
    what: str  # '/etc/os-release', '`lscpu`'


def recognised(text: str, span: Span, notes: list[tuple[int, str]]) -> list[Span]:
    """The span, and a section for each output its lines unmistakably are."""
    lines = text[span.start : span.end].split("\n")
    blocks = _blocks(lines)
    if not blocks:
        return [span]
    offsets = [span.start]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    out = []
    if any(line.strip() for line in lines[: blocks[0].first]):
        head = offsets[blocks[0].first] - 1
        out.append(Span(span.command, span.argv, span.line, span.start, head))
    for block in blocks:
        before = span.line + block.first  # the line before the block's first
        start = offsets[block.first]
        if not out:  # the file opens with it: the section is the command's own
            before, start = span.line, span.start
        end = min(span.end, offsets[block.stop - 1] + len(lines[block.stop - 1]))
        whole = not out and not any(text.strip() for text in lines[block.stop :])
        out.append(Span(span.command, block.argv, before, start, end))
        at = span.line if whole else span.line + 1 + block.first
        notes.append((at, _note(span, block, whole)))
    return out


def _note(span: Span, block: Block, whole: bool) -> str:
    command = f"`{span.command[:80]}`"
    if whole:
        return f"{command} read as {block.what}, recognised by its content"
    first, last = span.line + 1 + block.first, span.line + block.stop
    return (
        f"lines {first}-{last} of {command} (line {span.line}) read as {block.what}, "
        "recognised by their content"
    )


def _blocks(lines: list[str]) -> list[Block]:
    found: list[Block] = []
    index = 0
    while index < len(lines) and len(found) < MAX_BLOCKS:
        block = next((b for shape in SHAPES if (b := shape(lines, index)) is not None), None)
        if block is None:
            index += 1
            continue
        found.append(block)
        index = block.stop
    return found


def _run(lines: list[str], start: int, fits: Callable[[str], bool]) -> int:
    """Index past the run of lines from `start` that fit (blank lines inside a run too)."""
    stop, index = start, start
    while index < len(lines) and (fits(lines[index]) or not lines[index].strip()):
        if lines[index].strip():
            stop = index + 1
        index += 1
    return stop


def _os_release(lines: list[str], start: int) -> Block | None:
    if not _ASSIGN.fullmatch(lines[start].strip()):
        return None
    stop = _run(lines, start, lambda line: _ASSIGN.fullmatch(line.strip()) is not None)
    keys = {line.split("=", 1)[0].strip() for line in lines[start:stop]}
    if not {"NAME", "VERSION_ID"} <= keys:
        return None
    return Block(start, stop, ("cat", "/etc/os-release"), "/etc/os-release")


def _lscpu(lines: list[str], start: int) -> Block | None:
    if not re.fullmatch(r"Architecture:\s+\S+\s*", lines[start]):
        return None
    stop = _run(lines, start, lambda line: _LABELLED.fullmatch(line.rstrip()) is not None)
    if not any(line.startswith("CPU(s):") for line in lines[start:stop]):
        return None
    return Block(start, stop, ("lscpu",), "`lscpu`")


def _free(lines: list[str], start: int) -> Block | None:
    if not _FREE_HEADING.fullmatch(lines[start].rstrip()) or start + 1 >= len(lines):
        return None
    if not lines[start + 1].startswith("Mem:"):
        return None
    stop = start + 1
    while stop < len(lines) and _FREE_ROW.fullmatch(lines[stop].rstrip()):
        stop += 1
    human = _HUMAN.match(lines[start + 1].split()[1]) if len(lines[start + 1].split()) > 1 else None
    argv = ("free", "-h") if human else ("free",)
    return Block(start, stop, argv, f"`{' '.join(argv)}`")


def _df_row(lines: list[str], index: int) -> bool:
    """A row ending in a mount point, or a long device name on a line of its own with the
    rest of its row, indented, on the next."""
    words = lines[index].split()
    if len(words) >= 5:
        return words[-1].startswith("/")
    after = lines[index + 1] if index + 1 < len(lines) else ""
    return len(words) == 1 and after[:1].isspace() and len(after.split()) >= 4


def _df(lines: list[str], start: int) -> Block | None:
    if not _DF_HEADING.fullmatch(lines[start].rstrip()):
        return None
    stop = start + 1
    while stop < len(lines) and lines[stop].strip() and _df_row(lines, stop):
        stop += 1
    if stop == start + 1:
        return None
    return Block(start, stop, ("df",), "`df`")


def _mdstat(lines: list[str], start: int) -> Block | None:
    if not lines[start].startswith("Personalities :"):
        return None
    stop = start + 1
    while stop < len(lines):
        line = lines[stop]
        stop += 1
        if line.startswith("unused devices:"):
            break
        if line.strip() and not _MD_ARRAY.match(line) and not line[:1].isspace():
            stop -= 1
            break
    return Block(start, stop, ("cat", "/proc/mdstat"), "/proc/mdstat")


SHAPES = (_os_release, _lscpu, _free, _df, _mdstat)
