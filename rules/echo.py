"""Walks over the contract declaration: the echo of a validated object, and every path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.fields import ListOf, Obj, specs


def to_document(obj: Any) -> dict[str, Any]:
    """A contract object back as JSON data, every field present (defaults filled in)."""
    plan = _ECHO.get(type(obj))
    if plan is None:
        table = specs(type(obj))
        names = tuple(name for name, _ in table)
        nested = tuple((name, how) for name, s in table if (how := _nested_echo(s.kind)))
        plan = _ECHO[type(obj)] = (names, nested)
    values = obj.__dict__
    out = {name: values[name] for name in plan[0]}
    for name, how in plan[1]:
        out[name] = how(out[name])
    return out


_ECHO: dict[type, tuple[tuple[str, ...], tuple[tuple[str, Callable[[Any], Any]], ...]]] = {}


def _nested_echo(kind: Any) -> Callable[[Any], Any] | None:
    """How to echo a field's value: None for a plain value, else a function."""
    if isinstance(kind, Obj):
        return lambda value: None if value is None else to_document(value)
    if isinstance(kind, ListOf):
        item = _nested_echo(kind.item)
        if item is None:
            return list
        return lambda values: [item(v) for v in values]
    return None


def field_paths(cls: type, prefix: str = "") -> list[str]:
    """Every path a rule may read: 'server', 'server.cpus', 'storage[].mount', …"""
    found: list[str] = []
    for name, s in specs(cls):
        path = f"{prefix}{name}"
        found.append(path)
        kind: Any = s.kind
        if isinstance(kind, ListOf):
            path += "[]"
            kind = kind.item
        if isinstance(kind, Obj):
            found += field_paths(kind.cls, path + ".")
    return found
