"""Fixtures for the capacity what-if: stored assessments of two different servers."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.models import Assessment
from tests.conftest import example


@pytest.fixture
def lemans_assessment(user: User, lemans: dict[str, Any]) -> Assessment:
    """8 CPUs, CPUCOUNT 8 recommended, 1 peak session: chew's own box, near enough."""
    created, _ = assessment_create(user=user, document=lemans)
    return created


@pytest.fixture
def rhel_assessment(user: User) -> Assessment:
    """32 CPUs, CPUCOUNT 4 recommended, 24 peak sessions."""
    created, _ = assessment_create(user=user, document=example("linux-rhel9-sas94"))
    return created
