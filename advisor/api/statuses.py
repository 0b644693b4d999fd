"""Every status an operation can answer, declared in one place for every operation.

A drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS), so an operation added later
declares them too. What the shared machinery answers, whatever the view:
- 400: an unknown or repeated query parameter (advisor.api.query), a body where the
  operation takes none, a field it does not take (advisor.api.base);
- 401 where the operation needs credentials; 404 where its path names an object or it
  answers a list (a page past the last); 405 for a method the path does not take;
- 413 on every operation that may carry a body (RequestSizeLimitMiddleware, the parser);
  415 where it takes one (the parser); 406 where it answers JSON, for an Accept header
  that names no JSON; 429 (the throttles); 503 (advisor.core.errors).
All in the Error envelope. Each file download is declared as bytes (`format: binary`)
whatever its media type, as a generated client reads it.
"""

from __future__ import annotations

from typing import Any

from advisor.api.schemas import ERROR_MEANINGS, UNAVAILABLE, ref

Schema = dict[str, Any]
BODY_METHODS = ("post", "put", "patch")
JSON_MEDIA = ("application/json", "application/vnd.oai.openapi+json")


def _error(code: int) -> Schema:
    return {
        "description": ERROR_MEANINGS[code],
        "content": {"application/json": {"schema": ref("Error")}},
    }


def _anonymous(operation: Schema) -> bool:
    """Whether the operation is open to a caller without credentials (security lists {})."""
    return any(not scheme for scheme in operation.get("security", [{}]))


def _is_list(operation: Schema) -> bool:
    return any(p.get("name") == "page" for p in operation.get("parameters", []))


def _answers_json(operation: Schema) -> bool:
    """Whether its successes are JSON (a download answers whatever Accept says)."""
    media = [m for code, answer in operation["responses"].items() if code.startswith("2")
             for m in answer.get("content", {})]  # fmt: skip
    return all(m in JSON_MEDIA for m in media)


def statuses_of(path: str, method: str, operation: Schema) -> tuple[int, ...]:
    """The shared answers `operation` (at `method` `path`) can give besides its own."""
    codes = [400, 405, 429]
    if _answers_json(operation):
        codes.append(406)
    if not _anonymous(operation):
        codes.append(401)
    if "{" in path or _is_list(operation):
        codes.append(404)
    if method in BODY_METHODS:
        codes.append(413)
        if "requestBody" in operation:
            codes.append(415)
    return tuple(sorted(codes))


def _binary_downloads(responses: Schema) -> None:
    """A file answer (any media type but JSON) declared as bytes."""
    for answer in responses.values():
        for media, content in answer.get("content", {}).items():
            schema = content.get("schema")
            if media not in JSON_MEDIA and schema and schema.get("type") == "string":
                schema["format"] = "binary"


def declare_statuses(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """drf-spectacular postprocessing hook: each operation's shared answers (above)."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code in statuses_of(path, method, operation):
                responses.setdefault(str(code), _error(code))
            responses.setdefault("503", UNAVAILABLE)
            _binary_downloads(responses)
    return result
