"""An assessment's files, byte for byte as `manage.py advise --out DIR` writes them.

Artifacts are stored as strings, so they come back unchanged; recommendations.json is the
result in its current version, indented as the CLI indents it
(`results.recommendations_json`). The
web zip and the API bundle are the same bytes.
"""

from __future__ import annotations

import io
import zipfile

from django.http import HttpResponse

from advisor.core import results
from advisor.core.downloads import as_attachment
from advisor.models import Assessment

RESULT_FILE = "recommendations.json"
_EXECUTABLE = 0o100755  # regular file, rwxr-xr-x: the CLI marks *.sh executable
_REGULAR = 0o100644


def file_texts(assessment: Assessment) -> dict[str, str]:
    """Every generated file plus recommendations.json, as the CLI writes them."""
    files = dict(results.result_of(assessment).artifacts)
    files[RESULT_FILE] = results.recommendations_json(assessment)
    return files


def bundle(assessment: Assessment) -> bytes:
    """A zip of every file; fixed timestamps so one assessment always gives the same bytes."""
    stamp = assessment.created_at.timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in file_texts(assessment).items():
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = (_EXECUTABLE if name.endswith(".sh") else _REGULAR) << 16
            archive.writestr(entry, text.encode("utf-8"))
    return buffer.getvalue()


def bundle_name(assessment: Assessment) -> str:
    return f"{assessment.hostname}-assessment-{assessment.pk}.zip"


def attachment(body: bytes | str, filename: str, content_type: str) -> HttpResponse:
    """A download. File names come from the renderers (sasv9.cfg, aix_tuning.sh …) or
    bundle_name, never from clients."""
    return as_attachment(HttpResponse(body, content_type=content_type), filename)
