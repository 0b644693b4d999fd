"""Fixtures for reports: stored assessments for the example inventories."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.models import Assessment


@pytest.fixture
def assessment(user: User, lemans: dict[str, Any]) -> Assessment:
    created, _ = assessment_create(user=user, document=lemans)
    return created


@pytest.fixture
def spds_assessment(user: User, prime: dict[str, Any]) -> Assessment:
    created, _ = assessment_create(user=user, document=prime)
    return created


def twenty_luns(document: dict[str, Any]) -> dict[str, Any]:
    """The prime inventory with 20 LUNs: data paths spread over many SPD Server LUNs."""
    storage = list(document["storage"])
    template = storage[0]
    while len(storage) < 20:
        i = len(storage)
        storage.append({**template, "name": f"lun{i:02d}", "mount": f"/spds/lun{i:02d}"})
    return {**document, "storage": storage}


def many_luns(document: dict[str, Any], count: int) -> dict[str, Any]:
    """The document's storage entries taken in turn to `count` LUNs, each with its own name
    and mount: a big server (512 is the contract's maximum)."""
    storage = document["storage"]
    grown = [
        {**storage[i % len(storage)], "name": f"lun{i:03d}", "mount": f"/sas/lun{i:03d}"}
        for i in range(count)
    ]
    return {**document, "storage": grown}
