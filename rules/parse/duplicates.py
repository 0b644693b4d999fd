"""Repeated sections of one command: merged where they add up, else the most complete kept.

People paste the same command more than once: per device (`cat /sys/block/sda/queue/
rotational`, then sdb's …; `lsattr -El hdisk4`, then hdisk5), or filtered first and whole
later (`mount | grep iso9660`, then `mount`; `lsblk -d`, then `lsblk`; `df | grep /dev/`,
then `df -h`). A parser whose values are mappings (device → attributes, key → value) gets
one value, the union of them all, the most complete section's entries first. Otherwise
sections of one parser are grouped by what they ask about (their operands; for the
listings of every file system or disk, all of them together) and each group keeps its most
complete section: unfiltered before filtered, then the most output lines, then the first.
Every section not kept is named in a note with the one kept instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.parse.registry import Argv, Section

if TYPE_CHECKING:
    from rules.parse import Found, Parsed

# Programs after a pipe that pass on part of their input.
FILTERS = frozenset({"grep", "egrep", "fgrep", "head", "tail", "awk", "sed", "cut", "sort",
                     "uniq", "less", "more", "column"})  # fmt: skip
# Flags that make a listing show less than the whole of it.
NARROWING = {"lsblk": frozenset({"-d", "--nodeps"})}
# Listings of every file system or disk: an operand narrows them to one (`df -h /sas`),
# so every section of one of these is a reading of the same thing.
WHOLE = frozenset({"df", "mount", "lsblk", "findmnt", "lspv", "lsvg", "lsdev", "psrinfo"})


def filtered(section: Section) -> str:
    """Why the section shows only part of what its command prints ('' where it shows all)."""
    program = _program(section.argv)
    for stage in section.command.split("|")[1:]:
        words = stage.split()
        if words and words[0].rsplit("/", 1)[-1] in FILTERS:
            return f"| {words[0]}"
    narrowing = NARROWING.get(program, frozenset())
    flag = next((a for a in section.argv[1:] if a in narrowing), None)
    if flag is not None:
        return flag
    if program in WHOLE and _operands(section.argv) and program not in ("lsvg", "lsdev"):
        return _operands(section.argv)[0]
    return ""


def settle(parsed: Parsed) -> None:
    """Merge or choose among each parser's repeated sections, noting what is left out."""
    for name, found in list(parsed.found.items()):
        if len(found) < 2:
            continue
        marked = [_marked(f) for f in found]
        if all(isinstance(f.value, Mapping) for f in marked):
            parsed.found[name] = [_merged(marked)]
            continue
        groups: dict[tuple[str, ...], list[Found]] = {}
        for f in marked:
            groups.setdefault(_subject(f.section.argv), []).append(f)
        kept = []
        for group in groups.values():
            best = min(group, key=_rank)
            kept.append(best)
            for other in group:
                if other is not best:
                    parsed.unused.append(_unused(other, best))
        parsed.found[name] = sorted(kept, key=lambda f: f.section.line)


def _marked(found: Found) -> Found:
    why = filtered(found.section)
    return dataclasses.replace(found, filtered=why) if why else found


def _program(argv: Argv) -> str:
    return argv[0].rsplit("/", 1)[-1] if argv else ""


def _operands(argv: Argv) -> tuple[str, ...]:
    return tuple(a for a in argv[1:] if not a.startswith("-"))


def _subject(argv: Argv) -> tuple[str, ...]:
    program = _program(argv)
    if program in WHOLE and program not in ("lsvg", "lsdev"):
        return (program,)
    return (program, *_operands(argv))


def _rank(found: Found) -> tuple[bool, int, int, int]:
    return bool(found.filtered), -found.size, -found.digits, found.section.line


def _unused(other: Found, best: Found) -> tuple[int, str, str]:
    s = other.section
    lines = f"{other.size} line{'s' if other.size != 1 else ''}"
    kept = f"`{best.section.command}` at line {best.section.line}"
    if other.filtered and not best.filtered:
        why = f"the full {kept} says more"
    elif other.size < best.size:
        why = f"{kept} says more"
    else:
        why = f"{kept} says as much"
    return s.line, s.command, f"`{s.command}` ({lines}) not used: {why}"


def _merged(found: list[Found]) -> Found:
    """One mapping from all: the most complete section's entries first, nested mappings
    (device → attributes) merged a level down."""
    ordered = sorted(found, key=_rank)
    value: dict[str, Any] = {}
    for f in ordered:
        for key, inner in f.value.items():
            if isinstance(inner, Mapping) and isinstance(value.get(key), dict):
                for k, v in inner.items():
                    value[key].setdefault(k, v)
            elif key not in value:
                value[key] = dict(inner) if isinstance(inner, Mapping) else inner
    first = min(found, key=lambda f: f.section.line)
    rest = tuple(f.section for f in found if f is not first)
    section = dataclasses.replace(first.section, command=_label(first.section, len(found)))
    return dataclasses.replace(
        first, section=section, value=value, size=sum(f.size for f in found), also=rest
    )


def _label(section: Section, count: int) -> str:
    return f"{section.command} (and {count - 1} more like it)"


def own_sections(found: Found) -> tuple[Section, ...]:
    """Every section a reading was read from, each under its own command (the first of
    merged ones without the label `_merged` gave it)."""
    if not found.also:
        return (found.section,)
    label = f" (and {len(found.also)} more like it)"
    first = dataclasses.replace(found.section, command=found.section.command.removesuffix(label))
    return (first, *found.also)
