"""The webhook API: register an endpoint (its signing secret is shown once), list them
with their recent deliveries, remove one."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView
from advisor.api.schemas import error_responses
from advisor.core.selectors import organisation_for_user
from advisor.models import Webhook
from advisor.webhooks import services
from advisor.webhooks.api_serializers import (
    WebhookCreatedSerializer,
    WebhookCreateSerializer,
    WebhookListSerializer,
    WebhookSerializer,
)

RECENT = 20


def hooks_for(request: Request) -> Any:
    org = organisation_for_user(request.user)
    return Webhook.objects.none() if org is None else Webhook.objects.filter(organisation=org)


def hook_body(hook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": hook.pk, "url": hook.url, "events": hook.events, "active": hook.active,
        "created_at": hook.created_at,
        "deliveries": [
            {"id": d.pk, "event": d.event, "message_id": d.message_id, "status": d.status,
             "attempts": d.attempts, "response_status": d.response_status,
             "error": d.error, "created_at": d.created_at, "delivered_at": d.delivered_at}
            for d in hook.deliveries.all()[:RECENT]
        ],
    }  # fmt: skip
    if secret:
        body["secret"] = hook.secret
    return body


class WebhooksView(ApiView):
    @extend_schema(
        operation_id="webhooks_list",
        summary="The organisation's webhook endpoints and their recent deliveries",
        responses={200: WebhookListSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response({"results": [hook_body(h) for h in hooks_for(request)]})

    @extend_schema(
        operation_id="webhooks_create",
        summary="Register an https:// endpoint for fleet.completed and assessment.created",
        description="The answer carries the signing secret (whsec_…) once: verify each "
        "delivery's webhook-signature with it (Standard Webhooks).",
        request=WebhookCreateSerializer,
        responses={201: WebhookCreatedSerializer, **error_responses(400, 401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        org = organisation_for_user(request.user)
        if org is None:
            raise exceptions.PermissionDenied("You belong to no organisation.")
        data = request.data if isinstance(request.data, dict) else {}
        url, events = data.get("url"), data.get("events")
        if not isinstance(url, str) or len(url) > 500:
            raise exceptions.ValidationError({"url": ["an https:// URL (500 characters at most)"]})
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise exceptions.ValidationError({"events": ["a list of event names"]})
        try:
            hook = services.webhook_create(organisation=org, url=url, events=events)
        except services.EndpointError as exc:
            raise exceptions.ValidationError({exc.field: [str(exc)]}) from None
        return Response(hook_body(hook, secret=True), status=status.HTTP_201_CREATED)


class WebhookDetailView(ApiView):
    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="One endpoint and its delivery log",
        responses={200: WebhookSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(hook_body(get_object_or_404(hooks_for(request), pk=pk)))

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Remove an endpoint (its deliveries go with it)",
        responses={204: None, **error_responses(401, 404, 429)},
    )
    def delete(self, request: Request, pk: int) -> Response:
        get_object_or_404(hooks_for(request), pk=pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
