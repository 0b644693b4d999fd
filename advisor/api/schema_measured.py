"""The schema of verify's measured throughput before → after (`rules.measured_verify`): a
record per file system and direction the bundle measured, matched by mount point."""

from __future__ import annotations

from typing import Any, get_args

from rules.measured import Verdict

Schema = dict[str, Any]


def _side(when: str) -> Schema:
    number = {"type": "number"}
    return {
        "type": "object",
        "nullable": True,
        "description": f"{when}; null: not measured then",
        "properties": {
            "mb_s": number,
            "per_core": {**number, "description": "MB/s per core in use"},
            "verdict": {"type": "string", "enum": list(get_args(Verdict)),
                        "description": "against SAS's 100–150 MB/s per core"},
            "words": {"type": "string", "description": "the verdict as the page says it"},
        },
        "required": ["mb_s", "per_core", "verdict", "words"],
    }  # fmt: skip


def measured_comparison() -> Schema:
    text, maybe = {"type": "string"}, {"type": "string", "nullable": True}
    return {
        "type": "array",
        "description": "Measured throughput before → after, a record per file system and "
        "direction the bundle measured (read, write, or the lower of the two when not "
        "measured apart); empty when it measured none the assessment holds.",
        "items": {
            "type": "object",
            "properties": {
                "name": text, "mount": text,
                "direction": {"type": "string", "enum": ["read", "write", "lower"]},
                "cores": {"type": "integer", "description": "cores in use: the divisor"},
                "before": _side("the assessment's figure"), "after": _side("the bundle's"),
                "before_tool": maybe, "before_date": maybe, "after_tool": maybe,
                "after_date": maybe,
                "method_changed": {"type": "boolean", "description": "another tool, or a "
                                   "read that may have been the page cache's before"},
                "method_change": {**maybe, "description": "the change in words, e.g. "
                                  "'before: dd, read may be the page cache; after: fio'"},
                "cluster_total": {"type": "boolean"},
            },
            "required": ["name", "mount", "direction", "cores", "before", "after",
                         "before_tool", "before_date", "after_tool", "after_date",
                         "method_changed", "method_change", "cluster_total"],
        },
    }  # fmt: skip
