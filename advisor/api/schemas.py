"""OpenAPI components for the contract: the inventory in, the result out, the error envelope.

The inventory is validated by `rules.parse`, not by a serializer, so its schema is written
here from the same constants `rules.validate` checks against; what JSON Schema cannot say
(mix fractions summing to 1, unique mounts, no '..' in a mount) is stated in descriptions.
drf-spectacular picks these up through `add_components`, a postprocessing hook named in
SPECTACULAR_SETTINGS; views refer to them with `ref("Inventory")`.
"""

from __future__ import annotations

from typing import Any, get_args

from drf_spectacular.utils import OpenApiResponse

from rules.inventory import (
    FILESYSTEMS,
    MEDIA,
    MIX_KEYS,
    OS_NAMES,
    RAID_LEVELS,
    ROLES,
    SAS_VERSIONS,
    SCHEMA_VERSION,
)
from rules.model import Kind, Severity
from rules.validate import MAX_NAME, MAX_STORAGE, MIX_TOLERANCE

Schema = dict[str, Any]

# The same character sets as rules.validate, anchored for JSON Schema's search semantics.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME_PATTERN = rf"^{_LABEL}(?:\.{_LABEL})*$"
DOTTED_PATTERN = r"^[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}$"
MOUNT_PATTERN = r"^/[A-Za-z0-9/_.-]*$"
DEVICE_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
NO_CONTROL_PATTERN = r"^[^\x00-\x1f\x7f]*$"
MAX_KB = 1048576  # stripe_kb / max_transfer_kb upper bound in rules.validate


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


def _closed(properties: Schema, required: tuple[str, ...] | list[str], **extra: Any) -> Schema:
    """An input object: unknown keys are errors in the contract."""
    return _obj(properties, required, additionalProperties=False, **extra)


def _int(lo: int, hi: int, **extra: Any) -> Schema:
    return {"type": "integer", "minimum": lo, "maximum": hi, **extra}


def _num(lo: float, hi: float, *, exclusive_lo: bool = False, **extra: Any) -> Schema:
    schema: Schema = {"type": "number", "minimum": lo, "maximum": hi, **extra}
    if exclusive_lo:
        schema["exclusiveMinimum"] = True
    return schema


def _enum(options: tuple[str, ...]) -> Schema:
    return {"type": "string", "enum": list(options)}


def _server() -> Schema:
    return _closed(
        {
            "hostname": {"type": "string", "minLength": 1, "maxLength": 253,
                         "pattern": HOSTNAME_PATTERN, "example": "lemans"},
            "os": _enum(OS_NAMES),
            "os_version": {"type": "string", "pattern": DOTTED_PATTERN, "example": "7.2"},
            "cpus": _int(1, 4096, description="logical CPUs the OS sees"),
            "ram_gb": _num(0, 65536, exclusive_lo=True),
        },
        ("hostname", "os", "os_version", "cpus", "ram_gb"),
    )  # fmt: skip


def _sas() -> Schema:
    spds = _closed(
        {"version": {"type": "string", "pattern": DOTTED_PATTERN, "example": "5.3"}},
        ("version",),
        nullable=True,
        description="SPD Server, or null when there is none",
    )
    return _closed(
        {"version": _enum(SAS_VERSIONS), "connect_licensed": {"type": "boolean"}, "spds": spds},
        ("version", "connect_licensed", "spds"),
    )


def _storage() -> Schema:
    device = {"type": "string", "pattern": DEVICE_PATTERN}
    entry = _closed(
        {
            "name": {**device, "example": "raid0lv01"},
            "mount": {"type": "string", "maxLength": 1024, "pattern": MOUNT_PATTERN,
                      "description": "absolute path without empty, '.' or '..' components; "
                                     "unique across storage", "example": "/saswork"},
            "role": _enum(ROLES),
            "raid": _enum(RAID_LEVELS),
            "disks": _int(1, 100000),
            "stripe_kb": _int(1, MAX_KB, nullable=True),
            "max_transfer_kb": _int(1, MAX_KB, nullable=True),
            "size_gb": _num(0, 1e9, exclusive_lo=True),
            "media": _enum(MEDIA),
            "filesystem": _enum(FILESYSTEMS),
            "adapters": {"type": "array", "items": device, "maxItems": 64, "nullable": True},
        },
        ("name", "mount", "role", "raid", "disks", "size_gb", "media", "filesystem"),
    )  # fmt: skip
    return {"type": "array", "items": entry, "maxItems": MAX_STORAGE}


