"""Repeated readings whose values are mappings (device → attributes, key → value): one
value, the union of them all, each entry naming the section it was read from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.parse.registry import Section
from rules.parse.repeats import at_lines, completeness, short

if TYPE_CHECKING:
    from rules.parse import Found, Parsed

Path = tuple[str, ...]


def merged(found: list[Found], parsed: Parsed) -> Found:
    """One mapping from all, nested mappings (device → attributes) merged a level down,
    each entry with the section it came from: of sections that print an entry alike, the
    most complete; where they print it otherwise, the latest (the present state: a
    scheduler `cat` after an `echo` into it), with a note."""
    entries: dict[Path, list[tuple[Any, Found]]] = {}
    nested: dict[str, bool] = {}
    for f in sorted(found, key=completeness):
        for key, inner in f.value.items():
            deep = nested.setdefault(key, isinstance(inner, Mapping))
            if deep and isinstance(inner, Mapping):
                for k, v in inner.items():
                    entries.setdefault((key, k), []).append((v, f))
            elif not deep and not isinstance(inner, Mapping):
                entries.setdefault((key,), []).append((inner, f))
    value: dict[str, Any] = {k: {} for k, deep in nested.items() if deep}
    origins: dict[Path, Section] = {}
    changed: dict[int, list[tuple[Path, list[int]]]] = {}
    for path, seen in entries.items():
        v, f = seen[0]
        if any(other != v for other, _ in seen[1:]):
            v, f = max(seen, key=lambda e: e[1].section.line)
            earlier = sorted({g.section.line for w, g in seen if w != v})
            changed.setdefault(f.section.line, []).append((path, earlier))
        if len(path) == 1:
            value[path[0]] = v
        else:
            value[path[0]][path[1]] = v
        origins[path] = f.section
    _note_changed(changed, found, parsed)
    first = min(found, key=lambda f: f.section.line)
    rest = tuple(f.section for f in found if f is not first)
    section = dataclasses.replace(first.section, command=_label(first.section, len(found)))
    return dataclasses.replace(
        first, section=section, value=value, size=sum(f.size for f in found), also=rest,
        origins=origins,
    )  # fmt: skip


def _note_changed(
    changed: dict[int, list[tuple[Path, list[int]]]], found: list[Found], parsed: Parsed
) -> None:
    """A note for each section whose values replaced what an earlier one printed."""
    by_line = {f.section.line: f.section for f in found}
    for line, paths in sorted(changed.items()):
        names = ", ".join(".".join(p) for p, _ in paths[:5]) + (", …" if len(paths) > 5 else "")
        earlier = at_lines([n for _, lines in paths for n in lines])
        parsed.notes.append((line, (
            f"`{short(by_line[line].command)}` prints {names} otherwise than at "
            f"{earlier}: the later value is read as the present state")))  # fmt: skip


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
