"""An assessment's files, byte for byte as `manage.py advise --out DIR` writes them.

Artifacts are stored as strings and come back unchanged. recommendations.json is the
result dumped as the CLI dumps it, which needs the result's keys in the contract's order:
PostgreSQL's jsonb keeps keys sorted its own way, so `ordered_result` puts them back in the
order a fresh run over the stored inventory gives.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import rules
from advisor.models import Assessment

RESULT_FILE = "recommendations.json"
_EXECUTABLE = 0o100755  # regular file, rwxr-xr-x: the CLI marks *.sh executable
_REGULAR = 0o100644


def reorder_like(value: Any, template: Any) -> Any:
    """`value` with every object's keys in `template`'s order; keys it lacks keep theirs."""
    if isinstance(value, dict):
        shape = template if isinstance(template, dict) else {}
        keys = [k for k in shape if k in value] + [k for k in value if k not in shape]
        return {k: reorder_like(value[k], shape.get(k)) for k in keys}
    if isinstance(value, list):
        shapes = template if isinstance(template, list) and template else [None]
        return [reorder_like(item, shapes[min(i, len(shapes) - 1)]) for i, item in enumerate(value)]
    return value


def ordered_result(stored: Mapping[str, Any]) -> dict[str, Any]:
    try:
        template = rules.advise(stored["inventory"])
    except (rules.InventoryError, KeyError):
        # An inventory today's contract refuses: keep the stored order.
        return dict(stored)
    return dict(reorder_like(dict(stored), template))


def result_text(result: Mapping[str, Any]) -> str:
    """recommendations.json, exactly as advisor.management.commands.advise writes it."""
    return json.dumps(result, indent=2, sort_keys=False) + "\n"


def file_texts(result: Mapping[str, Any]) -> dict[str, str]:
    files = dict(result["artifacts"])
    files[RESULT_FILE] = result_text(result)
    return files


def bundle(result: Mapping[str, Any], created: datetime) -> bytes:
    """A zip of every file; fixed timestamps so one assessment always gives the same bytes."""
    stamp = created.timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in file_texts(result).items():
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = (_EXECUTABLE if name.endswith(".sh") else _REGULAR) << 16
            archive.writestr(entry, text.encode("utf-8"))
    return buffer.getvalue()


def bundle_name(assessment: Assessment) -> str:
    return f"{assessment.hostname}-assessment-{assessment.pk}.zip"
