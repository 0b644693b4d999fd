"""The webhook API: register an endpoint (its signing secret shown to the request that
made it, and to retries of that request), list them, change one, remove one, and page
through an endpoint's deliveries."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, ListView
from advisor.api.exceptions import Conflict
from advisor.api.idempotency import conflicts_refused, idempotency_key, idempotency_parameter
from advisor.api.schemas import error_responses
from advisor.core.idempotency import document_hash
from advisor.core.selectors import organisation_for_user
from advisor.models import Webhook, WebhookDelivery
from advisor.webhooks import endpoints, services
from advisor.webhooks.api_serializers import (
    DeliverySerializer,
    StrictInput,
    WebhookCreatedSerializer,
    WebhookCreateSerializer,
    WebhookRetriedSerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
)

RECENT = 20


def hooks_for(request: Request) -> QuerySet[Webhook]:
    org = organisation_for_user(request.user)
    return Webhook.objects.none() if org is None else Webhook.objects.filter(organisation=org)


def delivery_body(d: WebhookDelivery) -> dict[str, Any]:
    return {"id": d.pk, "event": d.event, "message_id": d.message_id, "status": d.status,
            "attempts": d.attempts, "response_status": d.response_status, "error": d.error,
            "created_at": d.created_at, "delivered_at": d.delivered_at}  # fmt: skip


def hook_body(request: Request, hook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    url = request.build_absolute_uri(f"/api/v1/webhooks/{hook.pk}/")
    body: dict[str, Any] = {
        "id": hook.pk, "url": hook.url, "events": hook.events, "active": hook.active,
        "created_at": hook.created_at, "deliveries_url": url + "deliveries/",
        "deliveries": [delivery_body(d) for d in hook.deliveries.all()[:RECENT]],
    }  # fmt: skip
    if secret:
        body["secret"] = hook.secret
    return body


def _checked(serializer: type[StrictInput], data: Any) -> dict[str, Any]:
    given = serializer(data=data)
    given.is_valid(raise_exception=True)
    return dict(given.validated_data)


class WebhooksView(ListView):
    @extend_schema(
        operation_id="webhooks_list",
        summary="The organisation's webhook endpoints, newest first, with their 20 latest "
        "deliveries",
        responses={200: WebhookSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        rows = hooks_for(request)
        return self.paged(rows, lambda page: [hook_body(request, hook) for hook in page])

    @extend_schema(
        operation_id="webhooks_create",
        summary="Register an https:// endpoint for fleet.completed and assessment.created",
        description="The answer carries the signing secret (whsec_…): verify each "
        "delivery's webhook-signature with it (Standard Webhooks). It is shown to the "
        "request that registered the endpoint (201) and to retries of that request with its "
        "Idempotency-Key (200). Registering a URL already registered for the same events "
        "answers 200 with that endpoint, without its secret.",
        request=WebhookCreateSerializer,
        parameters=[idempotency_parameter("the endpoint (and its secret)")],
        responses={
            201: WebhookCreatedSerializer,
            200: OpenApiResponse(
                WebhookRetriedSerializer,
                "registered before: a retry with "
                "the same key (with the secret), or the same URL and events",
            ),
            **error_responses(400, 401, 403, 409, 415, 429),
        },
    )
    def post(self, request: Request) -> Response:
        org = organisation_for_user(request.user)
        if org is None:
            raise exceptions.PermissionDenied("You belong to no organisation.")
        key = idempotency_key(request)
        given = _checked(WebhookCreateSerializer, request.data)
        digest = document_hash(given)
        try:
            with conflicts_refused():
                hook, created = endpoints.webhook_register(
                    organisation=org, url=given["url"], events=given["events"],
                    idempotency_key=key, digest=digest,
                )  # fmt: skip
        except services.EndpointError as exc:
            raise exceptions.ValidationError({exc.field: [str(exc)]}) from None
        replayed = key is not None and hook.idempotency_key == key
        body = hook_body(request, hook, secret=created or replayed)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(body, status=code)


class WebhookDetailView(ApiView):
    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="One endpoint and its 20 latest deliveries",
        responses={200: WebhookSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(hook_body(request, get_object_or_404(hooks_for(request), pk=pk)))

    @extend_schema(
        operation_id="webhooks_update",
        summary="Change an endpoint: its url, its events, whether it is active",
        description="Only the fields given change; each is checked as at registration. "
        "A URL and event set another endpoint of the organisation has already is refused "
        "(409, naming it). The secret stays.",
        request=WebhookUpdateSerializer,
        responses={200: WebhookSerializer, **error_responses(400, 401, 404, 409, 415, 429)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        hook = get_object_or_404(hooks_for(request), pk=pk)
        changes = _checked(WebhookUpdateSerializer, request.data)
        try:
            endpoints.webhook_update(webhook=hook, changes=changes)
        except services.EndpointError as exc:
            raise exceptions.ValidationError({exc.field: [str(exc)]}) from None
        except endpoints.WebhookTaken as exc:
            other = exc.other.pk if exc.other else "another"
            message = f"webhook {other} has this URL and these events already"
            raise Conflict(f"Endpoint {message}.", {"url": [message]}) from None
        return Response(hook_body(request, hook))

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Remove an endpoint (its deliveries go with it)",
        responses={204: None, **error_responses(400, 401, 404, 429)},
    )
    def delete(self, request: Request, pk: int) -> Response:
        get_object_or_404(hooks_for(request), pk=pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesView(ListView):
    @extend_schema(
        operation_id="webhooks_deliveries",
        summary="Every delivery of an endpoint, newest first",
        responses={200: DeliverySerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        hook = get_object_or_404(hooks_for(request), pk=pk)
        return self.paged(hook.deliveries.all(), lambda page: [delivery_body(d) for d in page])
