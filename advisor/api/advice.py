"""Advice without storage: for pipelines that only want the generated files."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from advisor.api.base import ApiView
from advisor.api.errors import ContractViolation
from advisor.api.schemas import error_responses, json_body, ref


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
    def post(self, request: Request) -> Response:
        try:
            result = rules.advise(request.data)
        except rules.InventoryError as exc:
            raise ContractViolation(exc) from None
        return Response(result)
