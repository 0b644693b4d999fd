"""Repeated sections of one command: merged where they add up, else the most complete kept.

People paste the same command more than once: per device (`cat /sys/block/sda/queue/
rotational`, then sdb's …; `lsattr -El hdisk4`, then hdisk5), or filtered first and whole
later (`mount | grep iso9660`, then `mount`; `lsblk -d`, then `lsblk`; `df | grep /dev/`,
then `df -h`). A parser whose values are mappings (device → attributes, key → value) gets
one value, the union of them all, the most complete section's entries first, each entry
naming the section it was read from. Otherwise sections of one parser are grouped by what
they ask about: their operands (`lspv hdisk0` and `lspv hdisk1` are two disks, `lslv
lv01` and `lslv lv02` two volumes), and each group keeps its most complete section:
unfiltered before filtered, then the most output lines, then the first. A listing of
every file system, disk or processor without an operand is one thing however it is asked
(`df -h`, `df -k`); with one it is narrowed to that file system or device (`df -h /sas`,
`lsblk /dev/sda`), which the whole listing holds: such a section goes with the whole
listing where an unfiltered one was pasted, else stands for its operand alone.
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
# Listings of every file system, disk or processor: without an operand each is the whole
# listing, an operand narrows it to one (`df -h /sas`, `lsblk /dev/sda`, `psrinfo -v 0`).
# AIX's lspv, lsvg and lsdev are not among them: their operand names the disk, volume group
# or device class a section is about (`lspv hdisk0`, `lsvg rootvg`), one subject each.
WHOLE = frozenset({"df", "mount", "lsblk", "findmnt", "psrinfo"})
# Their options that take an argument (util-linux lsblk(8), findmnt(8), mount(8), GNU and
# Solaris df(1)): the argument is no operand. Those that select rows narrow the listing.
ARGUMENT = {
    "df": frozenset({"-B", "-F", "-o", "--block-size", "--output"}),
    "lsblk": frozenset({"-o", "-x", "--output", "--sort"}),
    "findmnt": frozenset({"-o", "-w", "--output", "--timeout"}),
    "mount": frozenset({"-o", "-O", "--options"}),
}
NARROWING_ARGUMENT = {
    "df": frozenset({"-t", "-x", "--type", "--exclude-type"}),
    "lsblk": frozenset({"-e", "-I", "--exclude", "--include"}),
    "findmnt": frozenset({"-t", "-O", "-S", "-T", "-M", "-N", "--types", "--source", "--target"}),
    "mount": frozenset({"-t", "--types"}),
}


def filtered(section: Section) -> str:
    """Why the section shows only part of what its command prints ('' where it shows all)."""
    program = _program(section.argv)
    for stage in section.command.split("|")[1:]:
        words = stage.split()
        if words and words[0].rsplit("/", 1)[-1] in FILTERS:
            return f"| {words[0]}"
    narrowing = NARROWING.get(program, frozenset()) | NARROWING_ARGUMENT.get(program, frozenset())
    flag = next((a for a in section.argv[1:] if a in narrowing), None)
    if flag is not None:
        return flag
    if program in WHOLE and _operands(section.argv):
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
        kept = []
        for group in _groups(marked).values():
            best = min(group, key=completeness)
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
    """The words after the program that are neither options nor a listing option's
    argument (`lsblk -o NAME,SIZE` has none, `lspv -l hdisk0` has hdisk0)."""
    takes = ARGUMENT.get(_program(argv), frozenset()) | NARROWING_ARGUMENT.get(
        _program(argv), frozenset()
    )
    out, skip = [], False
    for word in argv[1:]:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in takes
        else:
            out.append(word)
    return tuple(out)


def _subject(argv: Argv) -> tuple[str, ...]:
    """What a section asks about: its program and operands."""
    return (_program(argv), *_operands(argv))


def _groups(marked: list[Found]) -> dict[tuple[str, ...], list[Found]]:
    """Sections of one parser by subject; a narrowed listing (`df -h /sas`) goes with the
    whole one where an unfiltered whole one was pasted, since that holds all it says."""
    groups: dict[tuple[str, ...], list[Found]] = {}
    for f in marked:
        groups.setdefault(_subject(f.section.argv), []).append(f)
    for subject in [s for s in groups if len(s) > 1 and s[0] in WHOLE]:
        listing = groups.get(subject[:1], [])
        if any(not f.filtered for f in listing):
            listing.extend(groups.pop(subject))
    return groups


def completeness(found: Found) -> tuple[bool, int, int, int]:
    """The order of readings of one thing, most complete first: unfiltered, then the most
    output lines, then the most digits, then the first pasted."""
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
    (device → attributes) merged a level down, each entry with the section it came from."""
    value: dict[str, Any] = {}
    origins: dict[tuple[str, ...], Section] = {}
    for f in sorted(found, key=completeness):
        for key, inner in f.value.items():
            if isinstance(inner, Mapping):
                held = value.setdefault(key, {})
                for k, v in inner.items() if isinstance(held, dict) else ():
                    if k not in held:
                        held[k], origins[(key, k)] = v, f.section
            elif key not in value:
                value[key], origins[(key,)] = inner, f.section
    first = min(found, key=lambda f: f.section.line)
    rest = tuple(f.section for f in found if f is not first)
    section = dataclasses.replace(first.section, command=_label(first.section, len(found)))
    return dataclasses.replace(
        first, section=section, value=value, size=sum(f.size for f in found), also=rest,
        origins=origins,
    )  # fmt: skip


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


def source_of(found: Found, *key: str) -> Section:
    """The section a reading's entry was read from: (key,) or (device, attribute) of a
    merged mapping, else the reading's own (first) section."""
    return found.origins.get(key) or own_sections(found)[0]
