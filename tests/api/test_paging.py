"""Pages read keys first, then rows: the same pages as Django's Paginator, fewer rows
touched; the host-name search has its trigram index on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db import connection

import rules
from advisor.assessments.selectors import assessment_rows
from advisor.assessments.services import assessment_from_result
from advisor.core.paging import KeysFirstPaginator
from advisor.models import Assessment


@pytest.fixture
def many(user: User, lemans: dict[str, Any]) -> None:
    result = rules.advise_inventory(rules.inventory_from(lemans))
    org = user.membership.organisation
    rows = [assessment_from_result(result, organisation=org, request_hash="") for _ in range(23)]
    for n, row in enumerate(rows):
        row.hostname = f"host{n:03d}"
    Assessment.objects.bulk_create(rows)


@pytest.mark.parametrize("hostname", [None, "host01"])
def test_every_page_is_the_page_django_would_give(user: User, many: None, hostname: Any) -> None:
    rows = assessment_rows(user, hostname=hostname)
    plain, keyed = Paginator(rows, 5), KeysFirstPaginator(rows, 5)

    assert keyed.num_pages == plain.num_pages
    for number in plain.page_range:
        expected = [a.pk for a in plain.page(number).object_list]
        assert [a.pk for a in keyed.page(number).object_list] == expected


def test_the_search_has_its_trigram_index(db: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'assessment_hostname_trgm'"
        )
        (definition,) = cursor.fetchone()
    assert "gin" in definition and "gin_trgm_ops" in definition
