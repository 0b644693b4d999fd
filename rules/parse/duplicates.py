"""Repeated sections of one command: merged where they add up, else the most complete kept.

People paste the same command more than once: per device (`cat /sys/block/sda/queue/
rotational`, then sdb's …; `lsattr -El hdisk4`, then hdisk5), filtered first and whole
later (`mount | grep iso9660`, then `mount`; `lsblk -d`, then `lsblk`; `df | grep /dev/`,
then `df -h`), one grep a tunable (`vmo -a | grep minfree`, then `… maxfree`), or again
after a change (`df -g` before and after `chfs`; `zfs list rpool/swap` after `zfs set
volsize`). A parser whose values are mappings (device → attributes, key → value) gets one
value, the union of them all, each entry naming the section it was read from. Otherwise
sections of one parser are grouped by what they ask about: their operands (`lspv hdisk0`
and `lspv hdisk1` are two disks, `lslv lv01` and `lslv lv02` two volumes). A listing of
every file system, disk or processor without an operand is one thing however it is asked
(`df -h`, `df -k`); with one it is narrowed to that file system or device (`df -h /sas`,
`lsblk /dev/sda`), which the whole listing holds: such a section goes with the whole
listing where an unfiltered one was pasted, else stands for its operand alone.

Within a group, readings of the same form (the same options) compare: a table of
stand-alone entries (df rows, zfs data sets, ioo and vmo tunables) is their union
(`rules.parse.duplicates_keyed`); any other value, where all print it alike, is read from
the most complete (unfiltered, most lines, most digits, then the first); where they differ
the latest is the present state, with a note naming the lines, unless the paste ends
inside it. Of a command that tells which system it is (uname, os-release, hostname), two
outputs that differ are two systems: a problem naming both lines, the first one read. Of
several forms (`free` and `free -h`) the most complete is read; whole listings of devices
with other columns (`lsblk -f`, `lsblk`) are read as one (`duplicates_columns`). Every
section not kept is named with the one kept instead, and why: "says more" and "says as
much" only where the one kept prints all it does.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.parse.duplicates_columns import BY_DEVICE, by_device
from rules.parse.duplicates_keyed import ROWS, TUNABLES, keyed, tunables_form, union
from rules.parse.duplicates_merge import merged, own_sections, source_of
from rules.parse.registry import Argv, Section
from rules.parse.repeats import completeness, let_go, present

__all__ = ["completeness", "filtered", "form", "own_sections", "settle", "source_of"]

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
# The value is how many words of the subject name the listing (`zfs list`: two).
WHOLE = {"df": 1, "mount": 1, "lsblk": 1, "findmnt": 1, "psrinfo": 1, "zfs": 2}
# Their options that take an argument (util-linux lsblk(8), findmnt(8), mount(8), GNU and
# Solaris df(1)): the argument is no operand. Those that select rows narrow the listing.
ARGUMENT = {
    "df": frozenset({"-B", "-F", "-o", "--block-size", "--output"}),
    "lsblk": frozenset({"-o", "-x", "--output", "--sort"}),
    "findmnt": frozenset({"-o", "-w", "--output", "--timeout"}),
    "mount": frozenset({"-o", "-O", "--options"}),
    "zfs": frozenset({"-o", "-s", "-S"}),
}
NARROWING_ARGUMENT = {
    "df": frozenset({"-t", "-x", "--type", "--exclude-type"}),
    "lsblk": frozenset({"-e", "-I", "--exclude", "--include"}),
    "findmnt": frozenset({"-t", "-O", "-S", "-T", "-M", "-N", "--types", "--source", "--target"}),
    "mount": frozenset({"-t", "--types"}),
    "zfs": frozenset({"-t", "-d"}),
}


def filtered(section: Section) -> str:
    """Why the section shows only part of what its command prints ('' where it shows all)."""
    return _filtered(section.command, section.argv)


@functools.lru_cache(maxsize=4096)  # a paste repeats its commands
def _filtered(command: str, argv: Argv) -> str:
    program = _program(argv)
    for stage in command.split("|")[1:]:
        words = stage.split()
        if words and words[0].rsplit("/", 1)[-1] in FILTERS:
            return f"| {words[0]}"
    narrowing = NARROWING.get(program, frozenset()) | NARROWING_ARGUMENT.get(program, frozenset())
    flag = next((a for a in argv[1:] if a in narrowing), None)
    if flag is not None:
        return flag
    if program not in WHOLE:
        return ""
    narrowed = _subject(argv)[WHOLE[program] :]
    return narrowed[0] if narrowed else ""


def settle(parsed: Parsed) -> None:
    """Merge or choose among each parser's repeated sections, noting what is left out."""
    for name, found in list(parsed.found.items()):
        if len(found) < 2:
            continue
        marked = [_marked(f) for f in found]
        if all(isinstance(f.value, Mapping) for f in marked):
            parsed.found[name] = [merged(marked, parsed)]
            continue
        kept = []
        for group in _groups(marked).values():
            kept += _settled(name, group, parsed) if len(group) > 1 else group
        parsed.found[name] = sorted(kept, key=lambda f: f.section.line)


