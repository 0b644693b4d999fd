"""The API contract as a client meets it: the served OpenAPI document, a Python client
generated from it with openapi-python-client, and a check of every answer that client
receives against the responses its operation declares.

Answers are checked strictly: an object the schema lists properties for may hold no
other key (the schema is closed before validating), so a key a view adds and the schema
does not declare fails, as it would surprise a typed client.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from openapi_schema_validator import OAS30ReadValidator, oas30_format_checker

ROOT = Path(__file__).resolve().parents[2]
GENERATOR_CONFIG = ROOT / "docs" / "openapi-python-client.yaml"
PACKAGE = "advisor_client"  # package_name_override in GENERATOR_CONFIG
SCHEMA_PATH = "/api/schema/"
JSON_TYPES = ("application/json", "application/vnd.oai.openapi+json")
Schema = dict[str, Any]


def served_schema(base_url: str) -> Schema:
    """The OpenAPI document as the server gives it to a client generator."""
    answer = httpx.get(
        base_url + SCHEMA_PATH, headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    answer.raise_for_status()
    document: Schema = answer.json()
    return document


def generate_client(schema: Schema, into: Path) -> str:
    """Run openapi-python-client on `schema` into `into`/PACKAGE; what it printed."""
    source = into / "openapi.json"
    source.write_text(json.dumps(schema))
    # Its post hooks (ruff) are found on PATH, beside this interpreter.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path",
               str(source), "--output-path", str(into / PACKAGE), "--meta", "none",
               "--config", str(GENERATOR_CONFIG)]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "PATH": path}, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def generator_warnings(output: str) -> list[str]:
    """Every line the generator printed besides the one naming where it writes."""
    lines = [line.strip() for line in output.splitlines()]
    return [line for line in lines if line and not line.startswith("Generating ")]


def import_client(into: Path) -> ModuleType:
    sys.path.insert(0, str(into))
    importlib.invalidate_caches()
    return importlib.import_module(PACKAGE)


def forget_client(into: Path) -> None:
    sys.path.remove(str(into))
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def closed(node: Any) -> Any:
    """The schema with every object that lists its properties closed to other keys."""
    if isinstance(node, dict):
        node = {key: closed(value) for key, value in node.items()}
        if node.get("type") == "object" and "properties" in node:
            node.setdefault("additionalProperties", False)
    elif isinstance(node, list):
        node = [closed(value) for value in node]
    return node


def schema_errors(document: Schema, schema: Schema, instance: Any) -> list[str]:
    """Where `instance` breaks `schema` (which may $ref the document's components)."""
    rooted = {"allOf": [schema], "components": document.get("components", {})}
    validator = OAS30ReadValidator(rooted, format_checker=oas30_format_checker)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
            for e in errors]  # fmt: skip


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


class AnswerChecker:
    """An httpx response hook: each answer must be one its operation declares (status and
    media type), its body valid against the declared schema. Records what it saw."""

    def __init__(self, document: Schema) -> None:
        self.document = closed(copy.deepcopy(document))
        self.routes = [(_pattern(path), operations)
                       for path, operations in self.document["paths"].items()]  # fmt: skip
        self.seen: Counter[tuple[str, int]] = Counter()

    def operation(self, method: str, path: str) -> Schema:
        for pattern, operations in self.routes:
            if pattern.match(path) and method.lower() in operations:
                found: Schema = operations[method.lower()]
                return found
        raise AssertionError(f"{method} {path} is no operation of the schema")

    def __call__(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        where = f"{request.method} {request.url.path} → {response.status_code}"
        operation = self.operation(request.method, request.url.path)
        declared = operation["responses"].get(str(response.status_code))
        assert declared is not None, f"{where}: not an answer the operation declares"
        self.check_body(where, declared, response)
        self.seen[operation["operationId"], response.status_code] += 1

    def check_body(self, where: str, declared: Schema, response: httpx.Response) -> None:
        content = declared.get("content")
        if not content:
            assert response.content == b"", f"{where}: a body where none is declared"
            return
        media = response.headers.get("content-type", "").split(";")[0].strip()
        assert media in content, f"{where}: {media!r} is not one of {sorted(content)}"
        schema = content[media]["schema"]
        if media in JSON_TYPES:
            errors = schema_errors(self.document, schema, response.json())
            assert not errors, f"{where}: the body breaks its schema:\n" + "\n".join(errors)
        elif schema.get("format") == "binary":
            assert response.content, f"{where}: an empty file"
        else:
            assert schema.get("type") == "string", f"{where}: a text answer of {schema}"
            response.content.decode("utf-8")
