"""Advice without storage: for pipelines that only want the generated files.

Pipelines post the same inventory again and again (every rebuild of a server class, every
retry), and the answer is a pure function of the document and the rules version. So the
rendered answer is kept per process, keyed by the document's canonical hash, and a repeat
costs a hash instead of a run of the catalog.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from advisor.api.base import ApiView
from advisor.api.errors import ContractViolation
from advisor.api.schemas import error_responses, json_body, ref
from advisor.services import document_hash

# Distinct inventories remembered per worker process; a lemans-sized answer is ~30 KB,
# so the memo stays under ~10 MB even for inventories ten times larger.
MEMO_ENTRIES = 32


class RenderedMemo:
    """A small least-recently-used map from document hash to the rendered JSON answer."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


MEMO = RenderedMemo(MEMO_ENTRIES)


def rendered_advice(document: object) -> bytes:
    """The contract's result as compact JSON; raises ContractViolation for a bad document."""
    key = f"{rules.RULES_VERSION}:{document_hash(document)}"
    body = MEMO.get(key)
    if body is None:
        try:
            result = rules.advise(document)
        except rules.InventoryError as exc:
            raise ContractViolation(exc) from None
        body = JSONRenderer().render(result)
        MEMO.put(key, body)
    return body


class AdviceView(ApiView):
    @extend_schema(
        operation_id="advice_create",
        summary="Advise on an inventory; nothing is stored",
        request=json_body("Inventory"),
        responses={
            200: OpenApiResponse(ref("Result"), "The contract's result."),
            **error_responses(400, 401, 413, 415, 429),
        },
    )
    def post(self, request: Request) -> HttpResponse:
        if not isinstance(request.accepted_renderer, JSONRenderer):
            # The browsable API renders the result itself.
            try:
                return Response(rules.advise(request.data))
            except rules.InventoryError as exc:
                raise ContractViolation(exc) from None
        body = rendered_advice(request.data)
        return HttpResponse(body, content_type="application/json")
