"""Walks over the contract declaration: the echo of a validated object, and every path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from rules.fields import ListOf, Obj, specs


def to_document(obj: Any) -> dict[str, Any]:
    """A contract object back as JSON data, every field present (defaults filled in) but
    those declared `echo_default=False`, which appear only when set."""
    plan = _ECHO.get(type(obj))
    if plan is None:
        plan = _ECHO[type(obj)] = _plan(type(obj))
    values = obj.__dict__
    out = {name: values[name] for name in plan.names}
    for name, default in plan.unless_default:
        if out[name] == default:
            del out[name]
    for name, how in plan.nested:
        if name in out:
            out[name] = how(out[name])
    return out


class _Plan(NamedTuple):
    names: tuple[str, ...]
    nested: tuple[tuple[str, Callable[[Any], Any]], ...]
    unless_default: tuple[tuple[str, Any], ...]  # fields echoed only when not the default


def _plan(cls: type) -> _Plan:
    table = specs(cls)
    return _Plan(
        names=tuple(name for name, _ in table),
        nested=tuple((name, how) for name, s in table if (how := _nested_echo(s.kind))),
        unless_default=tuple((name, s.default) for name, s in table if not s.echo_default),
    )


_ECHO: dict[type, _Plan] = {}


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
