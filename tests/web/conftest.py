"""Fixtures for the browser UI: logged-in clients and stored assessments."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.inventory_form import data_from_document
from advisor.assessments.services import assessment_create
from advisor.models import Assessment


@pytest.fixture
def stored(user: User, lemans: dict[str, Any]) -> Assessment:
    assessment, _ = assessment_create(user=user, document=lemans)
    return assessment


@pytest.fixture
def stored_bigger(user: User, lemans: dict[str, Any]) -> Assessment:
    bigger = {**lemans, "server": {**lemans["server"], "ram_gb": 32, "cpus": 16}}
    assessment, _ = assessment_create(user=user, document=bigger)
    return assessment


@pytest.fixture
def lemans_data(lemans: dict[str, Any]) -> dict[str, str]:
    return data_from_document(lemans)
