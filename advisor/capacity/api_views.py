"""REST endpoint of the capacity what-if: no storage, nothing to own, so no lookups."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView
from advisor.api.schemas import error_responses
from advisor.capacity.api_serializers import CapacityInputSerializer, CapacityOutputSerializer
from rules.capacity import CapacityError, predict


class CapacityView(ApiView):
    """JSON bodies only (ApiView's parser): a form body is a 415, and a document nested too
    deeply for the parser a 400."""

    @extend_schema(
        operation_id="capacity_predict",
        request={"application/json": CapacityInputSerializer},
        responses={200: CapacityOutputSerializer, **error_responses(400, 401, 415, 429)},
        summary="Predict the average job time for N concurrent jobs (chew's linear model)",
    )
    def post(self, request: Request) -> Response:
        given = CapacityInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            prediction = predict(**given.to_arguments())
        except CapacityError as exc:
            raise serializers.ValidationError(
                {path: [message] for path, message in exc.problems}
            ) from exc
        return Response(CapacityOutputSerializer(prediction.to_dict()).data)
