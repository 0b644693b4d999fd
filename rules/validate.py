"""Parse a document against the contract declared in `rules.inventory`, in one pass.

The walker reads each class's declared fields (`rules.fields.specs`): unknown keys are
reported first, then missing required fields, then each value in declaration order; nested
objects and lists carry their JSON path (`storage[3].mount`). Every problem is collected
and reported together, with those of the checks across fields (`rules.inventory_fit`);
a document with any problem yields no `Inventory` at all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.fields import Invalid, Kind, ListOf, Obj, Spec, specs
from rules.inventory import MAX_NAME, MAX_STORAGE, Inventory
from rules.inventory_checks import MIX_TOLERANCE, inventory_fits
from rules.inventory_fit import fit_problems, without_repeats
from rules.problems import InventoryError, Problem

__all__ = ["MAX_NAME", "MAX_STORAGE", "MIX_TOLERANCE", "parse", "parse_part", "parse_stored"]

_ABSENT = object()


@dataclass(frozen=True)
class _Plan:
    """Per contract class, worked out once: what `_object` needs to check and build it."""

    names: frozenset[str]
    required: frozenset[str]
    # (name, spec, leaf converter or None for a nested kind)
    fields: tuple[tuple[str, Spec, Callable[[Any], Any] | None], ...]
    defaults: dict[str, Any]  # every field's default, internal fields included


_PLANS: dict[type, _Plan] = {}


_ROOT = Obj(Inventory, post=inventory_fits)


def parse(document: Any) -> Inventory:
    """Validate a raw document against contract v1; raise `InventoryError` with every problem."""
    return _parse(document, across_fields=True)


def parse_stored(document: Any) -> Inventory:
    """A document the advisor accepted and stored: the contract without the checks across
    fields, so an assessment stored before they refused its values still verifies and is
    advised again (a new document is held to them all by `parse`)."""
    return _parse(document, across_fields=False)


def _parse(document: Any, *, across_fields: bool) -> Inventory:
    problems: list[Problem] = []
    inventory = _object(_ROOT, document, "", problems)
    if across_fields:
        problems = without_repeats(problems, fit_problems(document))
    if problems or inventory is None:
        raise InventoryError(problems)
    assert isinstance(inventory, Inventory)
    return inventory


def parse_part(cls: type, document: Any, path: str) -> Any:
    """One contract class on its own (the `current` block a newer reading gives), its
    problems under `path`; raise `InventoryError` with every one."""
    problems: list[Problem] = []
    found = _object(Obj(cls), document, path, problems)
    if problems or found is None:
        raise InventoryError(problems)
    return found


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        table = specs(cls)
        plan = _PLANS[cls] = _Plan(
            names=frozenset(name for name, _ in table),
            required=frozenset(name for name, s in table if s.required),
            fields=tuple(
                (name, s, s.kind.convert if isinstance(s.kind, Kind) else None) for name, s in table
            ),
            defaults={
                f.name: f.default
                for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING
            },
        )
    return plan


def _keys(raw: Mapping[str, Any], path: str, plan: _Plan, problems: list[Problem]) -> None:
    for key in raw:
        if key not in plan.names:
            problems.append(Problem(_join(path, str(key)), "unknown field"))
    for name, s, _ in plan.fields:
        if s.required and name not in raw:
            problems.append(Problem(_join(path, name), "is required"))


def _build(cls: type, plan: _Plan, values: dict[str, Any]) -> Any:
    """The frozen object, built as its generated __init__ would (the contract classes have
    no __post_init__), without one object.__setattr__ call per field."""
    obj: Any = object.__new__(cls)
    obj.__dict__.update(plan.defaults)
    obj.__dict__.update(values)
    return obj


def _object(
    kind: Obj, raw: Any, path: str, problems: list[Problem], extra: dict[str, Any] | None = None
) -> Any:
    if type(raw) is not dict and not isinstance(raw, Mapping):  # the ABC check is slow
        problems.append(Problem(path or "$", "must be an object"))
        return None
    plan = _plan(kind.cls)
    before = len(problems)
    keys = raw.keys()
    if not keys <= plan.names or not plan.required <= keys:
        _keys(raw, path, plan, problems)
    values: dict[str, Any] = dict(extra) if extra else {}
    get = raw.get
    for name, s, convert in plan.fields:
        value = get(name, _ABSENT)
        if value is _ABSENT:
            continue
        if value is None and s.nullable:
            values[name] = s.default
        elif convert is not None:
            try:
                values[name] = convert(value)
            except Invalid as exc:
                problems.append(Problem(_join(path, name), exc.message))
        else:
            values[name] = _nested(s.kind, value, _join(path, name), problems)
    if len(problems) > before:
        return None
    obj = _build(kind.cls, plan, values)
    if kind.post is not None:
        problems.extend(Problem(p, m) for p, m in kind.post(obj, path))
    return obj


def _nested(kind: Any, value: Any, path: str, problems: list[Problem]) -> Any:
    if isinstance(kind, Obj):
        return _object(kind, value, path, problems)
    assert isinstance(kind, ListOf)
    return _list(kind, value, path, problems)


def _list(kind: ListOf, raw: Any, path: str, problems: list[Problem]) -> tuple[Any, ...] | None:
    if not isinstance(raw, list):
        problems.append(Problem(path, kind.message))
        return None
    if len(raw) > kind.max_items:
        problems.append(Problem(path, kind.too_long or kind.message))
        return None
    before = len(problems)
    item = kind.item
    if isinstance(item, Kind):
        try:  # the common case first: every item is valid, no paths to build
            items = list(map(item.convert, raw))
        except Invalid:
            items = [_item(kind, v, f"{path}[{i}]", i, problems) for i, v in enumerate(raw)]
    else:
        items = [_item(kind, v, f"{path}[{i}]", i, problems) for i, v in enumerate(raw)]
    if kind.post is not None:
        problems.extend(Problem(p, m) for p, m in kind.post(items, path))
    return None if len(problems) > before else tuple(items)


def _item(kind: ListOf, value: Any, path: str, index: int, problems: list[Problem]) -> Any:
    item = kind.item
    if isinstance(item, Obj):
        extra = {kind.index_field: index} if kind.index_field else None
        return _object(item, value, path, problems, extra)
    try:
        return item.convert(value)
    except Invalid as exc:
        problems.append(Problem(path, exc.message))
        return None
