"""The one shape of every list the API answers: `count`, `next`, `previous`, `results`.

Every list takes `page` (from 1) and `page_size` (DEFAULT_PAGE_SIZE unless given, at most
MAX_PAGE_SIZE). A value that is not a whole number in range is refused with 400 naming the
parameter (never read as page 1, never cut down to the maximum without a word); a page
past the last one is 404. `next` and `previous` are absolute links that keep the list's
filters, null at either end: a client follows `next` until it is null.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.exceptions import PageNotFound
from advisor.core.paging import KeysFirstPaginator

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 500
PAGE = "page"
PAGE_SIZE = "page_size"
PAGE_PARAMETERS = (PAGE, PAGE_SIZE)


def _whole(request: Request, name: str, *, maximum: int | None = None) -> int | None:
    """The parameter as a whole number from 1 (up to `maximum`), None when absent; a 400
    naming it otherwise."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    bound = f" and at most {maximum}" if maximum is not None else ""
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1 or (maximum and int(raw) > maximum):
        raise ValidationError({name: [f"must be a whole number from 1{bound}, not {raw[:40]!r}"]})
    return int(raw)


def _results(count: int) -> str:
    return f"{count} result" if count == 1 else f"{count} results"


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's page numbers, strict: `?page=` (empty), `?page=x` and `?page_size=100000` are
    400s naming the parameter instead of page 1 or a silent cap."""

    django_paginator_class = KeysFirstPaginator
    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_query_description = "The page, from 1 (a page past the last is 404)."
    page_size_query_description = (
        f"Results a page: {DEFAULT_PAGE_SIZE} unless given, at most {MAX_PAGE_SIZE}."
    )

    def paginate_queryset(
        self, queryset: Any, request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:  # past the last page: say which page is the last
            size = self.get_page_size(request)
            paginator = self.django_paginator_class(queryset, size)
            asked, last, count = _whole(request, PAGE), paginator.num_pages, paginator.count
            raise PageNotFound(
                f"Page {asked} is past the last page of this list, page {last}.",
                {
                    PAGE: [
                        f"must be at most {last}: the list holds {_results(count)}, {size} a page"
                    ]
                },
            ) from None

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> int:
        return _whole(request, PAGE) or 1

    def get_page_size(self, request: Request) -> int:
        return _whole(request, PAGE_SIZE, maximum=MAX_PAGE_SIZE) or self.page_size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        page, size = super().get_schema_operation_parameters(view)
        page["schema"] = {"type": "integer", "minimum": 1}
        size["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}
        return [page, size]

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        found = super().get_paginated_response_schema(schema)
        found["required"] = ["count", "next", "previous", "results"]
        properties = found["properties"]
        properties["count"]["description"] = "results in the whole list, on every page"
        properties["next"]["description"] = "the next page; null on the last"
        properties["previous"]["description"] = "the previous page; null on the first"
        return found


Rows = QuerySet[Any] | Sequence[Any]


def paged(
    view: APIView, request: Request, rows: Rows, render: Callable[[list[Any]], Any]
) -> Response:
    """One page of `rows` in the list shape, each row rendered by `render`."""
    paginator = StrictPageNumberPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(render(page or []))
