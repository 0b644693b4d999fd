"""Fleet documents built from the example inventories."""

from __future__ import annotations

import copy
import io
import json
import zipfile
from typing import Any

from tests.conftest import example
from tests.reports.test_worker import redis_broker, start_worker  # noqa: F401 (fixtures)

EXAMPLES = ("lemans-aix53-etl", "prime-spds-aix", "linux-rhel9-sas94", "windows-sas94")


def server(name: str, hostname: str) -> dict[str, Any]:
    document = copy.deepcopy(example(name))
    document["server"]["hostname"] = hostname
    return document


def fleet(count: int) -> list[dict[str, Any]]:
    """`count` servers cycling through the examples, host names sas0000, sas0001 …"""
    return [server(EXAMPLES[n % len(EXAMPLES)], f"sas{n:04d}") for n in range(count)]


def ndjson(documents: list[Any]) -> bytes:
    return "".join(json.dumps(d) + "\n" for d in documents).encode()


def zipped(documents: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, document in documents.items():
            text = document if isinstance(document, str) else json.dumps(document)
            archive.writestr(name, text)
    return buffer.getvalue()
