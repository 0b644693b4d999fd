"""What the webhook API takes and answers, declared for the schema and generated clients
(api_views.hook_body builds the answers; the test of the generated client validates live
answers against these with unknown keys refused)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from advisor.models import WebhookDelivery
from advisor.webhooks.services import EVENTS

Output = serializers.Serializer[dict[str, Any]]


class WebhookCreateSerializer(Output):
    """The endpoint to register (api_views checks the body and names what is wrong)."""

    url = serializers.CharField(max_length=500, help_text="an https:// URL")
    events = serializers.ListField(child=serializers.ChoiceField(EVENTS), min_length=1)


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
    """An endpoint and its 20 latest deliveries, newest first."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(EVENTS))
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    deliveries = DeliverySerializer(many=True)


class WebhookCreatedSerializer(WebhookSerializer):
    """The endpoint just registered, with its signing secret: shown this once."""

    secret = serializers.CharField(
        help_text="whsec_…: verify each delivery's webhook-signature with it (Standard "
        "Webhooks); it is never shown again"
    )


class WebhookListSerializer(Output):
    results = WebhookSerializer(many=True)
