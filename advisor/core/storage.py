"""Where built files go: Django's default storage, chosen by settings.py from the
environment (imported by settings, so nothing here touches Django's settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def default_storage(root: Path, bucket: str | None, endpoint: str | None) -> dict[str, Any]:
    """A local directory (MEDIA_ROOT), or an S3-compatible bucket (AWS S3, MinIO, Ceph)
    whose objects are private and never overwritten: a name taken gets a suffix."""
    if not bucket:
        return {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(root)},
        }
    options: dict[str, Any] = {
        "bucket_name": bucket,
        "default_acl": "private",
        "file_overwrite": False,
        "querystring_auth": True,
    }
    if endpoint:
        options["endpoint_url"] = endpoint
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}
