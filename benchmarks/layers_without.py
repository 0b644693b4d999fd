"""The app with one speed layer taken out, for benchmarks/layers.py.

BENCH_WITHOUT names the layer. gunicorn serves `layers_without:application` and Celery
runs `-A layers_without`: the module sets Django up, then replaces the layer with what the
code would do without it. Nothing here is imported by the app itself.
"""

from __future__ import annotations

import functools
import os
import types
from collections.abc import Callable, Sequence
from typing import Any

from advisor.celery import app  # for `celery -A layers_without`
from advisor.wsgi import application  # Django set up from here on

__all__ = ["app", "application"]


def _page_memos() -> None:
    """detail_page's per-request memos: each context entry computed when read."""
    from advisor.assessments import result_views

    plain = types.SimpleNamespace(cache=lambda f: f, partial=functools.partial)
    result_views.functools = plain  # type: ignore[assignment]


def _cpucount_cache() -> None:
    from advisor.capacity import whatif

    whatif.remembered_cpucount = whatif.recommended_cpucount


def _result_memo() -> None:
    """result_of reads the stored text on every call."""
    from advisor.core import results

    def result_of(assessment: Any) -> Any:
        return read_result(orjson.loads(assessment.result_json))  # type: ignore[name-defined]  # noqa: F821

    results.result_of.__code__ = result_of.__code__  # every importer's reference


def _token_cache() -> None:
    from django.core.cache.backends.dummy import DummyCache

    from advisor.api import authentication

    authentication.cache = DummyCache("none", {})  # type: ignore[assignment]


def _advice_memo() -> None:
    from rest_framework.renderers import JSONRenderer

    import rules
    from advisor.assessments import api_views

    def rendered_advice(document: object) -> bytes:
        return JSONRenderer().render(rules.advise(document))

    api_views.rendered_advice = rendered_advice


def _answer_with(result: Callable[[Any], dict[str, Any]]) -> None:
    """assessment_response without the splice: `result` of the assessment, rendered by DRF."""
    from rest_framework import status
    from rest_framework.response import Response

    from advisor.assessments import api_views

    def assessment_response(
        request: Any, assessment: Any, code: int = status.HTTP_200_OK, *, location: bool
    ) -> Response:
        url = api_views.absolute_url(request, assessment)
        headers = {"Location": url} if location else None
        body = {"id": assessment.pk, "url": url, **result(assessment)}
        return Response(body, status=code, headers=headers)

    api_views.assessment_response = assessment_response


def _json_splice() -> None:
    """The answer built from the typed records, as a dict, and rendered by DRF."""
    from advisor.core import results

    _answer_with(results.result_document)


def _json_decode() -> None:
    """No splice, and no typed records either: the stored text decoded."""
    import orjson

    from advisor.core import results

    _answer_with(lambda assessment: orjson.loads(results.result_text(assessment)))


def _health_client() -> None:
    from advisor.api import meta

    meta._redis = meta._redis.__wrapped__  # type: ignore[attr-defined]


def _fleet_status_sql() -> None:
    """The status read with the ORM: the fleet and its summary in one select_related."""
    from django.shortcuts import get_object_or_404

    from advisor.fleets import selectors

    def fleet_with_summary_or_404(user: Any, pk: int) -> Any:
        fleets = selectors.fleets_for_user(user).select_related("stored_summary")
        return get_object_or_404(fleets, pk=pk)

    selectors.fleet_with_summary_or_404 = fleet_with_summary_or_404


def _copy() -> None:
    """The ORM's bulk_create and bulk_update, as on SQLite."""
    from advisor.fleets import storing
    from advisor.models import FleetItem

    def insert_items(items: Sequence[FleetItem]) -> None:
        FleetItem.objects.bulk_create(items, batch_size=1000)

    storing.store = storing._store_orm
    storing.insert_items = insert_items


LAYERS: dict[str, Callable[[], None]] = {
    "page-memos": _page_memos,
    "cpucount-cache": _cpucount_cache,
    "result-memo": _result_memo,
    "token-cache": _token_cache,
    "advice-memo": _advice_memo,
    "json-splice": _json_splice,
    "json-decode": _json_decode,
    "health-client": _health_client,
    "fleet-status-sql": _fleet_status_sql,
    "copy": _copy,
    "page-cache": lambda: None,  # DETAIL_CACHE_SECONDS=0 (benchmarks/layers.py)
}

_without = os.environ.get("BENCH_WITHOUT", "")
if _without:
    LAYERS[_without]()
