"""OpenAPI components for the contract: the inventory in, the result out, the error envelope.

The inventory is validated by `rules.inventory_from`, not by a serializer; its schema is
read off the same declaration (`rules.schema.inventory_schema`), so the two cannot drift apart.
The result's are read off its records (`rules.result_records`), as recommendations.json is.
drf-spectacular picks these up through `add_components`, a postprocessing hook named in
SPECTACULAR_SETTINGS; views refer to them with `ref("Inventory")`.
"""

from __future__ import annotations

from typing import Any, get_args

from drf_spectacular.utils import OpenApiResponse

from advisor.api.schema_measured import measured_comparison
from rules.compare import Status
from rules.result_records import result_schemas
from rules.schema import inventory_schema

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(name: str) -> dict[str, Schema]:
    """A request body given as a component (a bare dict would read as media types)."""
    return {"application/json": ref(name)}


def _obj(properties: Schema, required: tuple[str, ...] | list[str], **extra: Any) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, **extra}
    if required:  # OpenAPI 3.0 forbids an empty list
        schema["required"] = list(required)
    return schema


def _enum(options: tuple[str, ...]) -> Schema:
    return {"type": "string", "enum": list(options)}


def _strings() -> Schema:
    return {"type": "array", "items": {"type": "string"}}


def result_components() -> dict[str, Schema]:
    """The result and its records, read off their one declaration (rules.result_records)."""
    return result_schemas(ref)


def assessment(result: Schema) -> Schema:
    """A stored result: the contract's result (in its current version) plus `id` and `url`."""
    properties = {
        "id": {"type": "integer"},
        "url": {"type": "string", "format": "uri"},
        **result["properties"],
    }
    return _obj(properties, ("id", "url", *result["required"]), description="A stored result.")


def error() -> Schema:
    return _obj(
        {
            "code": {"type": "string", "example": "invalid"},
            "detail": {"type": "string"},
            "errors": {
                "type": "object",
                "additionalProperties": _strings(),
                "description": "messages by JSON path (storage[3].mount), empty when the "
                "error concerns the request as a whole",
            },
            "retry_after": {
                "type": "integer",
                "description": "seconds to wait before trying again (429 and 503 only; "
                "the Retry-After header says the same)",
            },
        },
        ("code", "detail", "errors"),
        description="Every 4xx and 5xx answer of the API.",
    )


def rule_catalog() -> Schema:
    settings = _obj(
        {"target": {"type": "string"}, "setting": {"type": "string"}}, ("target", "setting")
    )
    rule = _obj(
        {"id": {"type": "string"}, "title": {"type": "string"}, "sources": _strings(),
         "settings": {"type": "array", "items": settings},
         "inputs": {**_strings(), "description": "contract fields it reads"},
         "reads": {"type": "array", "items": settings,
                   "description": "settings of earlier rules it reads"},
         "doc": {"type": "string"}},
        ("id", "title", "sources", "settings", "inputs", "reads"),
    )  # fmt: skip
    source = _obj(
        {"title": {"type": "string"}, "citation": {"type": "string"},
         "confirmed": {"type": "boolean"}},
        ("title", "citation", "confirmed"),
    )  # fmt: skip
    return _obj(
        {
            "rules_version": {"type": "string"},
            "rules": {"type": "array", "items": rule},
            "sources": {"type": "object", "additionalProperties": source},
        },
        ("rules_version", "rules", "sources"),
    )


def health() -> Schema:
    component = _obj(
        {"status": _enum(("ok", "in-process", "unreachable")),
         "latency_ms": {"type": "number", "nullable": True}},
        ("status",),
    )  # fmt: skip
    return _obj(
        {
            "status": _enum(("ok", "degraded", "unavailable")),
            "rules_version": {"type": "string"},
            "components": _obj(
                {"database": component, "broker": component}, ("database", "broker")
            ),
        },
        ("status", "components"),
    )


