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
