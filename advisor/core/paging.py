"""Pages that stay fast deep into a long list.

A page far down (OFFSET 50,000) made PostgreSQL fetch and join every row it skipped. Here
a page's keys are read first (`SELECT id … OFFSET … LIMIT`, which an index on the list's
filter and order answers without touching the table), then only those rows, in that order.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet


class KeysFirstPaginator(Paginator):  # type: ignore[type-arg]  # generic in the stubs only
    def page(self, number: int | str) -> Page[Any]:
        found = super().page(number)
        whole, rows = self.object_list, found.object_list
        if isinstance(whole, QuerySet) and isinstance(rows, QuerySet) and rows.query.is_sliced:
            keys = list(rows.values_list("pk", flat=True))
            by_key = {row.pk: row for row in whole.filter(pk__in=keys)}
            found.object_list = [by_key[key] for key in keys if key in by_key]
        return found