def partial(schema: Any) -> Any:
    """`schema` with nothing required at any depth (no `required`, no `minProperties`):
    the same fields, types and bounds, any of them absent."""
    if isinstance(schema, list):
        return [partial(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept = {k: v for k, v in schema.items() if k not in ("required", "minProperties")}
    if isinstance(kept.get("properties"), dict):
        kept["properties"] = {n: partial(s) for n, s in kept["properties"].items()}
    for key in ("items", "additionalProperties", "allOf", "anyOf", "oneOf"):
        if isinstance(kept.get(key), (dict, list)):
            kept[key] = partial(kept[key])
    return kept


def partial_inventory() -> Schema:
    schema: Schema = partial(inventory_schema())
    schema["description"] = (
        "An inventory as far as it is known: the fields, types and bounds of Inventory, "
        "none of them required."
    )
    return schema


def draft() -> Schema:
    text, line = {"type": "string"}, {"type": "integer"}
    provenance = _obj(
        {"path": text, "value": {}, "command": text, "line": line, "raw": text, "note": text,
         "text": text},
        ("path", "value", "command", "line", "text"),
    )  # fmt: skip
    missing = _obj({"path": text, "reason": text, "guess": {"nullable": True}}, ("path", "reason"))
    problem = _obj({"line": line, "command": text, "message": text}, ("line", "message"))
    return _obj(
        {
            "inventory": {"allOf": [ref("PartialInventory")], "description": "the draft: "
                          "an Inventory without its workload, guesses listed in `missing`"},
            "provenance": {"type": "object", "additionalProperties": provenance,
                           "description": "JSON path -> where the value was read"},
            "missing": {"type": "array", "items": missing},
            "problems": {"type": "array", "items": problem},
            "unknown_commands": {"type": "array", "items": _obj(
                {"line": line, "command": text}, ("line", "command"))},
            "notes": _strings(),
            "used_sections": {"type": "array", "items": _obj(
                {"line": line, "command": text, "fields": {**_strings(),
                 "description": "the draft's fields it gave"}}, ("line", "command", "fields"))},
            "unused_sections": {"type": "array", "items": _obj(
                {"line": line, "command": text, "why": text}, ("line", "command", "why"))},
            "accounting": _obj(
                {"used": line, "unused": line, "unknown": line, "problems": line},
                ("used", "unused", "unknown", "problems"),
                description="sections used, read and not used, unknown, unreadable"),
        },
        ("inventory", "provenance", "missing", "problems", "unknown_commands", "notes",
         "used_sections", "unused_sections", "accounting"),
        description="What a collector bundle or transcript tells about a server.",
    )  # fmt: skip


def verification() -> Schema:
    text, count = {"type": "string"}, {"type": "integer"}
    row = _obj(
        {"rule": text, "target": text, "setting": text, "recommended": text,
         "current": {"type": "string", "nullable": True}, "status": _enum(get_args(Status)),
         "compliant": {"type": "boolean", "nullable": True},
         "how": {"type": "string", "nullable": True, "description": "a row not verified: "
                 "the collector option that reads it, or why nothing on the server can"}},
        ("rule", "target", "setting", "recommended", "current", "status", "compliant", "how"),
    )  # fmt: skip
    problem = _obj({"line": count, "command": text, "message": text}, ("line", "message"))
    maybe = {"type": "string", "nullable": True}
    host = _obj(
        {"hostname": text, "os": text, "read_hostname": maybe, "read_os": maybe,
         "renamed": {"type": "boolean"}, "notes": _strings()},
        ("hostname", "os", "read_hostname", "read_os", "renamed", "notes"),
        description="The assessment's host and OS, and the reading's (null: not told).",
    )  # fmt: skip
    return _obj(
        {"id": {"type": "integer", "description": "the verification kept (the API's "
                "verify; absent from `rules verify --json`)"},
         "rules_version": text, "host": host,
         "rows": {"type": "array", "items": row}, "compliant": count, "non_compliant": count,
         "not_verified": count, "not_read": count,
         "problems": {"type": "array", "items": problem},
         "unknown_commands": {"type": "array", "items": _obj(
             {"line": count, "command": text}, ("line", "command"))},
         "measured": measured_comparison()},
        ("rules_version", "host", "rows", "compliant", "non_compliant", "not_verified",
         "not_read", "problems"),
        description="The advice a saved assessment gave (as stored) against a newer bundle.",
    )  # fmt: skip


RESULT_COMPONENTS = result_components()
COMPONENTS: dict[str, Schema] = {
    "Inventory": inventory_schema(),
    "PartialInventory": partial_inventory(),
    **RESULT_COMPONENTS,
    "Assessment": assessment(RESULT_COMPONENTS["Result"]),
    "Error": error(),
    "RuleCatalog": rule_catalog(),
    "Health": health(),
    "Draft": draft(),
    "Verification": verification(),
}


UNAVAILABLE = {
    "description": "The database is not reachable: try again after Retry-After seconds.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


# Null, and nothing else, in OpenAPI 3.0.3: `nullable` admits null only beside a `type`.
NULL_ONLY: Schema = {"type": "object", "nullable": True, "enum": [None]}


def nullable_refs(node: Any) -> None:
    """drf-spectacular writes a nullable nested serializer as {allOf: [$ref], nullable:
    true}; 3.0.3 gives `nullable` no effect without a `type` beside it, so a strict
    validator refuses the null such a field holds. Written as one of the component or
    null instead, which generators read as Optional alike."""
    if isinstance(node, list):
        for item in node:
            nullable_refs(item)
    elif isinstance(node, dict):
        refs = node.get("allOf")
        if node.get("nullable") and "type" not in node and refs and len(refs) == 1:
            del node["allOf"], node["nullable"]
            node["oneOf"] = [refs[0], NULL_ONLY]
        for value in node.values():
            nullable_refs(value)


def add_components(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: register the contract's components; nullable
    references as 3.0.3 reads them. The answers every operation shares are declared by
    the next hook (advisor.api.statuses)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(COMPONENTS)
    nullable_refs(schemas)
    return result


ERROR_MEANINGS: dict[int, str] = {
    400: "Bad request: messages by JSON path in `errors`.",
    401: "No credentials, or credentials that are not valid.",
    403: "Authenticated, but not allowed (for example: no organisation).",
    404: "No such object, or it belongs to another organisation.",
    405: "The path does not take this method; the Allow header lists the ones it does.",
    406: "The Accept header names no media type this operation answers in (JSON).",
    409: "A conflict: the Idempotency-Key was used before with a different body, or the "
    "object is not ready yet (a report still being built).",
    413: "The body is larger than the operation's limit: MAX_REQUEST_BYTES (1 MB by "
    "default), or MAX_BUNDLE_BYTES, MAX_LOG_BYTES, MAX_FLEET_BYTES where the operation "
    "takes bundles, logs or fleets.",
    415: "The body's media type is not one the operation takes (see its request body).",
    429: "Too many requests for this token; see the Retry-After header.",
}


def error_responses(*codes: int) -> dict[int, Any]:
    """Documented error answers, all in the Error envelope."""
    return {code: OpenApiResponse(ref("Error"), ERROR_MEANINGS[code]) for code in codes}
