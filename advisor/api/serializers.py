"""What the API's serializers share: the schema of values plain DRF fields cannot
describe, and a boolean as strict as the schema's.

Several answers are built as dicts by the views (a fleet's progress, a log's analysis)
and declared by serializers, so that the schema, and the clients generated from it, know
every key. A few values are short arrays of mixed items (a setting's [value, servers], a
data set's [name, observations, variables]): OpenAPI 3.0 has no tuples, so each is an
array of a fixed length whose items are any of the types it holds.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

Schema = dict[str, Any]
STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}


def tuple_schema(description: str, *items: Schema) -> Schema:
    """A JSON array of len(items) values, the n-th of type items[n]."""
    return {
        "type": "array",
        "items": {"anyOf": list(items)},
        "minItems": len(items),
        "maxItems": len(items),
        "description": description,
    }


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false and nothing else, as the schema's `type: boolean` says. DRF's
    BooleanField also takes "yes", "no", "on", 1, 0, "False"…, so a client sending a
    string got its guess read, never an error. Every boolean a body takes is this one."""

    default_error_messages = {"invalid": "must be true or false (a JSON boolean)"}

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid")
