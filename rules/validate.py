"""Parse a document against the contract declared in `rules.inventory`, in one pass.

The walker reads each class's declared fields (`rules.fields.specs`): unknown keys are
reported first, then missing required fields, then each value in declaration order; nested
objects and lists carry their JSON path (`storage[3].mount`). Every problem is collected
and reported together; a document with any problem yields no `Inventory` at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.fields import Invalid, Kind, ListOf, Obj, Spec, specs
from rules.inventory import MAX_NAME, MAX_STORAGE, MIX_TOLERANCE, Inventory
from rules.problems import InventoryError, Problem

__all__ = ["MAX_NAME", "MAX_STORAGE", "MIX_TOLERANCE", "parse"]

# Per contract class: its field names, and per field (name, spec, the leaf converter or None).
_Plan = tuple[frozenset[str], tuple[tuple[str, Spec, Callable[[Any], Any] | None], ...]]
_PLANS: dict[type, _Plan] = {}


def parse(document: Any) -> Inventory:
    """Validate a raw document against contract v1; raise `InventoryError` with every problem."""
    problems: list[Problem] = []
    inventory = _object(Obj(Inventory), document, "", problems)
    if problems or inventory is None:
        raise InventoryError(problems)
    assert isinstance(inventory, Inventory)
    return inventory


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        table = specs(cls)
        fields = tuple(
            (name, s, s.kind.convert if isinstance(s.kind, Kind) else None) for name, s in table
        )
        plan = _PLANS[cls] = (frozenset(name for name, _ in table), fields)
    return plan


def _keys(raw: Mapping[str, Any], path: str, plan: _Plan, problems: list[Problem]) -> None:
    names, fields = plan
    for key in raw:
        if key not in names:
            problems.append(Problem(_join(path, str(key)), "unknown field"))
    for name, s, _ in fields:
        if s.required and name not in raw:
            problems.append(Problem(_join(path, name), "is required"))


def _object(
    kind: Obj, raw: Any, path: str, problems: list[Problem], extra: dict[str, Any] | None = None
) -> Any:
    if not isinstance(raw, Mapping):
        problems.append(Problem(path or "$", "must be an object"))
        return None
    plan = _plan(kind.cls)
    before = len(problems)
    if not raw.keys() <= plan[0] or len(raw) < len(plan[1]):
        _keys(raw, path, plan, problems)
    values: dict[str, Any] = dict(extra) if extra else {}
    for name, s, convert in plan[1]:
        if name not in raw:
            continue
        value = raw[name]
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
    obj = kind.cls(**values)
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
    items = [_item(kind, value, f"{path}[{i}]", i, problems) for i, value in enumerate(raw)]
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