def _workload() -> Schema:
    mix = _closed(
        {key: _num(0, 1) for key in MIX_KEYS},
        (),
        description=f"fractions summing to 1 (±{MIX_TOLERANCE:g}); absent keys are 0",
    )
    return _closed(
        {
            "concurrent_sessions": _int(1, 100000),
            "mix": mix,
            "largest_table_gb": _num(0, 1e9),
            "total_data_gb": _num(0, 1e9),
            "growth_gb_per_week": _num(0, 1e9, nullable=True),
        },
        ("concurrent_sessions", "mix", "largest_table_gb", "total_data_gb"),
    )


def inventory() -> Schema:
    return _closed(
        {
            "schema_version": {"type": "integer", "enum": [SCHEMA_VERSION]},
            "name": {"type": "string", "maxLength": MAX_NAME, "pattern": NO_CONTROL_PATTERN},
            "server": _server(),
            "sas": _sas(),
            "storage": _storage(),
            "workload": _workload(),
        },
        ("schema_version", "name", "server", "sas", "storage", "workload"),
        description="An inventory, contract v1 (docs/contract.md).",
    )


def _strings() -> Schema:
    return {"type": "array", "items": {"type": "string"}}


def _result_properties() -> Schema:
    text = {"type": "string"}
    recommendation = _obj(
        {
            "rule": text, "target": text, "setting": text, "value": text, "rationale": text,
            "sources": _strings(), "evidence": text, "effect": text,
            "kind": _enum(get_args(Kind)),
            "extra": {"type": "object", "additionalProperties": text},
        },
        ("rule", "target", "setting", "value", "rationale", "sources"),
    )  # fmt: skip
    warning = _obj(
        {"rule": text, "message": text, "sources": _strings(), "action": text,
         "severity": _enum(get_args(Severity))},
        ("rule", "message", "sources"),
    )  # fmt: skip
    skipped = _obj({"rule": text, "field": text, "reason": text}, ("rule", "field", "reason"))
    return {
        "rules_version": text,
        "inventory": ref("Inventory"),
        "recommendations": {"type": "array", "items": recommendation},
        "warnings": {"type": "array", "items": warning},
        "skipped": {"type": "array", "items": skipped},
        "artifacts": {
            "type": "object",
            "additionalProperties": text,
            "description": "file name on the server -> file text",
        },
    }


RESULT_KEYS = ("rules_version", "inventory", "recommendations", "warnings", "artifacts")


def result() -> Schema:
    return _obj(_result_properties(), RESULT_KEYS, description="The contract's result.")


def assessment() -> Schema:
    properties = {
        "id": {"type": "integer"},
        "url": {"type": "string", "format": "uri"},
        **_result_properties(),
    }
    return _obj(properties, ("id", "url", *RESULT_KEYS), description="A stored result.")


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
         "settings": {"type": "array", "items": settings}, "doc": {"type": "string"}},
        ("id", "title", "sources", "settings"),
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
            "status": _enum(("ok", "unavailable")),
            "rules_version": {"type": "string"},
            "components": _obj(
                {"database": component, "broker": component}, ("database", "broker")
            ),
        },
        ("status", "components"),
    )


COMPONENTS: dict[str, Schema] = {
    "Inventory": inventory(),
    "Result": result(),
    "Assessment": assessment(),
    "Error": error(),
    "RuleCatalog": rule_catalog(),
    "Health": health(),
}


def add_components(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: register the contract's components."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(COMPONENTS)
    return result


ERROR_MEANINGS: dict[int, str] = {
    400: "Bad request: messages by JSON path in `errors`.",
    401: "No credentials, or credentials that are not valid.",
    403: "Authenticated, but not allowed (for example: no organisation).",
    404: "No such object, or it belongs to another organisation.",
    409: "The Idempotency-Key was used before with a different body.",
    413: "The body is larger than MAX_REQUEST_BYTES (1 MB by default).",
    415: "The body is not application/json.",
    429: "Too many requests for this token; see the Retry-After header.",
}


def error_responses(*codes: int) -> dict[int, Any]:
    """Documented error answers, all in the Error envelope."""
    return {code: OpenApiResponse(ref("Error"), ERROR_MEANINGS[code]) for code in codes}
