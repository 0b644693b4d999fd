"""Pages of 25, and a `page` that must be a whole number when it is given at all."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from advisor.core.paging import KeysFirstPaginator


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's pagination reads `?page=` (empty) as page 1; the schema says `page` is an
    integer, so an empty or non-numeric value is refused like any other invalid page."""

    django_paginator_class = KeysFirstPaginator

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> str | int:
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and not raw.isdigit() and raw not in self.last_page_strings:
            raise NotFound(self.invalid_page_message.format(page_number=raw, message=""))
        return super().get_page_number(request, paginator)
