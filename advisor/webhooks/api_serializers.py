"""What the webhook API takes and answers, declared for the schema and generated clients
(api_views.hook_body builds the answers; the test of the generated client validates live
answers against these with unknown keys refused). Bodies with a field these do not
declare are refused naming it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from advisor.api.serializers import StrictBooleanField
from advisor.models import WebhookDelivery
from advisor.webhooks.services import EVENTS

Output = serializers.Serializer[dict[str, Any]]
URL_HELP = "an https:// URL (500 characters at most)"


class StrictInput(Output):
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        # A misspelt field ("event") would otherwise be ignored without a word.
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({k: ["unknown field"] for k in unknown})
        return super().to_internal_value(data)  # type: ignore[no-any-return]


def _events(required: bool) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ChoiceField(
            EVENTS, error_messages={"invalid_choice": f"must be one of: {', '.join(EVENTS)}"}
        ),
        min_length=1, max_length=len(EVENTS) * 4, required=required,
        help_text="the events to receive (each at most once counts)",
    )  # fmt: skip


class WebhookCreateSerializer(StrictInput):
    """The endpoint to register: registered once per URL and event set."""

    url = serializers.CharField(max_length=500, help_text=URL_HELP, trim_whitespace=False)
    events = _events(required=True)


class WebhookUpdateSerializer(StrictInput):
    """What to change; a field left out stays."""

    url = serializers.CharField(
        max_length=500, help_text=URL_HELP, trim_whitespace=False, required=False
    )
    events = _events(required=False)
    active = StrictBooleanField(
        required=False, help_text="false pauses the deliveries without removing the endpoint"
    )


class DeliverySerializer(Output):
    id = serializers.IntegerField()
    event = serializers.ChoiceField(EVENTS)
    message_id = serializers.CharField(help_text="the webhook-id header it was sent with")
    status = serializers.ChoiceField(WebhookDelivery.Status.choices)
    attempts = serializers.IntegerField()
    response_status = serializers.IntegerField(
        allow_null=True, help_text="the endpoint's HTTP status; null before any answer"
    )
    error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)


class WebhookSerializer(Output):
    """An endpoint and its 20 latest deliveries, newest first (all of them, paged, at
    deliveries_url)."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(EVENTS))
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    deliveries_url = serializers.URLField(help_text="every delivery, newest first, paged")
    deliveries = DeliverySerializer(many=True)


SECRET_HELP = (
    "whsec_…: verify each delivery's webhook-signature with it (Standard Webhooks); shown "
    "to the request that registered the endpoint and to its retries (same Idempotency-Key)"
)


class WebhookCreatedSerializer(WebhookSerializer):
    """The endpoint just registered, with its signing secret."""

    secret = serializers.CharField(help_text=SECRET_HELP)


class WebhookRetriedSerializer(WebhookSerializer):
    """An endpoint registered before: with its secret for a retry with the same
    Idempotency-Key, without it for another registration of the same URL and events."""

    secret = serializers.CharField(required=False, help_text=SECRET_HELP)
