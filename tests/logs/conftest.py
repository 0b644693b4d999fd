"""Fixtures for large SAS logs: a low LOG_INLINE_BYTES so that a few kilobytes go to the
worker, logs of a given size made of a real PROC SORT step, the uploads in storage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from tests.api.test_logs import SORT
from tests.reports.test_worker import redis_broker, start_worker  # noqa: F401 (fixtures)

INLINE = 2048  # bytes: the threshold the tests run with


def sort_log(size: int) -> bytes:
    """PROC SORT steps (each a sort_spill finding) up to at least `size` bytes."""
    return (SORT * (size // len(SORT) + 1)).encode()


def post_log(api: APIClient, body: bytes, **params: Any) -> Any:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return api.post(f"/api/v1/logs/?{query}", body, content_type="text/plain")


def uploads() -> list[Path]:
    """The files under the default storage's logs/uploads/."""
    root = Path(settings.MEDIA_ROOT) / "logs" / "uploads"
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.fixture(autouse=True)
def small_threshold() -> Iterator[None]:
    with override_settings(LOG_INLINE_BYTES=INLINE):
        yield


@pytest.fixture(autouse=True)
def no_uploads_left_over() -> Iterator[None]:
    """Each test starts and ends with what it made: uploads left by an earlier test (or
    run) are removed first."""
    for path in uploads():
        path.unlink()
    yield
