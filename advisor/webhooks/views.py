"""The webhook page: register an endpoint (its secret shown once), see each delivery."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods, require_POST

from advisor.core.http import PageRequest
from advisor.core.selectors import organisation_for_user
from advisor.models import Webhook
from advisor.webhooks import services

FIELD_LABELS = {"url": "URL", "events": "Events", "webhooks": "Endpoints"}


@login_required
@require_http_methods(["GET", "POST"])
def webhook_list(request: PageRequest) -> HttpResponse:
    org = organisation_for_user(request.user)
    error, created = "", None
    if request.method == "POST":
        if org is None:
            error = "Your account belongs to no organisation."
        else:
            try:
                created = services.webhook_create(
                    organisation=org, url=request.POST.get("url", "")[:500],
                    events=request.POST.getlist("events"),
                )  # fmt: skip
            except services.EndpointError as exc:
                error = f"{FIELD_LABELS.get(exc.field, exc.field)}: {exc}"
    hooks = Webhook.objects.none() if org is None else Webhook.objects.filter(organisation=org)
    context = {
        "hooks": hooks.prefetch_related("deliveries"),
        "events": services.EVENTS,
        "error": error,
        "created": created,
    }
    return render(request, "webhooks/list.html", context, status=400 if error else 200)


@login_required
@require_POST
def webhook_delete(request: PageRequest, pk: int) -> HttpResponse:
    org = organisation_for_user(request.user)
    get_object_or_404(Webhook.objects.filter(organisation=org), pk=pk).delete()
    return webhook_list(request)
