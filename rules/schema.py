"""The inventory contract as JSON Schema (the OpenAPI 3.0 dialect the API documents).

Read off the declarations in `rules.inventory`, like the validation itself, so the schema
the API serves cannot drift from what `rules.inventory_from` accepts. What JSON Schema cannot say
(mix fractions summing to 1, unique mounts, no '..' in a mount) is in the descriptions.
"""

from __future__ import annotations

from typing import Any

from rules.fields import Kind, ListOf, Obj, Spec, specs
from rules.inventory import Inventory

Schema = dict[str, Any]


def inventory_schema() -> Schema:
    """The whole inventory document, contract v1."""
    schema = object_schema(Inventory)
    schema["description"] = "An inventory, contract v1 (docs/contract.md)."
    return schema


def object_schema(cls: type) -> Schema:
    properties = {name: field_schema(s) for name, s in specs(cls)}
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    required = [name for name, s in specs(cls) if s.required]
    if required:  # OpenAPI 3.0 forbids an empty list
        schema["required"] = required
    return schema


def kind_schema(kind: Kind | Obj | ListOf) -> Schema:
    if isinstance(kind, Obj):
        schema = object_schema(kind.cls)
        if kind.min_properties:
            schema["minProperties"] = kind.min_properties
        return schema
    if isinstance(kind, ListOf):
        return {"type": "array", "items": kind_schema(kind.item), "maxItems": kind.max_items}
    return kind.schema()


def field_schema(s: Spec) -> Schema:
    schema = {**kind_schema(s.kind), "title": s.label}
    if s.help:
        schema["description"] = s.help
    if s.example is not None:
        schema["example"] = s.example
    if s.nullable:
        schema["nullable"] = True
        if "enum" in schema:  # an enum lists every value it takes, null too (OpenAPI 3.0.3)
            schema["enum"] = [*schema["enum"], None]
    if not s.required and s.default not in (None, ()):
        schema["default"] = s.default
    return schema
