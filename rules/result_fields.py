"""How the result is declared: typed records (NamedTuples) whose annotations are the contract.

Each field of a result record is annotated with its Python type and, through `Annotated`,
what it means (`Doc`) and, for the inventory echo, the component it is (`Ref`). From that
one declaration come the JSON Schema the API serves (`record_schema`), the document a
record is written as (`to_document`: recommendations.json, the API's body, what is stored)
and the reading of a document back into records (`from_document`), every problem named by
its JSON path. A field's default is what a document that leaves it out is read as.

The types a result uses: str, int, float, bool, a Literal of strings, `X | None`,
`tuple[X, ...]` (a JSON list), `Mapping[str, X]` (a JSON object) and another record.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple, Union, get_args, get_origin, get_type_hints

from rules.problems import Problem

Schema = dict[str, Any]
Reader = Callable[[Any, str, list[Problem]], Any]
Writer = Callable[[Any], Any]
BAD = object()  # what a reader returns for a value it refused (the problem is recorded)
_NONE = type(None)


@dataclass(frozen=True)
class Doc:
    """What a field means, for the schema's description."""

    text: str


@dataclass(frozen=True)
class Ref:
    """A field whose schema is a component declared elsewhere (the inventory's)."""

    name: str


@dataclass(frozen=True)
class Field:
    name: str
    type: Any  # the annotation without Annotated's extras
    doc: str
    ref: str | None
    has_default: bool
    default: Any


def fields(cls: type) -> tuple[Field, ...]:
    """A record's fields in declaration order (which is the document's key order)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = get_type_hints(cls, include_extras=True)
        defaults: dict[str, Any] = getattr(cls, "_field_defaults", {})
        names: tuple[str, ...] = getattr(cls, "_fields")  # noqa: B009  # a NamedTuple's
        found = tuple(_field(name, hints[name], defaults) for name in names)
        _FIELDS[cls] = found
    return found


def _field(name: str, hint: Any, defaults: Mapping[str, Any]) -> Field:
    doc, ref = "", None
    if get_origin(hint) is Annotated:
        hint, *extras = get_args(hint)
        doc = next((e.text for e in extras if isinstance(e, Doc)), "")
        ref = next((e.name for e in extras if isinstance(e, Ref)), None)
    return Field(name, hint, doc, ref, name in defaults, defaults.get(name))


_FIELDS: dict[type, tuple[Field, ...]] = {}


def is_record(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")


def _optional(tp: Any) -> Any | None:
    """X for `X | None`, else None."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not _NONE]
        if len(args) == 1 and len(get_args(tp)) == 2:
            return args[0]
    return None


# Schema --------------------------------------------------------------------------------

Resolve = Callable[[Any], Schema]  # a record class or a Ref's name -> its schema


def record_schema(cls: type, resolve: Resolve) -> Schema:
    """The object schema of a record: every field, each required (a writer writes all)."""
    properties = {f.name: field_schema(f, resolve) for f in fields(cls)}
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        **({"description": cls.__doc__.strip()} if cls.__doc__ else {}),
    }


def field_schema(f: Field, resolve: Resolve) -> Schema:
    schema = resolve(f.ref) if f.ref else type_schema(f.type, resolve)
    if f.doc and "$ref" not in schema:  # 3.0.3 ignores whatever stands beside a $ref
        schema = {**schema, "description": f.doc}
    return schema


def type_schema(tp: Any, resolve: Resolve) -> Schema:
    inner = _optional(tp)
    if inner is not None:
        schema = {**type_schema(inner, resolve), "nullable": True}
        if "enum" in schema:  # an enum lists every value it takes, null too (OpenAPI 3.0.3)
            schema["enum"] = [*schema["enum"], None]
        return schema
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return {"type": "string", "enum": list(args)}
    if origin is tuple:
        return {"type": "array", "items": type_schema(args[0], resolve)}
    if origin in (Mapping, dict):
        return {"type": "object", "additionalProperties": type_schema(args[1], resolve)}
    if is_record(tp):
        return resolve(tp)
    return dict(_SCALARS[tp][0])


_SCALARS: dict[Any, tuple[Schema, str]] = {
    str: ({"type": "string"}, "must be a string"),
    int: ({"type": "integer"}, "must be an integer"),
    float: ({"type": "number"}, "must be a number"),
    bool: ({"type": "boolean"}, "must be true or false"),
    Any: ({}, ""),
}


# Writing -------------------------------------------------------------------------------