def _settled(name: str, group: list[Found], parsed: Parsed) -> list[Found]:
    """The readings of one subject kept: within each form (the same options), the union
    of a table's rows or the present state of a whole value; then the most complete form."""
    forms: dict[tuple[str, ...], list[Found]] = {}
    for f in group:
        forms.setdefault(form(name, f), []).append(f)
    survivors: list[list[Found]] = []
    for members in forms.values():
        if len(members) == 1:
            survivors.append(members)
        elif keyed(name, members):
            survivors.append(union(name, members, parsed, completeness))
        else:
            survivors.append(present(name, members, parsed))
    if name in BY_DEVICE:
        survivors = _by_device(survivors, parsed)
    best = min((f for kept in survivors for f in kept), key=completeness)
    mine = next(kept for kept in survivors if any(f is best for f in kept))
    for kept in survivors:
        if kept is not mine:
            parsed.unused += [let_go(other, best) for other in kept]
    return mine


def _by_device(survivors: list[list[Found]], parsed: Parsed) -> list[list[Found]]:
    """Whole listings of other columns as one reading (`rules.parse.duplicates_columns`)."""
    whole = [f for kept in survivors for f in kept if not f.filtered]
    if len(whole) < 2:
        return survivors
    one = by_device(whole, parsed)
    if one is None:
        return survivors
    narrowed = [[f for f in kept if f.filtered] for kept in survivors]
    return [[one], *(kept for kept in narrowed if kept)]


def form(name: str, found: Found) -> tuple[str, ...]:
    """What makes two readings of one subject compare: a table of stand-alone entries
    by its options (`df -g` with `df -g /oracle`, not with `df -h`), tunables by their
    shape (-a and -o alike, -L and -x alike); any other by its whole command."""
    if name in TUNABLES:
        return tunables_form(found)
    argv = found.section.argv
    if name in ROWS:
        operands = set(_operand_indices(argv))
        return tuple(w for i, w in enumerate(argv) if i not in operands)
    pipe = found.section.command.split("|", 1)
    return (*argv, "|" + pipe[1].strip() if len(pipe) > 1 else "")


def _marked(found: Found) -> Found:
    why = filtered(found.section)
    return dataclasses.replace(found, filtered=why) if why else found


def _program(argv: Argv) -> str:
    return argv[0].rsplit("/", 1)[-1] if argv else ""


def _operands(argv: Argv) -> tuple[str, ...]:
    """The words after the program that are neither options nor a listing option's
    argument (`lsblk -o NAME,SIZE` has none, `lspv -l hdisk0` has hdisk0)."""
    return tuple(argv[i] for i in _operand_indices(argv))


@functools.lru_cache(maxsize=4096)  # a paste repeats its commands
def _operand_indices(argv: Argv) -> tuple[int, ...]:
    takes = ARGUMENT.get(_program(argv), frozenset()) | NARROWING_ARGUMENT.get(
        _program(argv), frozenset()
    )
    out, skip = [], False
    for i, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in takes
        else:
            out.append(i)
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
    for subject in [s for s in groups if s[0] in WHOLE and len(s) > WHOLE[s[0]]]:
        listing = groups.get(subject[: WHOLE[subject[0]]], [])
        if any(not f.filtered for f in listing):
            listing.extend(groups.pop(subject))
    return groups
