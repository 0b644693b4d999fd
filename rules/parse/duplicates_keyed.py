"""Repeated readings of a table whose entries stand alone: the union of their entries.

A df's rows (by mount point), a zfs list's data sets (by name) and ioo's or vmo's
tunables (by name) are independent entries, and a command pasted more than once prints
parts of one table (`vmo -a | grep minfree`, then `… | grep maxfree`: each its own
tunable) or the same table twice (`df -g` before and after `chfs`). Of readings in the
same form (the same options, so values compare), each entry is read once: where every
reading that prints it prints it alike, from the most complete of them; where they print
it otherwise, from the latest, the present state, with a note naming both lines. Each
reading keeps the entries it gives; one left with none is named as not used, and why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.parse.repeats import at_lines

if TYPE_CHECKING:
    from collections.abc import Callable

    from rules.parse import Found, Parsed

# Parsers whose value is a tuple of rows, and the attribute naming a row.
ROWS = {"df": "mount", "zfs_list": "name"}
TUNABLES = frozenset({"ioo", "vmo"})  # a Tunables value: name → current value
# -L and -x print a table whose CUR column is the value -a and -o print as `name = value`.
TABLE_FLAGS = frozenset({"-L", "-x"})
MAX_NAMED = 5  # entries a note names


def keyed(name: str, members: list[Found]) -> bool:
    """Whether these readings are tables of stand-alone entries (see the docstring)."""
    if name in TUNABLES:
        return all(isinstance(getattr(m.value, "values", None), Mapping) for m in members)
    attr = ROWS.get(name)
    return attr is not None and all(
        isinstance(m.value, tuple) and all(hasattr(row, attr) for row in m.value) for m in members
    )


def tunables_form(found: Found) -> tuple[str, ...]:
    table = any(a in TABLE_FLAGS for a in found.section.argv[1:])
    return (found.section.argv[0].rsplit("/", 1)[-1], "table" if table else "")


def union(
    name: str, members: list[Found], parsed: Parsed, rank: Callable[[Found], Any]
) -> list[Found]:
    """The readings kept, each trimmed to the entries it gives (see the docstring);
    `rank` orders readings most complete first."""
    entries = [_entries(name, m.value) for m in members]
    owner: dict[str, int] = {}  # entry → index of the reading it is read from
    changed: dict[int, list[tuple[str, list[int]]]] = {}
    holding: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        for key in e:
            holding.setdefault(key, []).append(i)
    for key, holders in holding.items():
        first = min(holders, key=lambda i: rank(members[i]))
        if all(entries[i][key] == entries[first][key] for i in holders):
            owner[key] = first
            continue
        latest = max(holders, key=lambda i: members[i].section.line)
        owner[key] = latest
        now = entries[latest][key]
        earlier = [members[i].section.line for i in holders if entries[i][key] != now]
        changed.setdefault(latest, []).append((key, earlier))
    kept = [i for i in range(len(members)) if i in owner.values()]
    if not kept:
        kept = [min(range(len(members)), key=lambda i: rank(members[i]))]
    for i, lines in changed.items():
        parsed.notes.append((members[i].section.line, _changed_note(members[i], lines)))
    for i, m in enumerate(members):
        if i not in kept:
            parsed.unused.append(_why(m, list(entries[i]), owner, changed, members))
    return [_trimmed(name, members[i], {k for k, o in owner.items() if o == i}) for i in kept]


def _entries(name: str, value: Any) -> dict[str, Any]:
    """Each entry's key and what the reading prints for it."""
    if name in TUNABLES:
        return dict(value.values)
    out: dict[str, list[Any]] = {}
    for row in value:
        out.setdefault(str(getattr(row, ROWS[name])), []).append(row)
    return {k: tuple(rows) for k, rows in out.items()}


def _trimmed(name: str, found: Found, keys: set[str]) -> Found:
    value = found.value
    if name in TUNABLES:

        def pick(table: Mapping[str, str]) -> dict[str, str]:
            return {k: v for k, v in table.items() if k in keys}

        value = dataclasses.replace(
            value, values=pick(value.values), defaults=pick(value.defaults),
            boot=pick(value.boot), restricted=frozenset(value.restricted & keys),
        )  # fmt: skip
    elif keys:
        value = tuple(row for row in value if str(getattr(row, ROWS[name])) in keys)
    return dataclasses.replace(found, value=value)


def _named(keys: list[str]) -> str:
    more = ", …" if len(keys) > MAX_NAMED else ""
    return ", ".join(keys[:MAX_NAMED]) + more


def _changed_note(found: Found, changed: list[tuple[str, list[int]]]) -> str:
    lines = at_lines([n for _, ns in changed for n in ns])
    keys = _named([k for k, _ in changed])
    command = found.section.command[:80]
    return (
        f"`{command}` prints {keys} otherwise than at {lines}: the later output, "
        f"line {found.section.line}, is read as the present state"
    )


def _why(
    m: Found,
    mine: list[str],
    owner: dict[str, int],
    changed: dict[int, list[tuple[str, list[int]]]],
    members: list[Found],
) -> tuple[int, str, str]:
    """Why a reading left with no entry is not used: a later one prints its entries
    otherwise, or others print them as it does."""
    s = m.section
    head = f"`{s.command[:80]}` ({m.size} line{'s' if m.size != 1 else ''}) not used: "
    later = {o for o, ks in changed.items() for k, lines in ks if s.line in lines and k in mine}
    parts = []
    for o in sorted(later):
        keys = [k for k, lines in changed[o] if s.line in lines]
        other = members[o].section
        parts.append(f"the later `{other.command[:80]}` at line {other.line} prints "
                     f"{_named(keys)} otherwise and is read as the present state")  # fmt: skip
    rest = sorted({owner[k] for k in mine} - later)
    for o in rest:
        other, size = members[o].section, members[o].size
        verb = "says more" if m.size < size or (m.filtered and not members[o].filtered) else (
            "says as much")  # fmt: skip
        full = "the full " if m.filtered and not members[o].filtered else ""
        what = "" if not later else " for the rest"
        parts.append(f"{full}`{other.command[:80]}` at line {other.line} {verb}{what}")
    return s.line, s.command, head + "; ".join(parts or ["it prints no entry"])