def to_document(record: NamedTuple) -> dict[str, Any]:
    """A record as JSON data, keys in declaration order."""
    return _writer(type(record))(record)  # type: ignore[no-any-return]


def _writer(cls: type) -> Writer:
    found = _WRITERS.get(cls)
    if found is None:
        steps = tuple((f.name, _write(f.type)) for f in fields(cls))

        def found(record: Any) -> dict[str, Any]:
            return {
                name: value if how is None else how(value)
                for (name, how), value in zip(steps, record, strict=True)
            }

        _WRITERS[cls] = found
    return found


_WRITERS: dict[type, Writer] = {}


def _write(tp: Any) -> Writer | None:
    """How to write a value of the type: None for a value JSON takes as it is."""
    inner = _optional(tp)
    if inner is not None:
        how = _write(inner)
        return None if how is None else (lambda v: None if v is None else how(v))
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple:
        item = _write(args[0])
        return list if item is None else (lambda v: [item(x) for x in v])
    if origin in (Mapping, dict):
        return dict
    if is_record(tp):
        return _writer(tp)
    return None


# Reading -------------------------------------------------------------------------------


def from_document(cls: type, data: Any, path: str, problems: list[Problem]) -> Any:
    """The record a document holds, or BAD with each problem recorded by path. A field
    the document leaves out (or gives as null, where null is not its value) is read as
    its default; without a default it is missing."""
    return _reader(cls)(data, path, problems)


def _reader(cls: type) -> Reader:
    found = _READERS.get(cls)
    if found is None:
        steps = tuple((f, _read(f.type)) for f in fields(cls))
        found = _READERS[cls] = lambda data, path, problems: _read_record(
            cls, steps, data, path, problems
        )
    return found


_READERS: dict[type, Reader] = {}


Steps = tuple[tuple[Field, Reader], ...]


def _read_record(cls: type, steps: Steps, data: Any, path: str, problems: list[Problem]) -> Any:
    if not isinstance(data, Mapping):
        problems.append(Problem(path or "$", "must be an object"))
        return BAD
    values, failed = [], False
    for f, read in steps:
        value = data.get(f.name, BAD)
        where = f"{path}.{f.name}" if path else f.name
        if value is BAD or (value is None and f.has_default and f.default is not None):
            if not f.has_default:
                problems.append(Problem(where, "is missing"))
                failed = True
            values.append(f.default)
            continue
        value = read(value, where, problems)
        failed = failed or value is BAD
        values.append(value)
    return BAD if failed else cls(*values)


def _read(tp: Any) -> Reader:
    inner = _optional(tp)
    if inner is not None:
        read_inner = _read(inner)
        return lambda v, path, problems: None if v is None else read_inner(v, path, problems)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return _choice(tuple(args))
    if origin is tuple:
        return _list_of(_read(args[0]))
    if origin in (Mapping, dict):
        return _map_of(_read(args[1]))
    if is_record(tp):
        return _reader(tp)
    return _scalar(tp)


def _refused(problems: list[Problem], path: str, message: str) -> Any:
    problems.append(Problem(path, message))
    return BAD


def _scalar(tp: Any) -> Reader:
    message = _SCALARS[tp][1]
    if tp is Any:
        return lambda v, path, problems: v
    accepted: tuple[type, ...] = (int, float) if tp is float else (tp,)

    def read(value: Any, path: str, problems: list[Problem]) -> Any:
        if isinstance(value, accepted) and (tp is bool or not isinstance(value, bool)):
            return float(value) if tp is float else value  # type: ignore[arg-type]
        return _refused(problems, path, message)

    return read


def _choice(options: tuple[str, ...]) -> Reader:
    message = "must be one of " + ", ".join(options)
    return lambda value, path, problems: (
        value if isinstance(value, str) and value in options else _refused(problems, path, message)
    )


def _list_of(item: Reader) -> Reader:
    def read(value: Any, path: str, problems: list[Problem]) -> Any:
        if not isinstance(value, list):
            return _refused(problems, path, "must be a list")
        items = tuple(item(v, f"{path}[{i}]", problems) for i, v in enumerate(value))
        return BAD if any(v is BAD for v in items) else items

    return read


def _map_of(item: Reader) -> Reader:
    """An object of names to values, read into a dict."""

    def read(value: Any, path: str, problems: list[Problem]) -> Any:
        if isinstance(value, Mapping):
            items = {str(k): item(v, f"{path}.{k}", problems) for k, v in value.items()}
            return BAD if any(v is BAD for v in items.values()) else items
        return _refused(problems, path, "must be an object")

    return read
