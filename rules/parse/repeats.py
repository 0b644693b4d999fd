"""Readings of one command pasted more than once: which is read, and how each other one
is named (`rules.parse.duplicates` groups them).

Where all print the same, the most complete is read (unfiltered, most lines, most digits,
then the first pasted), and the others "say as much" or "say more" only where it prints
all they do. Where they differ, the latest is the present state (a `df` after `lvextend`,
`lsps -a` after `chps`), with a note naming the lines, unless the paste ends inside it.
Of a command that tells which system it is, two outputs that differ are two systems: a
problem naming both lines, the first one read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.parse import Found, Parsed

# Parsers that tell which system the paste is from: two readings that differ are two
# systems (a problem), never a change of state; the fields that tell it.
IDENTITY = frozenset({"uname", "hostname", "hostnamectl", "os_release", "redhat_release",
                      "suse_release", "solaris_release"})  # fmt: skip
IDENTITY_FIELDS = ("system", "name", "hostname", "id", "version_id", "release", "version",
                   "distribution", "product", "operating_system", "kernel")  # fmt: skip


def completeness(found: Found) -> tuple[bool, int, int, int]:
    """The order of readings of one thing, most complete first: unfiltered, then the most
    output lines, then the most digits, then the first pasted."""
    return bool(found.filtered), -found.size, -found.digits, found.section.line


def let_go(other: Found, best: Found) -> tuple[int, str, str]:
    """Why `other` is not read: the one read prints all it does, and more or as much."""
    s = other.section
    kept = f"`{short(best.section.command)}` at line {best.section.line}"
    if other.filtered and not best.filtered:
        why = f"the full {kept} says more"
    elif other.size < best.size:
        why = f"{kept} says more"
    else:
        why = f"{kept} says as much"
    return s.line, s.command, f"`{short(s.command)}` ({_lines(other)}) not used: {why}"


def present(name: str, members: list[Found], parsed: Parsed) -> list[Found]:
    """One command's outputs pasted more than once: where they are the same the most
    complete (then the first) is read; where they differ the latest is the present state
    (a df after lvextend), unless the paste ends inside it; of a command that tells which
    system it is (uname, os-release, hostname), a difference is two systems."""
    first = min(members, key=completeness)
    if all(m.value == first.value for m in members):
        parsed.unused += [let_go(m, first) for m in members if m is not first]
        return [first]
    if name in IDENTITY:
        return _two_systems(members, parsed)
    cut_lines = _cut_lines(parsed)
    whole = [m for m in members if m.section.line not in cut_lines] or members
    latest = max(whole, key=lambda m: m.section.line)
    for m in members:
        if m is not latest:
            parsed.unused.append(_superseded(m, latest))
    lines = [m.section.line for m in members if m is not latest]
    cut = [n for n in lines if n > latest.section.line]
    read = (
        f"the paste ends inside the later one at {at_lines(cut)}: line {latest.section.line} "
        "is read" if cut else
        f"the later output, line {latest.section.line}, is read as the present state"
    )  # fmt: skip
    parsed.notes.append(
        (
            latest.section.line,
            (f"`{short(latest.section.command)}` printed otherwise at {at_lines(lines)}: {read}"),
        )
    )
    return [latest]


def _two_systems(members: list[Found], parsed: Parsed) -> list[Found]:
    from rules.parse import LineProblem

    first = min(members, key=lambda m: m.section.line)
    told: set[str] = set()  # one problem a system: its first line names it
    for m in sorted((x for x in members if x is not first), key=lambda x: x.section.line):
        shown = _differs(first.value, m.value)
        if shown is None:
            parsed.unused.append(let_go(m, first))
            continue
        parsed.unused.append(_another(m, first))
        if shown[1] in told:
            continue
        told.add(shown[1])
        parsed.problems.append(LineProblem(m.section.line, m.section.command, (
            f"the paste shows two systems: `{short(first.section.command)}` at line "
            f"{first.section.line} prints {shown[0]}, at line {m.section.line} {shown[1]}; "
            f"line {first.section.line}'s is used")))  # fmt: skip
    return [first]


def _another(m: Found, first: Found) -> tuple[int, str, str]:
    return m.section.line, m.section.command, (
        f"`{short(m.section.command)}` ({_lines(m)}) not used: another system than "
        f"`{short(first.section.command)}` at line {first.section.line} shows")  # fmt: skip


def _differs(a: Any, b: Any) -> tuple[str, str] | None:
    """What two readings of a system's identity print otherwise ('ubuntu 20.04', 'ubuntu
    22.04'), comparing what both print (a cut-off copy prints less); None: the same."""
    names = [n for n in IDENTITY_FIELDS if getattr(a, n, None) and getattr(b, n, None)]
    if all(getattr(a, n) == getattr(b, n) for n in names):
        return None
    return _shown(a, names), _shown(b, names)


def _shown(value: Any, names: list[str]) -> str:
    """The identity fields' values once each ('Ubuntu 20.04', not 'Ubuntu ubuntu 20.04')."""
    seen: set[str] = set()
    out = []
    for word in (str(getattr(value, n)) for n in names):
        if word.lower() not in seen:
            seen.add(word.lower())
            out.append(word)
    return " ".join(out)


def _cut_lines(parsed: Parsed) -> set[int]:
    """The lines of the outputs the paste ends inside (their notes say so)."""
    return {at for at, text in parsed.notes if text.endswith("seems cut off")}


def short(command: str) -> str:
    return command[:80]


def _lines(found: Found) -> str:
    return f"{found.size} line{'s' if found.size != 1 else ''}"


def _superseded(other: Found, latest: Found) -> tuple[int, str, str]:
    """Why an output that another of the same command contradicts is not read."""
    s = other.section
    kept = f"`{short(latest.section.command)}` at line {latest.section.line}"
    why = (
        f"the later {kept} prints otherwise and is read as the present state"
        if latest.section.line > s.line
        else f"the paste ends inside it, and {kept} prints otherwise; that one is read"
    )
    return s.line, s.command, f"`{short(s.command)}` ({_lines(other)}) not used: {why}"


def at_lines(lines: list[int]) -> str:
    """'line 41', 'lines 41 and 67', 'lines 3, 5 and 9'."""
    numbers = [str(n) for n in sorted(set(lines))]
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    return f"lines {', '.join(numbers[:-1])} and {numbers[-1]}"
