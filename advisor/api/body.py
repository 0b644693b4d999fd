"""Bodies read as strictly as query parameters: a field the operation does not declare is
a 400 naming its JSON path (`x`, `single[0].y`), and a body sent to an operation that
takes none is a 400 too, never silently ignored.

What is taken is what the schema documents: the request each handler declares with
`extend_schema(request=...)` (a serializer, a JSON Schema, or None for no body). A body
declared as a component (`{"$ref": ...}`: the inventory) is judged by its own validator,
which names unknown fields itself; a body that is not JSON (a log, a zip) is read raw.
A view with a body limit of its own (`max_body_bytes`: logs, fleets, bundles) reads its
body itself, streamed or field by field, and names unknown fields there: reading it here
first would consume the stream it spools.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from functools import cache
from typing import Any

from drf_spectacular.utils import OpenApiRequest
from rest_framework import exceptions, serializers
from rest_framework.fields import empty
from rest_framework.request import Request

from advisor.core.errors import ROOT_PATH

BODY_METHODS = ("post", "put", "patch")
JSON = "application/json"
# A tree of the fields a body takes: names to subtrees; a list's items under ITEMS;
# None where anything goes (a value, or an object with open keys).
Tree = dict[str, Any] | None
ITEMS = "[]"
NO_BODY = "this operation takes no body: send none"
UNKNOWN = "unknown field"  # as the inventory contract and the serializers say it


def declared_request(view_class: type, method: str) -> Any:
    """What the handler's extend_schema declares as its request (`empty` if nothing)."""
    handler = getattr(view_class, method, None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    getter = getattr(schema_class, "get_request_serializer", None)
    if getter is None:
        return empty
    try:
        return inspect.getclosurevars(getter).nonlocals.get("request", empty)
    except TypeError:  # not a closure: a schema class written by hand
        return empty


def _serializer_tree(serializer: serializers.BaseSerializer[Any]) -> Tree:
    if isinstance(serializer, serializers.ListSerializer):
        return {ITEMS: _field_tree(serializer.child)}
    fields: Mapping[str, Any] = getattr(serializer, "fields", {})
    return {name: _field_tree(field) for name, field in fields.items() if not field.read_only}


def _field_tree(field: Any) -> Tree:
    if isinstance(field, serializers.BaseSerializer):
        return _serializer_tree(field)
    if isinstance(field, serializers.ListField):
        return {ITEMS: _field_tree(field.child)}
    return None


def _schema_tree(schema: Mapping[str, Any]) -> Tree:
    if "properties" in schema and schema.get("additionalProperties") in (None, False):
        return {name: _schema_tree(sub) for name, sub in schema["properties"].items()}
    if schema.get("type") == "array" and isinstance(schema.get("items"), Mapping):
        return {ITEMS: _schema_tree(schema["items"])}
    return None  # a value, a component ($ref) judged elsewhere, or open keys


def tree_of(declared: Any) -> Tree:
    """The fields a JSON body declared as `declared` takes (None: not judged here)."""
    if isinstance(declared, OpenApiRequest):
        declared = declared.request
    if isinstance(declared, type) and issubclass(declared, serializers.BaseSerializer):
        declared = declared()
    if isinstance(declared, serializers.BaseSerializer):
        return _serializer_tree(declared)
    if isinstance(declared, Mapping) and isinstance(declared.get(JSON), Mapping):
        return _schema_tree(declared[JSON])
    if isinstance(declared, Mapping) and JSON in declared:
        return tree_of(declared[JSON])
    if isinstance(declared, Mapping) and "type" in declared:
        return _schema_tree(declared)
    return None


def unknown_paths(data: Any, tree: Tree, path: str = "") -> dict[str, list[str]]:
    """Each path of `data` that `tree` does not take."""
    found: dict[str, list[str]] = {}
    if tree is None:
        return found
    if isinstance(data, list) and ITEMS in tree:
        for n, item in enumerate(data):
            found |= unknown_paths(item, tree[ITEMS], f"{path}[{n}]")
    elif isinstance(data, dict) and ITEMS not in tree:
        for key, value in data.items():
            where = f"{path}.{key}" if path else str(key)
            if key in tree:
                found |= unknown_paths(value, tree[key], where)
            else:
                found[where] = [UNKNOWN]
    return found


@cache
def _tree_for(view_class: type, method: str) -> tuple[bool, Tree]:
    """(whether the operation takes a body, its fields' tree)."""
    declared = declared_request(view_class, method)
    return declared is not None, (None if declared in (None, empty) else tree_of(declared))


def _has_body(request: Request) -> bool:
    length = request.META.get("CONTENT_LENGTH") or "0"
    chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
    return chunked or (length.isdigit() and int(length) > 0)


def _is_json(request: Request) -> bool:
    return (request.content_type or "").split(";")[0].strip().lower() == JSON


def check_body(view: Any, request: Request, method: str) -> None:
    """400 naming each field of the body the operation does not declare, or the body
    itself where the operation takes none."""
    if method not in BODY_METHODS:
        return
    takes_body, tree = _tree_for(type(view), method)  # type: ignore[arg-type]  # classes hash
    if not takes_body:
        if _has_body(request):
            data = request.data if _is_json(request) else None
            named = list(data) if isinstance(data, dict) and data else [ROOT_PATH]
            raise exceptions.ValidationError({name: [NO_BODY] for name in named})
        return
    if tree is None or getattr(view, "max_body_bytes", None) is not None:
        return
    if _is_json(request) and _has_body(request) and (found := unknown_paths(request.data, tree)):
        raise exceptions.ValidationError(found)
